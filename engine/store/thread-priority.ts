import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread (Linux: its nice value; the nice value is per
 * thread there, setpriority(2), and /proc/thread-self names the thread's id). Why: the write
 * thread's work can wait, the event loop's cannot; on a machine whose cores are all busy the
 * scheduler then gives the event loop's thread the larger share. Elsewhere, or where it is
 * refused, the thread keeps its priority; that is only slower, never wrong.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

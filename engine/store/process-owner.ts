import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Told apart from an earlier process that had the same pid (a restarted container is pid 1 again). */
const BOOT = randomBytes(6).toString('hex');

/**
 * The owner name a lock or lease of this process carries: `host:pid:boot[:tag]`. It says enough
 * for another process on the same host to tell, without waiting for the lease to run out, that
 * its holder is gone (see `ownerIsGone`).
 */
export function processOwner(tag?: string): string {
  return `${hostname()}:${process.pid}:${BOOT}${tag ? `:${tag}` : ''}`;
}

/**
 * True when `owner` names a process of this host that no longer runs (killed, crashed, or an
 * earlier life of this very pid). Why: a lease of a process killed with -9 would otherwise hold
 * its connector for the lease's whole length after a restart. Owners of other hosts, and names
 * this cannot read, are never declared gone: their leases run out as before.
 */
export function ownerIsGone(owner: string): boolean {
  const [host, pidText, boot] = owner.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || !boot) return false;
  if (pid === process.pid) return boot !== BOOT;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the pid runs, as another user's process; only ESRCH says nobody has it.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

import type { Clock, ClockTimer } from './clock.js';

/** A wait the engine scheduled on a manual clock. */
export interface ScheduledWait {
  /** The delay asked for, in milliseconds. */
  delayMs: number;
  /** When it fires, on the clock's time. */
  dueAt: number;
  /** `sleep`, `timer` or `repeating`. */
  kind: 'sleep' | 'timer' | 'repeating';
}

/**
 * A clock that moves only when told to. Tests pass it to `connect`, `openStore` or
 * `startHostedService`, read the waits the engine scheduled, and move past them with `advance`
 * instead of sleeping: a test then never depends on the machine's speed.
 */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing every wait that falls due, in order of their time. */
  advance(ms: number): Promise<void>;
  /** Moves time to the earliest pending wait and fires it; resolves with that wait. */
  advanceToNext(): Promise<ScheduledWait>;
  /** Resolves with the first pending wait that matches, as soon as the engine schedules one. */
  nextWait(match?: (wait: ScheduledWait) => boolean): Promise<ScheduledWait>;
  /** The waits scheduled and not yet fired or cancelled, earliest first. */
  pending(): ScheduledWait[];
  /** Every wait ever scheduled, in the order they were scheduled (repeating ones once). */
  readonly history: readonly ScheduledWait[];
}

interface Entry extends ScheduledWait {
  seq: number;
  run: () => void;
  everyMs?: number;
}

/** Lets promise callbacks run, so work a fired wait resumes gets to schedule its next wait. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Creates a manual clock starting at `startMs` (default: the real time now, so stored timestamps
 * look plausible).
 */
export function createManualClock(startMs: number = Date.now()): ManualClock {
  let now = startMs;
  let seq = 0;
  const entries = new Set<Entry>();
  const history: ScheduledWait[] = [];
  const watchers = new Set<{ match: (wait: ScheduledWait) => boolean; resolve: (wait: ScheduledWait) => void }>();

  const view = (entry: Entry): ScheduledWait => ({ delayMs: entry.delayMs, dueAt: entry.dueAt, kind: entry.kind });
  const ordered = () => [...entries].sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);

  function schedule(kind: ScheduledWait['kind'], run: () => void, ms: number, everyMs?: number): Entry {
    const delayMs = Math.max(0, Number.isFinite(ms) ? ms : 0);
    const entry: Entry = { kind, delayMs, dueAt: now + delayMs, seq: seq++, run, ...(everyMs !== undefined ? { everyMs } : {}) };
    entries.add(entry);
    history.push(view(entry));
    for (const watcher of watchers) {
      if (!watcher.match(view(entry))) continue;
      watchers.delete(watcher);
      watcher.resolve(view(entry));
    }
    return entry;
  }

  function fire(entry: Entry): void {
    entries.delete(entry);
    if (entry.everyMs !== undefined) {
      entry.dueAt += Math.max(1, entry.everyMs);
      entry.seq = seq++;
      entries.add(entry);
    }
    entry.run();
  }

  const clock: ManualClock = {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          entries.delete(entry);
          reject(signal?.reason);
        };
        const entry = schedule('sleep', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    setTimer(run, ms): ClockTimer {
      const entry = schedule('timer', run, ms);
      return { cancel: () => void entries.delete(entry) };
    },
    setRepeating(run, ms): ClockTimer {
      const entry = schedule('repeating', run, ms, ms);
      return { cancel: () => void entries.delete(entry) };
    },
    async advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance needs a non-negative number of milliseconds, got ${ms}`);
      const until = now + ms;
      await settle();
      for (;;) {
        const next = ordered()[0];
        if (!next || next.dueAt > until) break;
        now = Math.max(now, next.dueAt);
        fire(next);
        await settle();
      }
      now = until;
      await settle();
    },
    async advanceToNext() {
      await settle();
      const next = ordered()[0];
      if (!next) throw new Error('clock.advanceToNext: nothing is scheduled');
      const wait = view(next);
      await clock.advance(Math.max(0, next.dueAt - now));
      return wait;
    },
    nextWait(match = () => true) {
      const found = ordered().find((entry) => match(view(entry)));
      if (found) return Promise.resolve(view(found));
      return new Promise((resolve) => watchers.add({ match, resolve }));
    },
    pending: () => ordered().map(view),
    history,
  };
  return clock;
}

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

/** What a wait shows of itself: the entry without its order and callback. */
function view(entry: Entry): ScheduledWait {
  return { delayMs: entry.delayMs, dueAt: entry.dueAt, kind: entry.kind };
}

/** A watcher of {@link ManualClock.nextWait} that no pending wait matched yet. */
interface Watcher {
  match: (wait: ScheduledWait) => boolean;
  resolve: (wait: ScheduledWait) => void;
}

/**
 * The time and the waits of one manual clock.
 * Why: the clock's methods are thin doors onto this one state, each short enough to read.
 */
class WaitQueue {
  now: number;
  readonly history: ScheduledWait[] = [];
  private seq = 0;
  private readonly entries = new Set<Entry>();
  private readonly watchers = new Set<Watcher>();

  constructor(startMs: number) {
    this.now = startMs;
  }

  /** The pending waits, earliest first; equal times in the order they were scheduled. */
  ordered(): Entry[] {
    return [...this.entries].sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
  }

  /** Adds a wait, records it and hands it to the first watchers it matches. */
  schedule(kind: ScheduledWait['kind'], run: () => void, ms: number, everyMs?: number): Entry {
    const delayMs = Math.max(0, Number.isFinite(ms) ? ms : 0);
    const entry: Entry = { kind, delayMs, dueAt: this.now + delayMs, seq: this.seq++, run, ...(everyMs !== undefined ? { everyMs } : {}) };
    this.entries.add(entry);
    this.history.push(view(entry));
    for (const watcher of this.watchers) {
      if (!watcher.match(view(entry))) continue;
      this.watchers.delete(watcher);
      watcher.resolve(view(entry));
    }
    return entry;
  }

  /** Drops a wait; false when it already fired or was cancelled. */
  cancel(entry: Entry): boolean {
    return this.entries.delete(entry);
  }

  /** Runs a wait that fell due; a repeating one is put back one period later. */
  private fire(entry: Entry): void {
    this.entries.delete(entry);
    if (entry.everyMs !== undefined) {
      entry.dueAt += Math.max(1, entry.everyMs);
      entry.seq = this.seq++;
      this.entries.add(entry);
    }
    entry.run();
  }

  /** See {@link ManualClock.advance}. */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance needs a non-negative number of milliseconds, got ${ms}`);
    const until = this.now + ms;
    await settle();
    for (;;) {
      const next = this.ordered()[0];
      if (!next || next.dueAt > until) break;
      this.now = Math.max(this.now, next.dueAt);
      this.fire(next);
      await settle();
    }
    this.now = until;
    await settle();
  }

  /** See {@link ManualClock.advanceToNext}. */
  async advanceToNext(): Promise<ScheduledWait> {
    await settle();
    const next = this.ordered()[0];
    if (!next) throw new Error('clock.advanceToNext: nothing is scheduled');
    const wait = view(next);
    await this.advance(Math.max(0, next.dueAt - this.now));
    return wait;
  }

  /** See {@link ManualClock.nextWait}. */
  nextWait(match: (wait: ScheduledWait) => boolean): Promise<ScheduledWait> {
    const found = this.ordered().find((entry) => match(view(entry)));
    if (found) return Promise.resolve(view(found));
    return new Promise((resolve) => this.watchers.add({ match, resolve }));
  }
}

/** A sleep on the queue: resolves when it fires, rejects with the signal's reason when aborted first. */
function sleepOn(queue: WaitQueue, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      queue.cancel(entry);
      reject(signal?.reason);
    };
    const entry = queue.schedule(
      'sleep',
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      ms,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Creates a manual clock starting at `startMs` (default: the real time now, so stored timestamps
 * look plausible).
 */
export function createManualClock(startMs: number = Date.now()): ManualClock {
  const queue = new WaitQueue(startMs);
  const clock: ManualClock = {
    now: () => queue.now,
    sleep: (ms, signal) => sleepOn(queue, ms, signal),
    setTimer(run, ms): ClockTimer {
      const entry = queue.schedule('timer', run, ms);
      return { cancel: () => void queue.cancel(entry) };
    },
    setRepeating(run, ms): ClockTimer {
      const entry = queue.schedule('repeating', run, ms, ms);
      return { cancel: () => void queue.cancel(entry) };
    },
    advance: (ms) => queue.advance(ms),
    advanceToNext: () => queue.advanceToNext(),
    nextWait: (match = () => true) => queue.nextWait(match),
    pending: () => queue.ordered().map(view),
    history: queue.history,
  };
  return clock;
}

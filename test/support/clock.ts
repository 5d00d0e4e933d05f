import type { ManualClock, ScheduledWait } from '../../engine/clock/index.js';

/** How a piece of work driven on a manual clock ended, and the sleeps it scheduled on the way. */
export interface DrivenOutcome<T> {
  value?: T;
  error?: unknown;
  /** The delays of the sleeps the work scheduled, in order. */
  sleeps: number[];
}

/** What `driveClock` moves time for, and when. */
export interface DriveOptions {
  /** The waits to move time to (default: sleeps; timers such as deadlines fire only on the way). */
  match?: (wait: ScheduledWait) => boolean;
  /**
   * True when nothing is in flight (e.g. `connection.stats.inFlight === 0`): time moves only then,
   * so answers arrive at the time they were sent, whatever the machine's speed.
   */
  quiet?: () => boolean;
}

/**
 * Runs `work` to its end on `clock`: each time it sleeps (a retry's Retry-After or back-off, the
 * rate limiter), time moves to the end of that sleep at once. Timers (deadlines, polls) only fire
 * when a sleep moves time past them. Nothing waits in real time.
 */
export async function driveClock<T>(clock: ManualClock, work: Promise<T>, options: DriveOptions = {}): Promise<DrivenOutcome<T>> {
  const match = options.match ?? ((wait: ScheduledWait) => wait.kind === 'sleep');
  const sleeps: number[] = [];
  const settled = work.then(
    (value) => ({ done: true as const, value }),
    (error: unknown) => ({ done: true as const, error }),
  );
  for (;;) {
    const next = await Promise.race([settled, clock.nextWait(match).then((wait) => ({ done: false as const, wait }))]);
    if (next.done) return { ...('error' in next ? { error: next.error } : { value: next.value }), sleeps };
    sleeps.push(next.wait.delayMs);
    while (options.quiet && !options.quiet()) await new Promise((resolve) => setTimeout(resolve, 1));
    await clock.advance(Math.max(0, next.wait.dueAt - clock.now()));
  }
}

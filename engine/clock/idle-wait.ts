import type { Clock } from './clock.js';

/**
 * The idle wait of a polling loop (the sync scheduler, the webhook worker): it ends when the poll
 * interval has passed on the clock or when the loop is woken (a kick, a stop). A wake-up that
 * comes while the loop is busy, between two waits (awaiting its database query), is kept, and the
 * next wait ends at once. Why: a loop that queries and then waits would otherwise miss a stop
 * that came during the query and sleep a whole interval before seeing it (for ever on a manual
 * clock), and the server's close waits for the loop; a kick would likewise be lost until the next
 * poll.
 */
export class IdleWait {
  private wake: (() => void) | undefined;
  private woken = false;

  constructor(private readonly clock: Clock) {}

  /** Resolves after `ms` on the clock, when woken, or at once when woken since the last wait. */
  wait(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = this.clock.setTimer(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        timer.cancel();
        resolve();
      };
    });
  }

  /** Ends the wait in progress, or the next one at once when the loop is not waiting. */
  wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    if (wake) wake();
    else this.woken = true;
  }
}

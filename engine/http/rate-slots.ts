import { systemClock, type Clock } from '../clock/index.js';

/** The outcome of asking for a slot: one was taken, or none is free for at least `waitMs`. */
export type SlotTake = { slot: number } | { waitMs: number };

/**
 * Where the slots of one rate-limit budget live: this process's memory (the library), or the
 * store's database, so that every server process on it shares one upstream account's budget.
 *
 * A budget of N requests per window is N slots, each holding a time. Taking a slot stamps it with
 * now + `holdMs` (a lease: an attempt that never ends, e.g. its process died, gives the slot back
 * a window after the lease); releasing it stamps it with the time the attempt ended. A slot is
 * free once its time has left the window. Stamping the end rather than the start keeps the
 * upstream's count right whatever the network delay: the next request on a slot leaves a full
 * window after the previous one was answered, so after it arrived.
 */
export interface RateSlots {
  /**
   * Takes a free slot among the first `requests`, or says how long until one can be free: a lower
   * bound (a slot held now is free a window after it is released, at the earliest).
   */
  take(requests: number, windowMs: number, holdMs: number): Promise<SlotTake>;
  /** Stamps a taken slot with now: the attempt on it has ended. */
  release(slot: number): Promise<void>;
}

/** The slots of one connection, in this process. */
export class MemoryRateSlots implements RateSlots {
  private readonly times: number[] = [];

  constructor(private readonly clock: Clock = systemClock) {}

  async take(requests: number, windowMs: number, holdMs: number): Promise<SlotTake> {
    const now = this.clock.now();
    while (this.times.length < requests) this.times.push(Number.NEGATIVE_INFINITY);
    let oldest = 0;
    for (let slot = 0; slot < requests; slot++) {
      if ((this.times[slot] as number) < (this.times[oldest] as number)) oldest = slot;
    }
    const time = this.times[oldest] as number;
    if (time <= now - windowMs) {
      this.times[oldest] = now + holdMs;
      return { slot: oldest };
    }
    return { waitMs: freeIn(this.times.slice(0, requests), now, windowMs) };
  }

  async release(slot: number): Promise<void> {
    this.times[slot] = this.clock.now();
  }
}

/**
 * The soonest any of `times` can leave the window: a leased time (in the future) counts as
 * released now, since its attempt may end any moment.
 */
export function freeIn(times: readonly number[], now: number, windowMs: number): number {
  let soonest = Number.POSITIVE_INFINITY;
  for (const time of times) soonest = Math.min(soonest, Math.min(time, now) + windowMs - now);
  return Math.max(0, soonest);
}

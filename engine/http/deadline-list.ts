import type { Clock, ClockTimer } from '../clock/index.js';

/** One deadline in a {@link DeadlineList}: when it passes (on the list's clock) and what to do then. */
export interface Deadline {
  readonly at: number;
  readonly pass: () => void;
  /** Links of the list; set while the deadline is in one. */
  earlier?: Deadline | undefined;
  later?: Deadline | undefined;
  listed?: boolean;
}

/**
 * The deadlines of the calls in flight on one clock: a list ordered by time under one timer, set
 * for the earliest. Why not a timer per call: setTimeout, unref and clearTimeout (a timer object,
 * the loop's time, a list of Node's own, often a new one, and the handle's ref count) cost more
 * per call than the rest of its bookkeeping. Calls mostly share one deadline length, so a new one
 * goes at the end; an ended call unlinks itself; the timer is moved only when it fires (to the
 * then earliest) or when the list empties (it is cancelled: a process is never held open, and a
 * manual clock shows no timer of calls that have ended). A deadline passes at its time, never
 * before: a timer that fires early (the loop's clock and Date.now disagree by a millisecond) is
 * set again.
 */
export class DeadlineList {
  private earliest: Deadline | undefined;
  private latest: Deadline | undefined;
  private timer: ClockTimer | undefined;
  /** When the timer is set to fire (Infinity: no timer). */
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly clock: Clock) {}

  /** Adds a deadline; its `pass` runs once, at its time, unless it is removed first. */
  add(deadline: Deadline): void {
    let after = this.latest;
    while (after !== undefined && after.at > deadline.at) after = after.earlier;
    deadline.earlier = after;
    deadline.later = after === undefined ? this.earliest : after.later;
    if (deadline.later) deadline.later.earlier = deadline;
    else this.latest = deadline;
    if (after) after.later = deadline;
    else this.earliest = deadline;
    deadline.listed = true;
    if (deadline.at < this.timerAt) this.setTimer(deadline.at);
  }

  /** Takes a deadline out (its call ended); nothing when it is not in the list. */
  remove(deadline: Deadline): void {
    if (!deadline.listed) return;
    deadline.listed = false;
    if (deadline.earlier) deadline.earlier.later = deadline.later;
    else this.earliest = deadline.later;
    if (deadline.later) deadline.later.earlier = deadline.earlier;
    else this.latest = deadline.earlier;
    deadline.earlier = undefined;
    deadline.later = undefined;
    if (this.earliest === undefined) this.cancelTimer();
  }

  private setTimer(at: number): void {
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.clock.setTimer(() => this.fire(), Math.max(0, at - this.clock.now()));
  }

  private cancelTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** Passes every deadline that is due, then sets the timer for the next one. */
  private fire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    for (;;) {
      const next = this.earliest;
      if (next === undefined) return;
      const now = this.clock.now();
      if (next.at > now) return this.setTimer(next.at);
      this.remove(next);
      next.pass();
    }
  }
}

const lists = new WeakMap<Clock, DeadlineList>();

/** The deadline list of a clock (one per clock: a manual clock's calls expire on its time). */
export function deadlinesOf(clock: Clock): DeadlineList {
  let list = lists.get(clock);
  if (!list) lists.set(clock, (list = new DeadlineList(clock)));
  return list;
}

import type { Traffic } from './upstream-call.js';

/**
 * Sync traffic's share of a connector's budget while interactive calls wait: half. Sync keeps
 * moving (a pass still finishes), and an interactive call never waits behind more than half a
 * window of background reads (issue 11: an execute waited on 429s while sync used up the limit).
 */
export const SYNC_SHARE = 0.5;

/** How many of `capacity` units (slots, concurrent requests) sync may hold while interactive calls wait. */
export function syncShareOf(capacity: number): number {
  return Math.max(1, Math.floor(capacity * SYNC_SHARE));
}

/**
 * Waiters of two traffic classes, first come first served, except that sync waiters stand aside
 * while interactive ones wait and sync already holds its share. The caller says whether sync is
 * under its share; the queue only orders.
 */
export class TrafficQueue<T extends { readonly traffic: Traffic }> {
  private readonly lanes: Record<Traffic, Array<{ item: T; seq: number }>> = { interactive: [], sync: [] };
  private seq = 0;

  get size(): number {
    return this.lanes.interactive.length + this.lanes.sync.length;
  }

  /** Adds a waiter at the back of its class. */
  push(item: T): void {
    this.lanes[item.traffic].push({ item, seq: this.seq++ });
  }

  /** Whether a waiter of `traffic` is queued. */
  has(traffic: Traffic): boolean {
    return this.lanes[traffic].length > 0;
  }

  /** Takes a waiter out (its deadline passed); false when it was not queued. */
  remove(item: T): boolean {
    const lane = this.lanes[item.traffic];
    // Granted waiters leave from the front: no search, no closure.
    if (lane[0]?.item === item) {
      lane.shift();
      return true;
    }
    const index = lane.findIndex((entry) => entry.item === item);
    if (index < 0) return false;
    lane.splice(index, 1);
    return true;
  }

  /**
   * The waiter to serve next, without taking it out: the longest-waiting one, unless that is a
   * sync waiter while an interactive one waits and sync is not under its share.
   */
  peek(syncUnderShare: boolean): T | undefined {
    const interactive = this.lanes.interactive[0];
    const sync = this.lanes.sync[0];
    if (!interactive) return sync?.item;
    if (!sync || !syncUnderShare) return interactive.item;
    return sync.seq < interactive.seq ? sync.item : interactive.item;
  }

  /** Every waiter, in no particular order (to fail the ones a wait cannot serve in time). */
  all(): T[] {
    return [...this.lanes.interactive, ...this.lanes.sync].map((entry) => entry.item);
  }
}

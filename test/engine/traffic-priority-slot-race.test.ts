/**
 * A slot store in a database (the hosted service's, shared between processes) takes a slot in a
 * round trip. An interactive call can come on its way while that take is in flight, after sync
 * already holds its share: the slot is then the call's, not a third one for sync. CI saw sync
 * take it once (traffic-priority.test.ts, PostgreSQL, 2026-12-02). Here the take is held by a
 * slot store of the test's own (the public `rateSlots` option) and the upstream holds every request
 * (test/support/held-api.ts), so the race happens on every run, in order, with no timing.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, createManualClock, type RateSlots, type SlotTake, type Traffic } from '../../engine/index.js';
import { HELD_TOKEN, startHeldApi, type HeldApi } from '../support/held-api.js';
import { waitFor } from '../support/sync-processes.js';

/** Three in flight: two sync requests at the upstream, a third sync call holding a turn while it takes a slot. */
const CONCURRENCY = 3;
const LIMIT = { requests: 4, perMs: 1_000 };

let api: HeldApi;

beforeAll(async () => {
  api = await startHeldApi(CONCURRENCY);
});
afterAll(() => api.close());

/** Slots that come free as soon as they are released (the window plays no part here); the take named by `holdTake` waits until it is let go. */
class HeldTakeSlots implements RateSlots {
  private readonly taken = new Set<number>();
  private takes = 0;
  private heldAt = 0;
  private reached: () => void = () => undefined;
  private letGo: Promise<void> = Promise.resolve();

  /** Holds the `nth` take from now; resolves `reached` when it starts, and it goes on at `letGo()`. */
  holdTake(nth: number): { reached: Promise<void>; letGo: () => void } {
    this.heldAt = this.takes + nth;
    const reached = new Promise<void>((resolve) => (this.reached = resolve));
    let letGo: () => void = () => undefined;
    this.letGo = new Promise<void>((resolve) => (letGo = resolve));
    return { reached, letGo };
  }

  async take(requests: number): Promise<SlotTake> {
    if (++this.takes === this.heldAt) {
      this.reached();
      await this.letGo;
    }
    for (let slot = 0; slot < requests; slot++) {
      if (this.taken.has(slot)) continue;
      this.taken.add(slot);
      return { slot };
    }
    return { waitMs: LIMIT.perMs };
  }

  async release(slot: number): Promise<void> {
    this.taken.delete(slot);
  }
}

test('a slot whose take was in flight when an interactive call came goes to that call, sync already holding its share', async () => {
  const slots = new HeldTakeSlots();
  const started: Traffic[] = [];
  let syncSeen = 0;
  const connection = connect(api.manifest, {
    credentials: { token: HELD_TOKEN },
    baseUrl: api.baseUrl,
    rateLimit: LIMIT,
    rateSlots: slots,
    // The limiter's window reads this clock; it never moves, so sync's answered slots stay counted.
    clock: createManualClock(),
    onUpstreamRequest: ({ kind }) => {
      if (kind !== 'api') return;
      const sync = connection.stats.syncAttempts;
      started.push(sync > syncSeen ? 'sync' : 'interactive');
      syncSeen = sync;
    },
  });
  api.setRelease(() => 'none');
  const { reached, letGo } = slots.holdTake(3);
  try {
    // Two sync calls at the upstream (sync's share of four slots), a third holding the last turn, its take held.
    const syncCalls = Array.from({ length: 3 }, () => connection.execute('items', 'list', {}, { traffic: 'sync' }));
    await reached;
    await waitFor(() => api.heldCount === 2, { what: 'two sync requests at the upstream', timeoutMs: 10_000, intervalMs: 5 });
    // The call finds every turn taken and waits for one: it is on its way to the slots.
    const call = connection.execute('items', 'list');
    expect(connection.stats.requests).toBe(4);
    letGo();
    // The held take has its answer; then the upstream answers the two sync requests, freeing turns.
    await new Promise((resolve) => setImmediate(resolve));
    api.setRelease(() => 'all');
    api.answerAll();
    const answer = await call;
    expect(answer.data).toEqual([{ id: 'a' }]);
    await Promise.all(syncCalls);
    // Sync started its two before the call came; the third sync call goes only after the call.
    expect(started).toEqual(['sync', 'sync', 'interactive', 'sync']);
    expect(connection.stats.syncAttempts).toBe(3);
  } finally {
    letGo();
    api.answerAll();
    await connection.close();
  }
});

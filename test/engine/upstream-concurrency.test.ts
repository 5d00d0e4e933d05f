/**
 * The manifest's `http.concurrency` caps a connection's requests in flight upstream, and
 * `rateLimit: false` (serve and sandbox with --no-rate-limits, benchmarks) drops that cap with the
 * rate limit. The held API (test/support/held-api.ts) holds every request it receives and counts how many
 * it holds at once; the test decides when they are answered, so no timing is involved.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { connect, type Connection, type ConnectOptions } from '../../engine/index.js';
import { HELD_TOKEN, startHeldApi, type HeldApi, type Release } from '../support/held-api.js';

const CAP = 3;
const CALLS = 2 * CAP;

let api: HeldApi;

beforeAll(async () => {
  api = await startHeldApi(CAP);
});
afterAll(() => api.close());
beforeEach(() => api.reset());

/**
 * Starts CALLS lists on one connection at once and waits for them all; `releaseFor` says, given
 * the connection (to read its counters), when the server answers.
 */
async function listAtOnce(options: Partial<ConnectOptions>, releaseFor: (connection: Connection) => Release): Promise<void> {
  const connection = connect(api.manifest, { credentials: { token: HELD_TOKEN }, baseUrl: api.baseUrl, ...options });
  api.setRelease(releaseFor(connection));
  try {
    const results = await Promise.all(Array.from({ length: CALLS }, () => connection.execute('items', 'list')));
    expect(results.map((result) => result.data)).toEqual(Array.from({ length: CALLS }, () => [{ id: 'a' }]));
  } finally {
    await connection.close();
  }
}

type Stats = Connection['stats'];

describe("the manifest's concurrency cap", () => {
  test('holds a connection to that many requests in flight upstream', async () => {
    // Nothing is answered until CAP requests have arrived; then the client's counters say every
    // call reached it but only CAP were sent (the others wait for a turn), and from then on the
    // server answers at once, so the waiting calls go.
    let atCap: Stats | undefined;
    await listAtOnce({}, (connection) => (count) => {
      if (count === CAP) atCap ??= { ...connection.stats };
      return atCap ? 'all' : 'none';
    });
    expect(atCap).toMatchObject({ requests: CALLS, attempts: CAP, inFlight: CAP });
    expect(api.maxHeld).toBe(CAP);
  });

  test('is off with rateLimit: false: every call is in flight upstream at once', async () => {
    // Nothing is answered until every call has arrived: with the cap still on, the calls past it
    // would wait for a turn that never comes (and fail at their deadline).
    let atAll: Stats | undefined;
    await listAtOnce({ rateLimit: false, deadlineMs: 5_000 }, (connection) => (count) => {
      if (count < CALLS) return 'none';
      atAll = { ...connection.stats };
      return 'all';
    });
    expect(atAll).toMatchObject({ requests: CALLS, attempts: CALLS, inFlight: CALLS });
    expect(api.maxHeld).toBe(CALLS);
  });
});

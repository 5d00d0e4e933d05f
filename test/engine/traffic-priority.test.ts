import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, createManualClock, openStore, type Connection, type ManualClock, type Store, type Traffic } from '../../engine/index.js';
import type { RecordedRequest } from '../../engine/sandbox/index.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { testTenant } from '../support/store-tenants.js';
import { waitFor } from '../support/sync-processes.js';

/**
 * Issue 11 part 3: interactive calls and sync share a connector's rate limit, and sync gets only a
 * bounded share (half the window) while interactive calls wait. Asserted on the order and count of
 * the attempts each class started (the order the limiter granted their slots) or of the requests
 * each got at the fake, not on wall time. The limiter's slots live in memory (the library), or in
 * SQLite or PostgreSQL (what the hosted service shares between processes).
 */

/** Four requests per 400 ms: small enough that a handful of readers saturate it at once. */
const LIMIT = { requests: 4, perMs: 400 };
/**
 * LIMIT with a window long enough for the wall-time test below on a loaded machine. That test reads
 * real time (PostgreSQL's slots are stamped by the database's clock, so no clock can be injected),
 * and its bound holds only while each interactive call gets its slot within a window of sync's
 * last one: past that, sync's oldest slot has left the window and sync is under its share again,
 * as it should be. 1.5 s leaves more than a second of stall to spare. (CI saw 3 on PostgreSQL
 * once, 2026-12-02: a slot take in flight when the call came went to sync; that race is fixed
 * and tested on its own in traffic-priority-slot-race.test.ts.)
 */
const SATURATED_LIMIT = { requests: LIMIT.requests, perMs: 1_500 };
/** Sync's share of LIMIT while interactive calls wait (half of four slots). */
const SYNC_SHARE_SLOTS = 2;
/**
 * Sync readers enough that first come first served would keep an interactive call waiting for three
 * windows; more than the manifest's ten concurrent requests, so the call also waits for a turn.
 */
const SYNC_READERS = 12;
const CONTACTS = '/crm/v3/objects/contacts';
const DEALS = '/crm/v3/objects/deals/';

let hub: HubspotHarness;
let cluster: PostgresCluster | undefined;
let dealId: string;

beforeAll(async () => {
  hub = await startHubspot();
  const deals = await hub.raw('/crm/v3/objects/deals?limit=1');
  dealId = String(deals.body.results[0].id);
});
afterAll(async () => {
  await hub?.close();
  await cluster?.stop();
});

type SlotHome = 'memory' | 'sqlite' | 'postgres';

/** A store holding one hubspot connector, whose slots a connection may use. */
async function slotStore(home: Exclude<SlotHome, 'memory'>): Promise<{ store: Store; connectorId: string }> {
  let url = 'sqlite::memory:';
  if (home === 'postgres') {
    cluster ??= await startPostgres();
    url = await cluster.createDatabase();
  }
  const store = await openStore(url);
  const row = await store.createConnector({
    tenant: await testTenant(store),
    connector_type: 'hubspot',
    config: {},
    auth_scheme: 'private_app',
    credentials_ciphertext: 'unused',
  });
  return { store, connectorId: row.id };
}

/** A limited hubspot connection, and the class of each attempt it started, in the order it started them. */
interface LimitedHubspot {
  connection: Connection;
  started: Traffic[];
  close(): Promise<void>;
}

async function limitedHubspot(home: SlotHome, clock?: ManualClock, limit = LIMIT): Promise<LimitedHubspot> {
  const started: Traffic[] = [];
  let syncSeen = 0;
  // Told as each attempt starts, just after the limiter granted its slot and the connection counted
  // it: the sync count moved for a sync attempt only.
  const onUpstreamRequest = ({ kind }: { kind: string }) => {
    if (kind !== 'api') return;
    const sync = connection.stats.syncAttempts;
    started.push(sync > syncSeen ? 'sync' : 'interactive');
    syncSeen = sync;
  };
  const options = { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl, rateLimit: limit, onUpstreamRequest, ...(clock ? { clock } : {}) };
  let connection: Connection;
  if (home === 'memory') {
    connection = connect<string>('hubspot', options);
    return { connection, started, close: async () => undefined };
  }
  const { store, connectorId } = await slotStore(home);
  connection = connect<string>('hubspot', { ...options, rateSlots: store.rateSlots(connectorId) });
  return { connection, started, close: () => store.close() };
}

/** `readers` sync readers paging through contacts one record a page, until `stop.done`. */
function syncReaders(connection: Connection, readers: number, stop: { done: boolean }): Promise<unknown> {
  return Promise.all(
    Array.from({ length: readers }, async () => {
      for await (const record of connection.records('contacts', 'list', { limit: 1 }, { traffic: 'sync' })) {
        if (stop.done || !record) return;
      }
    }),
  );
}

function isSync(request: RecordedRequest): boolean {
  return request.path === CONTACTS;
}

function isInteractive(request: RecordedRequest): boolean {
  return request.path.startsWith(DEALS);
}

/** How many sync attempts started before the first interactive one in `started` (undefined: none started). */
function syncBeforeInteractive(started: Traffic[]): number | undefined {
  const at = started.indexOf('interactive');
  return at < 0 ? undefined : at;
}

// The three slot homes at once (each connection has a limiter and slots of its own): each waits
// out several 1.5 s windows, mostly idle. Counted on the connection, not at the shared fake.
describe.concurrent('rate-limit slots saturated by sync readers', () => {
  test.for(['memory', 'sqlite', 'postgres'] as const)(
    'in %s: each interactive call gets a slot after at most sync’s share',
    { timeout: 60_000 },
    async (home, { expect }) => {
      const { connection, started, close } = await limitedHubspot(home, undefined, SATURATED_LIMIT);
      const stop = { done: false };
      const readers = syncReaders(connection, SYNC_READERS, stop);
      try {
        await waitFor(() => connection.stats.syncAttempts >= 2 * SATURATED_LIMIT.requests, { what: 'sync to saturate the limit', timeoutMs: 20_000 });
        const mark = started.length;
        // Three interactive calls, one after the other, as a user clicking would make them; for each,
        // the sync attempts started from the moment it was made until its own attempt started.
        const waits: Array<number | undefined> = [];
        for (let i = 0; i < 3; i++) {
          const made = started.length;
          await connection.execute('deals', 'get', { dealId });
          waits.push(syncBeforeInteractive(started.slice(made)));
        }
        expect(started.slice(mark).filter((traffic) => traffic === 'interactive')).toHaveLength(3);
        // First come first served would start the readers already waiting first: eight or more sync
        // attempts before each call. With priority, while the call waits (for a concurrency turn,
        // the readers holding all ten, then for a slot) sync gets a slot only while it holds (in
        // flight, or answered less than a window ago) fewer than its share; each slot it gets then
        // stays counted until the call has its own, which comes within a window (every answer
        // here takes far less). Before the call waits there is nothing to hold back: the call
        // reaches the limiter without waiting for I/O, and no slot stays free while sync waits.
        // So at most sync's share, on every slot store. (Counted at the fake instead, sync requests
        // sent just before the call or just after its slot can be answered before it.)
        for (const wait of waits) expect(wait).toBeLessThanOrEqual(SYNC_SHARE_SLOTS);
        expect(connection.stats.syncAttempts).toBeGreaterThan(0);
        expect(connection.stats.attempts - connection.stats.syncAttempts).toBe(3);
      } finally {
        stop.done = true;
        await readers;
        await close();
      }
    },
  );
});

test('a call that first waits for a concurrency turn, sync readers holding every turn, still sees sync held to its share of the window', async () => {
  const clock = createManualClock();
  const { connection, started } = await limitedHubspot('memory', clock);
  const stop = { done: false };
  let readersDone = false;
  const readers = syncReaders(connection, SYNC_READERS, stop).finally(() => (readersDone = true));
  /** Moves the clock a window at a time, each time until the slots it freed are answered, until `done`. */
  const windowsUntil = async (done: () => boolean, what: string) => {
    while (!done()) {
      await clock.advance(LIMIT.perMs);
      await waitFor(() => done() || connection.stats.inFlight === 0, { what, timeoutMs: 20_000, intervalMs: 5 });
    }
  };
  try {
    // The window's four slots go to four readers. Once they are answered nothing is in flight and
    // every reader is back in the limiter (twelve requests, then four more): ten hold the
    // manifest's ten concurrency turns, waiting for a slot until the clock moves a window.
    await waitFor(() => connection.stats.requests === SYNC_READERS + LIMIT.requests && connection.stats.inFlight === 0, {
      what: 'every reader waiting',
      timeoutMs: 20_000,
    });
    const made = started.length;
    let answered = false;
    const call = connection.execute('deals', 'get', { dealId }).then(() => (answered = true));
    await waitFor(() => connection.stats.requests === SYNC_READERS + LIMIT.requests + 1, {
      what: 'the call to wait for a turn',
      timeoutMs: 20_000,
      intervalMs: 5,
    });
    await windowsUntil(() => answered, 'the interactive call');
    await call;
    // All four slots free at once with nothing of sync's in the window: sync takes its two, and the
    // call, still waiting for a turn, gets the next slot once one of them is answered. Were the
    // share kept only for calls already waiting for a slot, sync would take all four first, the
    // call would then wait a window behind them, and sync would take two more: six.
    expect(syncBeforeInteractive(started.slice(made))).toBe(SYNC_SHARE_SLOTS);
  } finally {
    stop.done = true;
    await windowsUntil(() => readersDone, 'the readers to stop');
    await readers;
  }
}, 60_000);

test('under load from both classes, sync keeps its share of the window and no more', async () => {
  const fake = hub.sandbox.fakes.hubspot;
  const { connection } = await limitedHubspot('memory');
  const stop = { done: false };
  const start = fake.requests.length;
  // Eight sync readers against two interactive loops: first come first served would give sync four
  // requests in five; the share caps it at half while interactive calls wait.
  const readers = syncReaders(connection, 8, stop);
  const interactive = Promise.all(
    Array.from({ length: 2 }, async () => {
      while (!stop.done) await connection.execute('deals', 'get', { dealId });
    }),
  );
  try {
    await waitFor(() => fake.requests.slice(start).filter(isSync).length >= LIMIT.requests, { what: 'sync to start', timeoutMs: 20_000 });
    const mark = fake.requests.length;
    await waitFor(() => fake.requests.length - mark >= 6 * LIMIT.requests, { what: 'six windows of traffic', timeoutMs: 30_000 });
    const log = fake.requests.slice(mark);
    const sync = log.filter(isSync).length;
    const answered = log.filter(isInteractive).length;
    expect(sync + answered).toBe(log.length);
    // Sync is not starved either: it gets its half.
    expect(sync / log.length).toBeGreaterThanOrEqual(0.3);
    expect(sync / log.length).toBeLessThanOrEqual(0.6);
  } finally {
    stop.done = true;
    await Promise.all([readers, interactive]);
  }
}, 60_000);

describe.each(['sqlite', 'postgres'] as const)('the sync runner (%s store)', (backend) => {
  test('marks its reads as sync traffic; an execute is interactive', async () => {
    let url = 'sqlite::memory:';
    if (backend === 'postgres') {
      cluster ??= await startPostgres();
      url = await cluster.createDatabase();
    }
    const connection = connect('hubspot', { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl, rateLimit: false, store: url });
    try {
      const states = await connection.sync({ entities: ['deals'] });
      expect(states.map((state) => state.status)).toEqual(['succeeded']);
      const afterSync = connection.stats;
      expect(afterSync.attempts).toBeGreaterThan(0);
      expect(afterSync.syncAttempts).toBe(afterSync.attempts);
      await connection.execute('deals', 'get', { dealId });
      expect(connection.stats.attempts).toBe(afterSync.attempts + 1);
      expect(connection.stats.syncAttempts).toBe(afterSync.syncAttempts);
    } finally {
      await connection.close();
    }
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, openStore, type Connection, type Store } from '../../engine/index.js';
import type { RecordedRequest } from '../../engine/sandbox/index.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { testTenant } from '../support/store-tenants.js';
import { waitFor } from '../support/sync-processes.js';

/**
 * Issue 11 part 3: interactive calls and sync share a connector's rate limit, and sync gets only a
 * bounded share (half the window) while interactive calls wait. Asserted on the order and count of
 * the requests each class got at the fake, not on wall time. The limiter's slots live in memory
 * (the library), or in SQLite or PostgreSQL (what the hosted service shares between processes).
 */

/** Four requests per 400 ms: small enough that a handful of readers saturate it at once. */
const LIMIT = { requests: 4, perMs: 400 };
/** Sync's share of LIMIT while interactive calls wait (half of four slots). */
const SYNC_SHARE_SLOTS = 2;
/** Sync readers enough that first come first served would keep an interactive call waiting for three windows. */
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

async function limitedHubspot(home: SlotHome): Promise<{ connection: Connection; close(): Promise<void> }> {
  const options = { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl, rateLimit: LIMIT };
  if (home === 'memory') return { connection: connect<string>('hubspot', options), close: async () => undefined };
  const { store, connectorId } = await slotStore(home);
  return { connection: connect<string>('hubspot', { ...options, rateSlots: store.rateSlots(connectorId) }), close: () => store.close() };
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

/** Sync requests the fake answered before each interactive one (from `log`'s start, then between them). */
function syncBeforeEach(log: RecordedRequest[]): number[] {
  const gaps: number[] = [];
  let count = 0;
  for (const request of log) {
    if (isSync(request)) count++;
    else if (isInteractive(request)) {
      gaps.push(count);
      count = 0;
    }
  }
  return gaps;
}

describe.each(['memory', 'sqlite', 'postgres'] as const)('rate-limit slots in %s', (home) => {
  test('with the limit saturated by sync readers, each interactive call gets a slot after at most sync’s share', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const { connection, close } = await limitedHubspot(home);
    const stop = { done: false };
    const start = fake.requests.length;
    const readers = syncReaders(connection, SYNC_READERS, stop);
    try {
      await waitFor(() => fake.requests.slice(start).filter(isSync).length >= 2 * LIMIT.requests, { what: 'sync to saturate the limit', timeoutMs: 20_000 });
      const mark = fake.requests.length;
      // Three interactive calls, one after the other, as a user clicking would make them.
      for (let i = 0; i < 3; i++) await connection.execute('deals', 'get', { dealId });
      const gaps = syncBeforeEach(fake.requests.slice(mark));
      expect(gaps).toHaveLength(3);
      // First come first served would put each call behind the twelve waiting readers: twelve
      // sync answers before it. With priority, sync gets at most its share while the call waits;
      // besides those, only sync requests already sent when the call was made (at most the
      // window's other slots) can be answered before it.
      for (const gap of gaps) expect(gap).toBeLessThanOrEqual(SYNC_SHARE_SLOTS + LIMIT.requests - 1);
      expect(connection.stats.syncAttempts).toBeGreaterThan(0);
      expect(connection.stats.attempts - connection.stats.syncAttempts).toBe(3);
    } finally {
      stop.done = true;
      await readers;
      await close();
    }
  }, 60_000);
});

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

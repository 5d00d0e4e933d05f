import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// The store first: its search import closes a cycle through engine/search, and loading the store
// before the search folder is the order that could leave the search dialects without table names.
import { createManualClock, type ManualClock } from '../../engine/clock/index.js';
import { openStore, type NewConnector, type Store, type SyncJob, type SyncState } from '../../engine/store/index.js';
import { parseSearchParams, searchRecords } from '../../engine/search/index.js';
import { testTenant } from '../support/store-tenants.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const LONG_LEASE = 10 * MINUTE;

/** One database backend: fresh databases, and how many stores the concurrency test opens on one. */
interface Backend {
  name: 'sqlite' | 'postgres';
  concurrentStores: number;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  freshUrl(): Promise<string>;
}

function sqliteBackend(): Backend {
  let root = '';
  let counter = 0;
  return {
    name: 'sqlite',
    concurrentStores: 2,
    async setup() {
      root = await mkdtemp(join(tmpdir(), 'ce-sync-jobs-'));
    },
    async teardown() {
      await rm(root, { recursive: true, force: true });
    },
    async freshUrl() {
      return `sqlite:${join(root, `db-${++counter}`, 'engine.db')}`;
    },
  };
}

function postgresBackend(): Backend {
  let cluster: PostgresCluster | undefined;
  return {
    name: 'postgres',
    concurrentStores: 4,
    async setup() {
      cluster = await startPostgres();
    },
    async teardown() {
      await cluster?.stop();
    },
    async freshUrl() {
      if (!cluster) throw new Error('PostgreSQL cluster not started');
      return cluster.createDatabase();
    },
  };
}

async function newConnector(store: Store, overrides: Partial<Omit<NewConnector, 'tenant'>> & { external_user_id?: string } = {}): Promise<NewConnector> {
  const { external_user_id: user = 'user-a', ...rest } = overrides;
  return {
    tenant: await testTenant(store, user),
    connector_type: 'hubspot',
    name: 'Sales CRM',
    config: {},
    auth_scheme: 'private_app',
    credentials_ciphertext: 'ciphertext',
    ...rest,
  };
}

const at = (ms: number) => new Date(ms);
const iso = (ms: number) => new Date(ms).toISOString();

describe.each([sqliteBackend(), postgresBackend()])('sync jobs and sync state on $name', (backend) => {
  const opened: Store[] = [];
  /** Opens a store that is closed after the test, whatever happens. */
  const open = async (url?: string, clock?: ManualClock) => {
    const store = await openStore(url ?? (await backend.freshUrl()), clock ? { clock } : {});
    opened.push(store);
    return store;
  };

  beforeAll(() => backend.setup());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(() => backend.teardown());

  it('round-trips the incremental fields of a sync state', async () => {
    const store = await open();
    const incremental: SyncState = {
      connector_id: 'conn-1',
      entity: 'contacts',
      status: 'succeeded',
      mode: 'incremental',
      records: 42,
      generation: 1_700_000_000_123,
      started_at: '2024-05-01T10:00:00.000Z',
      finished_at: '2024-05-01T10:01:00.000Z',
      last_success_at: '2024-05-01T10:01:00.000Z',
      last_error: null,
      cursor: '2024-05-01T09:59:58.000Z|hs_id=991',
      last_full_at: '2024-04-30T03:00:00.500Z',
    };
    const full: SyncState = { ...incremental, entity: 'deals', mode: 'full', cursor: null, last_full_at: null, status: 'running' };
    await store.saveSyncState(incremental);
    await store.saveSyncState(full);
    expect(await store.syncStates('conn-1')).toEqual([incremental, full]);

    // Saving again replaces every field, the new ones included.
    const replaced: SyncState = { ...incremental, mode: 'full', cursor: 'next-mark', last_full_at: '2024-05-02T00:00:00.000Z', records: 7 };
    await store.saveSyncState(replaced);
    expect(await store.syncStates('conn-1')).toEqual([replaced, full]);

    // A caller that predates the new fields gets the column defaults instead of an error.
    const { mode: _mode, cursor: _cursor, last_full_at: _full, ...legacy } = { ...incremental, connector_id: 'conn-2' };
    await store.saveSyncState(legacy as SyncState);
    expect(await store.syncStates('conn-2')).toEqual([{ ...legacy, mode: 'full', cursor: null, last_full_at: null }]);
  });

  it('schedules a job: dueAt replaces, earliest keeps the sooner time, full is only ever set', async () => {
    const store = await open();
    const t = Date.now();
    expect(await store.syncJob('conn-a')).toBeUndefined();

    await store.scheduleSync('conn-a', { dueAt: at(t + 10 * MINUTE) });
    expect(await store.syncJob('conn-a')).toEqual({
      connector_id: 'conn-a',
      due_at: iso(t + 10 * MINUTE),
      full_requested: false,
      lease_owner: null,
      lease_until: null,
      started_at: null,
    });

    await store.scheduleSync('conn-a', { dueAt: at(t + 20 * MINUTE), earliest: true });
    expect((await store.syncJob('conn-a'))?.due_at).toBe(iso(t + 10 * MINUTE));
    await store.scheduleSync('conn-a', { dueAt: at(t + 5 * MINUTE), earliest: true });
    expect((await store.syncJob('conn-a'))?.due_at).toBe(iso(t + 5 * MINUTE));
    await store.scheduleSync('conn-a', { dueAt: at(t + 30 * MINUTE) });
    expect((await store.syncJob('conn-a'))?.due_at).toBe(iso(t + 30 * MINUTE));

    await store.scheduleSync('conn-a', { dueAt: at(t + 30 * MINUTE), full: true });
    expect((await store.syncJob('conn-a'))?.full_requested).toBe(true);
    await store.scheduleSync('conn-a', { dueAt: at(t + 40 * MINUTE), full: false });
    expect(await store.syncJob('conn-a')).toMatchObject({ due_at: iso(t + 40 * MINUTE), full_requested: true });

    // A first request with earliest simply creates the job at dueAt.
    await store.scheduleSync('conn-b', { dueAt: at(t + MINUTE), earliest: true, full: true });
    expect(await store.syncJob('conn-b')).toMatchObject({ due_at: iso(t + MINUTE), full_requested: true });
    expect((await store.listSyncJobs()).map((job) => [job.connector_id, job.due_at])).toEqual([
      ['conn-b', iso(t + MINUTE)],
      ['conn-a', iso(t + 40 * MINUTE)],
    ]);
  });

  it('claims only due jobs, soonest first, and each only once while leased', async () => {
    const store = await open();
    const t = Date.now();
    await store.scheduleSync('conn-late', { dueAt: at(t - 1_000) });
    await store.scheduleSync('conn-early', { dueAt: at(t - 2_000), full: true });
    await store.scheduleSync('conn-future', { dueAt: at(t + HOUR) });

    const before = Date.now();
    const first = await store.claimSyncJob('worker-1', LONG_LEASE);
    const after = Date.now();
    expect(first).toMatchObject({ connector_id: 'conn-early', due_at: iso(t - 2_000), full_requested: true, lease_owner: 'worker-1' });
    const started = Date.parse(first!.started_at!);
    expect(started).toBeGreaterThanOrEqual(before);
    expect(started).toBeLessThanOrEqual(after);
    expect(Date.parse(first!.lease_until!) - started).toBe(LONG_LEASE);
    expect(await store.syncJob('conn-early')).toEqual(first);

    expect(await store.claimSyncJob('worker-2', LONG_LEASE)).toMatchObject({ connector_id: 'conn-late', lease_owner: 'worker-2' });
    // conn-future is not due, the two others are leased.
    expect(await store.claimSyncJob('worker-3', LONG_LEASE)).toBeUndefined();

    // Naming a connector claims it whatever its due time, but never while it is leased.
    expect(await store.claimSyncJob('worker-3', LONG_LEASE, 'conn-future')).toMatchObject({
      connector_id: 'conn-future',
      due_at: iso(t + HOUR),
      lease_owner: 'worker-3',
    });
    expect(await store.claimSyncJob('worker-4', LONG_LEASE, 'conn-future')).toBeUndefined();
    expect(await store.claimSyncJob('worker-4', LONG_LEASE, 'conn-early')).toBeUndefined();
    expect((await store.syncJob('conn-future'))?.lease_owner).toBe('worker-3');

    // Naming a connector without a job creates it, due now.
    const created = await store.claimSyncJob('worker-5', LONG_LEASE, 'conn-new');
    expect(created).toMatchObject({ connector_id: 'conn-new', full_requested: false, lease_owner: 'worker-5' });
    expect(created!.due_at).toBe(created!.started_at);
    expect((await store.listSyncJobs()).map((job) => [job.connector_id, job.lease_owner])).toEqual([
      ['conn-early', 'worker-1'],
      ['conn-late', 'worker-2'],
      ['conn-new', 'worker-5'],
      ['conn-future', 'worker-3'],
    ]);
  });

  it('lets another owner take over an expired lease, after which the old owner can neither renew nor release', async () => {
    const clock = createManualClock();
    const store = await open(undefined, clock);
    await store.scheduleSync('conn-a', { dueAt: at(clock.now() - 1_000) });
    expect((await store.claimSyncJob('dead-worker', 200))?.lease_owner).toBe('dead-worker');
    expect(await store.claimSyncJob('worker-2', LONG_LEASE)).toBeUndefined();
    expect(await store.claimSyncJob('worker-2', LONG_LEASE, 'conn-a')).toBeUndefined();

    await clock.advance(199);
    expect(await store.claimSyncJob('worker-2', LONG_LEASE), 'a lease 1 ms before its end').toBeUndefined();
    await clock.advance(1);
    const takeover = await store.claimSyncJob('worker-2', LONG_LEASE);
    expect(takeover).toMatchObject({ connector_id: 'conn-a', lease_owner: 'worker-2' });

    expect(await store.renewSyncLease('conn-a', 'dead-worker', LONG_LEASE)).toBe(false);
    expect(await store.releaseSyncJob('conn-a', 'dead-worker', { nextDueAt: at(clock.now() + HOUR), fullDone: true })).toBe(false);
    expect(await store.syncJob('conn-a')).toEqual(takeover);

    expect(await store.renewSyncLease('conn-a', 'stranger', LONG_LEASE)).toBe(false);
    expect(await store.renewSyncLease('conn-unknown', 'worker-2', LONG_LEASE)).toBe(false);
    await clock.advance(5);
    const renewedAt = clock.now();
    expect(await store.renewSyncLease('conn-a', 'worker-2', 2 * LONG_LEASE)).toBe(true);
    const renewed = await store.syncJob('conn-a');
    expect(Date.parse(renewed!.lease_until!)).toBe(renewedAt + 2 * LONG_LEASE);
    expect(renewed).toMatchObject({ lease_owner: 'worker-2', started_at: takeover!.started_at, due_at: takeover!.due_at });
  });

  it('keeps a lease that is renewed before it runs out', async () => {
    const clock = createManualClock();
    const store = await open(undefined, clock);
    await store.scheduleSync('conn-a', { dueAt: at(clock.now() - 1_000) });
    await store.claimSyncJob('worker-1', 500);
    await clock.advance(350);
    expect(await store.renewSyncLease('conn-a', 'worker-1', 500)).toBe(true);
    await clock.advance(350);
    // 700 ms after the claim: the first lease would have run out, the renewed one has not.
    expect(await store.claimSyncJob('worker-2', LONG_LEASE)).toBeUndefined();
    expect((await store.syncJob('conn-a'))?.lease_owner).toBe('worker-1');
    // ...and runs out 500 ms after its renewal.
    await clock.advance(150);
    expect(await store.claimSyncJob('worker-2', LONG_LEASE)).toMatchObject({ lease_owner: 'worker-2' });
  });

  it('releases a job: next due time, lease cleared, full_requested cleared only by a full pass', async () => {
    const store = await open();
    const t = Date.now();
    await store.scheduleSync('conn-a', { dueAt: at(t - 1_000), full: true });

    await store.claimSyncJob('worker-1', LONG_LEASE);
    expect(await store.releaseSyncJob('conn-a', 'worker-2', { nextDueAt: at(t + HOUR), fullDone: true })).toBe(false);
    expect((await store.syncJob('conn-a'))?.lease_owner).toBe('worker-1');
    expect(await store.releaseSyncJob('conn-a', 'worker-1', { nextDueAt: at(t + HOUR), fullDone: false })).toBe(true);
    const afterIncremental: SyncJob = {
      connector_id: 'conn-a',
      due_at: iso(t + HOUR),
      full_requested: true,
      lease_owner: null,
      lease_until: null,
      started_at: null,
    };
    expect(await store.syncJob('conn-a')).toEqual(afterIncremental);
    // Released means not held any more: a second release or a renewal by the same owner fails.
    expect(await store.releaseSyncJob('conn-a', 'worker-1', { nextDueAt: at(t), fullDone: true })).toBe(false);
    expect(await store.renewSyncLease('conn-a', 'worker-1', LONG_LEASE)).toBe(false);
    expect(await store.syncJob('conn-a')).toEqual(afterIncremental);
    expect(await store.claimSyncJob('worker-1', LONG_LEASE)).toBeUndefined();

    await store.claimSyncJob('worker-1', LONG_LEASE, 'conn-a');
    expect(await store.releaseSyncJob('conn-a', 'worker-1', { nextDueAt: at(t + 2 * HOUR), fullDone: true })).toBe(true);
    expect(await store.syncJob('conn-a')).toEqual({ ...afterIncremental, due_at: iso(t + 2 * HOUR), full_requested: false });
    expect(await store.releaseSyncJob('conn-unknown', 'worker-1', { nextDueAt: at(t), fullDone: true })).toBe(false);
  });

  it('does not lose a request made while a pass runs', async () => {
    const store = await open();
    const t = Date.now();
    await store.scheduleSync('conn-a', { dueAt: at(t - 1_000) });

    // "Sync now" during a pass: its release keeps the requested time, so the job is due again.
    await store.claimSyncJob('worker-1', LONG_LEASE);
    const requestedAt = Date.now();
    await store.scheduleSync('conn-a', { dueAt: at(requestedAt), earliest: true });
    expect(await store.releaseSyncJob('conn-a', 'worker-1', { nextDueAt: at(t + HOUR), fullDone: false })).toBe(true);
    expect(await store.syncJob('conn-a')).toMatchObject({ due_at: iso(requestedAt), lease_owner: null });
    expect(await store.claimSyncJob('worker-2', LONG_LEASE)).toMatchObject({ connector_id: 'conn-a', lease_owner: 'worker-2' });

    // That new pass covers the request: its own release sets the next due time as asked.
    expect(await store.releaseSyncJob('conn-a', 'worker-2', { nextDueAt: at(t + HOUR), fullDone: false })).toBe(true);
    expect((await store.syncJob('conn-a'))?.due_at).toBe(iso(t + HOUR));

    // A request due later than the next pass anyway changes nothing.
    await store.claimSyncJob('worker-1', LONG_LEASE, 'conn-a');
    await store.scheduleSync('conn-a', { dueAt: at(t + 3 * HOUR), earliest: true });
    await store.releaseSyncJob('conn-a', 'worker-1', { nextDueAt: at(t + HOUR), fullDone: false });
    expect((await store.syncJob('conn-a'))?.due_at).toBe(iso(t + HOUR));

    // A full request during a full pass survives that pass's release.
    await store.claimSyncJob('worker-1', LONG_LEASE, 'conn-a');
    await store.scheduleSync('conn-a', { dueAt: at(t + 2 * HOUR), earliest: true, full: true });
    await store.releaseSyncJob('conn-a', 'worker-1', { nextDueAt: at(t + HOUR), fullDone: true });
    expect(await store.syncJob('conn-a')).toMatchObject({ due_at: iso(t + HOUR), full_requested: true, lease_owner: null });

    // A pass that takes over an expired lease also covers requests made before it started.
    await store.claimSyncJob('dead-worker', 20, 'conn-a');
    await store.scheduleSync('conn-a', { dueAt: at(Date.now()), earliest: true });
    await sleep(40); // a short real wait: this store reads real time
    await store.claimSyncJob('worker-2', LONG_LEASE, 'conn-a');
    await store.releaseSyncJob('conn-a', 'worker-2', { nextDueAt: at(t + 4 * HOUR), fullDone: true });
    expect(await store.syncJob('conn-a')).toMatchObject({ due_at: iso(t + 4 * HOUR), full_requested: false });
  });

  it('deletes the sync job with the connector', async () => {
    const store = await open();
    const doomed = await store.createConnector(await newConnector(store));
    const kept = await store.createConnector(await newConnector(store));
    for (const connector of [doomed, kept]) {
      await store.scheduleSync(connector.id, { dueAt: at(Date.now()), full: true });
      await store.writeRecords(connector.id, 'contacts', 1, [{ id: '1', data: { name: 'Ada' } }]);
    }
    await store.claimSyncJob('worker-1', LONG_LEASE, doomed.id);

    expect(await store.deleteConnector(await testTenant(store, 'user-a'), doomed.id)).toBe(true);
    expect(await store.syncJob(doomed.id)).toBeUndefined();
    expect((await store.listSyncJobs()).map((job) => job.connector_id)).toEqual([kept.id]);
    expect(await store.releaseSyncJob(doomed.id, 'worker-1', { nextDueAt: at(Date.now()), fullDone: true })).toBe(false);
    expect(await store.syncJob(doomed.id)).toBeUndefined();
  });

  it(`hands each due job to exactly one of 20 concurrent claims from ${backend.concurrentStores} stores`, async () => {
    const url = await backend.freshUrl();
    const stores = await Promise.all(Array.from({ length: backend.concurrentStores }, () => open(url)));
    const t = Date.now();
    const ids = Array.from({ length: 10 }, (_, i) => `conn-${String(i).padStart(2, '0')}`);
    for (const [i, id] of ids.entries()) await stores[0]!.scheduleSync(id, { dueAt: at(t - 10_000 + i) });
    await stores[0]!.scheduleSync('conn-not-due', { dueAt: at(t + HOUR) });

    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % stores.length]!.claimSyncJob(`worker-${i}`, LONG_LEASE)));
    const won = claims.flatMap((job, i) => (job ? [{ worker: `worker-${i}`, job }] : []));
    expect(won).toHaveLength(10);
    expect(won.map((w) => w.job.connector_id).sort()).toEqual(ids);
    for (const { worker, job } of won) {
      expect(job.lease_owner).toBe(worker);
      expect((await stores[stores.length - 1]!.syncJob(job.connector_id))?.lease_owner).toBe(worker);
    }
    expect((await stores[0]!.syncJob('conn-not-due'))?.lease_owner).toBeNull();
    expect(await stores[1]!.claimSyncJob('late-worker', LONG_LEASE)).toBeUndefined();
  });

  it('a stalled pass writing after a newer one cannot make the newer sweep remove records', async () => {
    const store = await open();
    const connector = await store.createConnector(await newConnector(store));
    const search = () => searchRecords(store, { connectorId: connector.id, entity: 'contacts' }, parseSearchParams({ query: {} }, { name: 'string' }));
    // The newer pass (generation 20) sees both records; the stalled one (10) rewrites one of them late.
    await store.writeRecords(connector.id, 'contacts', 20, [
      { id: 'a', data: { name: 'new a' } },
      { id: 'b', data: { name: 'new b' } },
    ]);
    await store.writeRecords(connector.id, 'contacts', 10, [{ id: 'a', data: { name: 'old a' } }]);
    expect(await store.removeStaleRecords(connector.id, 'contacts', 20)).toBe(0);
    expect((await search()).hits.map((hit) => hit.id)).toEqual(['a', 'b']);
    // A record only an older pass saw is still swept.
    await store.writeRecords(connector.id, 'contacts', 15, [{ id: 'c', data: { name: 'gone' } }]);
    expect(await store.removeStaleRecords(connector.id, 'contacts', 20)).toBe(1);
    expect((await search()).hits.map((hit) => hit.id)).toEqual(['a', 'b']);
  });

  it('searches the records written to the synchronized copy', async () => {
    const store = await open();
    const connector = await store.createConnector(await newConnector(store));
    const other = await store.createConnector(await newConnector(store));
    await store.writeRecords(connector.id, 'contacts', 1, [
      { id: 'c1', data: { name: 'Alice Smith', age: 31, extra: 'not searchable' } },
      { id: 'c2', data: { name: 'Bob Jones', age: 45 } },
      { id: 'c3', data: { name: 'Malik Alimov', age: 28 } },
    ]);
    await store.writeRecords(connector.id, 'deals', 1, [{ id: 'd1', data: { name: 'Alice deal', age: 1 } }]);
    await store.writeRecords(other.id, 'contacts', 1, [{ id: 'o1', data: { name: 'Alice Other', age: 50 } }]);
    const fields = { name: 'string', age: 'integer' } as const;

    const liked = await searchRecords(
      store,
      { connectorId: connector.id, entity: 'contacts' },
      parseSearchParams({ query: { filter: { like: { name: '%ali%' } } } }, fields),
    );
    expect(liked.hits).toEqual([
      { id: 'c1', score: 1, data: { name: 'Alice Smith', age: 31 } },
      { id: 'c3', score: 1, data: { name: 'Malik Alimov', age: 28 } },
    ]);
    expect(liked.next_cursor).toBeNull();
    expect(liked.took_ms).toBeGreaterThanOrEqual(0);

    const sorted = await searchRecords(
      store,
      { connectorId: connector.id, entity: 'contacts' },
      parseSearchParams({ query: { filter: { gt: { age: 30 } }, sort: [{ age: 'desc' }] }, limit: 1, fields: ['name'] }, fields),
    );
    expect(sorted.hits).toEqual([{ id: 'c2', score: 1, data: { name: 'Bob Jones' } }]);
    expect(sorted.next_cursor).toEqual(expect.any(String));
  });
});

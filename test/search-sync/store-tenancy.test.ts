import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../engine/errors.js';
import { parseSearchParams, searchRecords } from '../../engine/search/index.js';
import { openStore, type NewConnector, type Store, type SyncState, type Tenant } from '../../engine/store/index.js';
import { POSTGRES_MIGRATIONS, migratePostgres, SQLITE_MIGRATIONS, migrateSqlite } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

/** A fresh database of one backend, and a way to build it at an older schema version. */
interface Backend {
  name: 'sqlite' | 'postgres';
  setup(): Promise<void>;
  teardown(): Promise<void>;
  freshUrl(): Promise<string>;
  /** Runs statements on a database migrated only up to `version` (what an older engine left). */
  atVersion(url: string, version: number, statements: Array<[string, unknown[]]>): Promise<void>;
}

function sqliteBackend(): Backend {
  let root = '';
  let counter = 0;
  return {
    name: 'sqlite',
    setup: async () => {
      root = await mkdtemp(join(tmpdir(), 'ce-tenancy-'));
    },
    teardown: () => rm(root, { recursive: true, force: true }),
    freshUrl: async () => `sqlite:${join(root, `db-${++counter}.db`)}`,
    atVersion: async (url, version, statements) => {
      const db = new Database(url.slice('sqlite:'.length));
      try {
        migrateSqlite(
          db,
          SQLITE_MIGRATIONS.filter((m) => m.version <= version),
        );
        for (const [sql, params] of statements) {
          // better-sqlite3 binds `?` in order: repeat a value for every `$n` that names it.
          const values = [...sql.matchAll(/\$(\d+)/g)].map((m) => params[Number(m[1]) - 1]);
          db.prepare(sql.replace(/\$\d+/g, '?')).run(...values);
        }
      } finally {
        db.close();
      }
    },
  };
}

function postgresBackend(): Backend {
  let cluster: PostgresCluster | undefined;
  return {
    name: 'postgres',
    setup: async () => {
      cluster = await startPostgres();
    },
    teardown: async () => cluster?.stop(),
    freshUrl: async () => (cluster as PostgresCluster).createDatabase(),
    atVersion: async (url, version, statements) => {
      const pool = new pg.Pool({ connectionString: url });
      try {
        await migratePostgres(
          pool,
          POSTGRES_MIGRATIONS.filter((m) => m.version <= version),
        );
        for (const [sql, params] of statements) await pool.query(sql, params);
      } finally {
        await pool.end();
      }
    },
  };
}

function connector(tenant: Tenant, overrides: Partial<Omit<NewConnector, 'tenant'>> = {}): NewConnector {
  return { tenant, connector_type: 'hubspot', name: null, config: {}, auth_scheme: 'private_app', credentials_ciphertext: 'ct', ...overrides };
}

function state(connectorId: string, entity: string): SyncState {
  const now = new Date().toISOString();
  return {
    connector_id: connectorId,
    entity,
    status: 'succeeded',
    mode: 'full',
    records: 1,
    generation: 1,
    started_at: now,
    finished_at: now,
    last_success_at: now,
    last_error: null,
    cursor: null,
    last_full_at: now,
  };
}

const SEARCHABLE = { id: 'string', name: 'string' } as const;

describe.each([sqliteBackend(), postgresBackend()])('tenancy in the store on $name', (backend) => {
  const opened: Store[] = [];
  const open = async (url?: string) => {
    const store = await openStore(url ?? (await backend.freshUrl()));
    opened.push(store);
    return store;
  };
  const client = async (store: Store, name: string) => (await store.createClient({ name, secretHash: 'h' })).client_id;

  beforeAll(() => backend.setup(), 120_000);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(() => backend.teardown());

  it('keys connectors by client and user: the same user id under another client is another tenant', async () => {
    const store = await open();
    const a = await client(store, 'a');
    const b = await client(store, 'b');
    const tenantA: Tenant = { clientId: a, externalUserId: 'user-A' };
    const tenantB: Tenant = { clientId: b, externalUserId: 'user-A' };
    const row = await store.createConnector(connector(tenantA, { credentials_ciphertext: 'a-secret' }));
    expect(row).toMatchObject({ client_id: a, external_user_id: 'user-A' });
    await store.saveSyncState(state(row.id, 'contacts'));
    await store.writeRecords(row.id, 'contacts', 1, [{ id: '1', data: { id: '1', name: 'Ada' } }]);
    await store.scheduleSync(row.id, { dueAt: new Date() });
    const request = parseSearchParams({ query: {} }, SEARCHABLE);

    // Client B's tenant gets exactly what an unknown id gets, for every tenant-facing call.
    for (const id of [row.id, 'conn_unknown']) {
      expect(await store.getConnector(tenantB, id)).toBeUndefined();
      expect(await store.updateConnector(tenantB, id, { name: 'hijacked' })).toBeUndefined();
      expect(await store.updateConnector(tenantB, id, { credentials_ciphertext: 'b-secret' })).toBeUndefined();
      expect(await store.deleteConnector(tenantB, id)).toBe(false);
      expect(await store.tenantSyncStates(tenantB, id)).toBeUndefined();
      expect(await store.tenantSyncJob(tenantB, id)).toBeUndefined();
      expect(await store.tenantScheduleSync(tenantB, id, { dueAt: new Date(), full: true })).toBe(false);
      const refused = await searchRecords(store, { connectorId: id, entity: 'contacts' }, request, tenantB).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(EngineError);
      expect(refused).toMatchObject({ code: 'CONNECTOR_NOT_FOUND', message: 'no connector with this id for this user' });
    }
    expect(await store.listConnectors(tenantB)).toEqual([]);
    expect(await store.listConnectors({ clientId: a, externalUserId: 'user-B' })).toEqual([]);

    // Nothing of A's changed, and A reaches all of it.
    expect(await store.getConnector(tenantA, row.id)).toEqual(row);
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'a-secret', version: 1 });
    expect((await store.syncJob(row.id))?.full_requested).toBe(false);
    expect((await store.tenantSyncStates(tenantA, row.id))?.map((s) => s.entity)).toEqual(['contacts']);
    expect(await store.tenantSyncJob(tenantA, row.id)).toMatchObject({ connector_id: row.id });
    const found = await searchRecords(store, { connectorId: row.id, entity: 'contacts' }, request, tenantA);
    expect(found.hits.map((hit) => hit.data)).toEqual([{ id: '1', name: 'Ada' }]);
    expect(await store.tenantScheduleSync(tenantA, row.id, { dueAt: new Date(), full: true })).toBe(true);
    expect((await store.syncJob(row.id))?.full_requested).toBe(true);
    expect(await store.tenantSyncStates(tenantA, (await store.createConnector(connector(tenantA))).id)).toEqual([]);
  });

  it("makes a revoked client's connectors unreachable, stops their sync, and purges them on request", async () => {
    const store = await open();
    const revoked = await client(store, 'revoked');
    const live = await client(store, 'live');
    const gone: Tenant = { clientId: revoked, externalUserId: 'user-1' };
    const kept: Tenant = { clientId: live, externalUserId: 'user-1' };
    const doomed = await store.createConnector(connector(gone));
    const other = await store.createConnector(connector(kept));
    for (const row of [doomed, other]) {
      await store.scheduleSync(row.id, { dueAt: new Date(Date.now() - 1000) });
      await store.writeRecords(row.id, 'contacts', 1, [{ id: '1', data: { id: '1' } }]);
    }
    await expect(store.purgeClientConnectors(revoked)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });

    expect(await store.revokeClient(revoked)).toBe(true);
    expect(await store.getConnector(gone, doomed.id)).toBeUndefined();
    expect(await store.listConnectors(gone)).toEqual([]);
    expect(await store.findConnector(doomed.id)).toBeUndefined();
    expect(await store.tenantSyncStates(gone, doomed.id)).toBeUndefined();
    expect(await store.updateConnector(gone, doomed.id, { name: 'x' })).toBeUndefined();
    expect(await store.syncJob(doomed.id)).toBeUndefined();
    // The live client's connector keeps its job: the only claim there is is its own.
    expect((await store.claimSyncJob('worker', 60_000))?.connector_id).toBe(other.id);
    expect(await store.claimSyncJob('worker', 60_000)).toBeUndefined();
    expect(await store.findConnector(other.id)).toMatchObject({ id: other.id });

    expect(await store.purgeClientConnectors(revoked)).toBe(1);
    expect(await store.readCredentials(doomed.id)).toBeUndefined();
    expect(await store.syncStates(doomed.id)).toEqual([]);
    const copy = await searchRecords(store, { connectorId: doomed.id, entity: 'contacts' }, parseSearchParams({ query: {} }, SEARCHABLE));
    expect(copy.hits).toEqual([]);
    expect(await store.getConnector(kept, other.id)).toMatchObject({ id: other.id });
    expect(await store.purgeClientConnectors(live).catch((error: EngineError) => error.code)).toBe('INVALID_REQUEST');
    expect(await store.purgeClientConnectors('cli_unknown').catch((error: EngineError) => error.code)).toBe('INVALID_REQUEST');
  });

  it('holds the per-tenant limit exactly when many creates race from several stores', async () => {
    const url = await backend.freshUrl();
    const stores = [await open(url), await open(url), await open(url)];
    const a = await client(stores[0]!, 'a');
    const b = await client(stores[0]!, 'b');
    const tenant: Tenant = { clientId: a, externalUserId: 'user-1' };
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        stores[i % stores.length]!.createConnector(connector(tenant), { maxPerTenant: 5 }).then(
          () => 'created',
          (error: EngineError) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'CONNECTOR_LIMIT_REACHED')).toHaveLength(19);
    expect(await stores[1]!.listConnectors(tenant)).toHaveLength(5);
    const refused = await stores[2]!.createConnector(connector(tenant), { maxPerTenant: 5 }).catch((error: EngineError) => error);
    expect(refused).toMatchObject({
      code: 'CONNECTOR_LIMIT_REACHED',
      status: 409,
      details: [{ path: '/external_user_id', message: 'holds 5 connectors (the limit)' }],
    });
    // Other tenants are unaffected: another user of the client, and the same user id of another client.
    await expect(stores[0]!.createConnector(connector({ clientId: a, externalUserId: 'user-2' }), { maxPerTenant: 5 })).resolves.toMatchObject({
      external_user_id: 'user-2',
    });
    await expect(stores[0]!.createConnector(connector({ clientId: b, externalUserId: 'user-1' }), { maxPerTenant: 5 })).resolves.toMatchObject({
      client_id: b,
    });
    // Deleting one frees a place.
    const first = (await stores[0]!.listConnectors(tenant))[0]!;
    expect(await stores[0]!.deleteConnector(tenant, first.id)).toBe(true);
    await expect(stores[0]!.createConnector(connector(tenant), { maxPerTenant: 5 })).resolves.toMatchObject({ client_id: a });
  });

  it('keeps a connector needs_reauth, with its time and reason, until new credentials or a refresh arrive', async () => {
    const store = await open();
    const live: Tenant = { clientId: await client(store, 'live'), externalUserId: 'u' };
    const gone: Tenant = { clientId: await client(store, 'gone'), externalUserId: 'u' };
    const [a, b, c] = [
      await store.createConnector(connector(live)),
      await store.createConnector(connector(live, { connector_type: 'gong' })),
      await store.createConnector(connector(gone)),
    ];
    for (const row of [a, b, c]) await store.markNeedsReauth(row.id, 'invalid_grant: refresh token already used');
    await store.revokeClient(gone.clientId);
    expect(await store.countNeedsReauth()).toEqual({ hubspot: 1, gong: 1 });
    const marked = await store.getConnector(live, a.id);
    expect(marked).toMatchObject({
      auth_state: 'needs_reauth',
      auth_reason: 'invalid_grant: refresh token already used',
      auth_state_at: expect.stringMatching(/^\d{4}-/),
    });
    // Marking again keeps the time it first happened.
    await store.markNeedsReauth(a.id, 'again');
    expect((await store.getConnector(live, a.id))?.auth_state_at).toBe(marked!.auth_state_at);

    await store.updateConnector(live, a.id, { credentials_ciphertext: 'new' });
    expect(await store.getConnector(live, a.id)).toMatchObject({ auth_state: 'active', auth_reason: null });
    await store.withCredentialsLock(b.id, async () => ({ ciphertext: 'rotated' }));
    expect(await store.getConnector(live, b.id)).toMatchObject({ auth_state: 'active', auth_reason: null });
    expect(await store.countNeedsReauth()).toEqual({});
    await store.markNeedsReauth(a.id, 'revoked');
    await store.clearNeedsReauth(a.id);
    expect(await store.getConnector(live, a.id)).toMatchObject({ auth_state: 'active' });
  });

  it('refuses a connector without a client at the database level', async () => {
    const store = await open();
    const refused = await store.createConnector(connector({ clientId: 'cli_missing', externalUserId: 'u' })).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(await store.listConnectors({ clientId: 'cli_missing', externalUserId: 'u' })).toEqual([]);
  });

  describe('upgrading a database from before tenancy (schema version 4)', () => {
    const insertClient = (id: string, created: string, revoked: string | null): [string, unknown[]] => [
      'INSERT INTO platform_clients (client_id, name, secret_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5)',
      [id, id, 'h', created, revoked],
    ];
    const insertConnector = (id: string, user: string): [string, unknown[]] => [
      `INSERT INTO connectors (id, external_user_id, connector_type, name, config, auth_scheme, credentials_ciphertext, credentials_version,
        created_at, updated_at) VALUES ($1, $2, 'hubspot', $3, '{}', 'private_app', $4, 3, $5, $5)`,
      [id, user, `name of ${id}`, `ciphertext of ${id}`, '2026-01-01T00:00:00.000Z'],
    ];
    const legacy = [insertConnector('conn_old_1', 'user-1'), insertConnector('conn_old_2', 'user-2'), insertConnector('conn_old_3', 'user-1')];

    it('gives every existing connector to the oldest client that is not revoked, losing nothing', async () => {
      const url = await backend.freshUrl();
      await backend.atVersion(url, 4, [
        insertClient('cli_oldest_revoked', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
        insertClient('cli_oldest_live', '2026-01-02T00:00:00.000Z', null),
        insertClient('cli_newer_live', '2026-01-03T00:00:00.000Z', null),
        ...legacy,
        ['INSERT INTO sync_jobs (connector_id, due_at, updated_at) VALUES ($1, $2, $2)', ['conn_old_1', '2026-01-01T00:00:00.000Z']],
      ]);
      const store = await open(url);
      const owner = (user: string): Tenant => ({ clientId: 'cli_oldest_live', externalUserId: user });
      expect((await store.listConnectors(owner('user-1'))).map((c) => c.id).sort()).toEqual(['conn_old_1', 'conn_old_3']);
      expect(await store.getConnector(owner('user-2'), 'conn_old_2')).toMatchObject({
        client_id: 'cli_oldest_live',
        name: 'name of conn_old_2',
        credentials_version: 3,
      });
      for (const id of ['conn_old_1', 'conn_old_2', 'conn_old_3'])
        expect(await store.readCredentials(id)).toEqual({ ciphertext: `ciphertext of ${id}`, version: 3 });
      expect(await store.listConnectors({ clientId: 'cli_newer_live', externalUserId: 'user-1' })).toEqual([]);
      expect(await store.syncJob('conn_old_1')).toMatchObject({ connector_id: 'conn_old_1' });
    });

    it('gives them to the oldest client when every client is revoked, and keeps them when there is no client', async () => {
      const allRevoked = await backend.freshUrl();
      await backend.atVersion(allRevoked, 4, [
        insertClient('cli_b', '2026-01-02T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
        insertClient('cli_a', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
        ...legacy,
      ]);
      const store = await open(allRevoked);
      expect(await store.findConnector('conn_old_1')).toBeUndefined();
      expect(await store.readCredentials('conn_old_1')).toEqual({ ciphertext: 'ciphertext of conn_old_1', version: 3 });
      expect(await store.purgeClientConnectors('cli_a')).toBe(3);

      const noClient = await backend.freshUrl();
      await backend.atVersion(noClient, 4, legacy);
      const orphaned = await open(noClient);
      expect(await orphaned.readCredentials('conn_old_2')).toEqual({ ciphertext: 'ciphertext of conn_old_2', version: 3 });
      expect(await orphaned.findConnector('conn_old_2')).toBeUndefined();
    });
  });
});

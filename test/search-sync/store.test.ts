import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../engine/clock/index.js';
import { ConnectorNotFoundError } from '../../engine/errors.js';
import {
  POSTGRES_MIGRATIONS,
  SQLITE_MIGRATIONS,
  createCipher,
  DecryptionError,
  hashSecret,
  KEY_FILE_NAME,
  loadOrCreateKey,
  openStore,
  StoreSetupError,
  verifySecret,
  type NewConnector,
  type Store,
} from '../../engine/store/index.js';
import { testTenant } from '../support/store-tenants.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One database backend under test: how to get a fresh database and look inside it. */
interface Backend {
  name: 'sqlite' | 'postgres';
  setup(): Promise<void>;
  teardown(): Promise<void>;
  freshUrl(): Promise<string>;
  rawQuery<T>(url: string, sql: string): Promise<T[]>;
}

function sqliteBackend(): Backend {
  let root = '';
  let counter = 0;
  return {
    name: 'sqlite',
    async setup() {
      root = await mkdtemp(join(tmpdir(), 'ce-store-'));
    },
    async teardown() {
      await rm(root, { recursive: true, force: true });
    },
    async freshUrl() {
      return `sqlite:${join(root, `db-${++counter}`, 'nested', 'engine.db')}`;
    },
    async rawQuery<T>(url: string, sql: string) {
      const db = new Database(url.slice('sqlite:'.length));
      try {
        return db.prepare(sql).all() as T[];
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
    async rawQuery<T>(url: string, sql: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)).rows as T[];
      } finally {
        await client.end();
      }
    },
  };
}

async function newConnector(store: Store, overrides: Partial<Omit<NewConnector, 'tenant'>> & { external_user_id?: string } = {}): Promise<NewConnector> {
  const { external_user_id: user = 'user-a', ...rest } = overrides;
  return {
    tenant: await testTenant(store, user),
    connector_type: 'hubspot',
    name: 'Sales CRM',
    config: { region: 'EU', nested: { limit: 5 } },
    auth_scheme: 'oauth2',
    credentials_ciphertext: 'ciphertext-1',
    ...rest,
  };
}

describe.each([sqliteBackend(), postgresBackend()])('store on $name', (backend) => {
  /** Every schema version this engine knows; migrations land in parallel, so read them, not a literal. */
  const knownVersions = (backend.name === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS).map((m) => m.version).sort((a, b) => a - b);
  const opened: Store[] = [];
  /** Opens a store that is closed after the test, whatever happens. */
  const open = async (url: string) => {
    const store = await openStore(url);
    opened.push(store);
    return store;
  };

  beforeAll(() => backend.setup());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(() => backend.teardown());

  it('creates the database on first open and migrates idempotently', async () => {
    const url = await backend.freshUrl();
    if (backend.name === 'sqlite') expect(existsSync(url.slice('sqlite:'.length))).toBe(false);
    const first = await open(url);
    expect(first.dialect).toBe(backend.name);
    const row = await first.createConnector(await newConnector(first));
    await first.close();

    const second = await open(url);
    expect(await second.getConnector(await testTenant(second, 'user-a'), row.id)).toEqual(row);
    const versions = await backend.rawQuery<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.map((v) => Number(v.version))).toEqual(knownVersions);
    expect(knownVersions).toEqual(expect.arrayContaining([1, 2, 4]));
    if (backend.name === 'sqlite') {
      const [mode] = await backend.rawQuery<{ journal_mode: string }>(url, 'PRAGMA journal_mode');
      expect(mode?.journal_mode).toBe('wal');
    }
  });

  it('migrates once when several stores open a new database at the same time', async () => {
    const url = await backend.freshUrl();
    const stores = await Promise.all([open(url), open(url), open(url), open(url)]);
    const created = await stores[0]!.createConnector(await newConnector(stores[0]!));
    expect(await stores[3]!.getConnector(await testTenant(stores[3]!, 'user-a'), created.id)).toEqual(created);
    const versions = await backend.rawQuery<{ version: number }>(url, 'SELECT version FROM schema_migrations');
    expect(versions).toHaveLength(knownVersions.length);
  });

  it('keeps platform clients: create, find, list newest first, revoke once', async () => {
    const store = await open(await backend.freshUrl());
    const ci = await store.createClient({ name: 'ci', secretHash: 'hash-ci' });
    await sleep(3);
    const web = await store.createClient({ name: 'web', secretHash: 'hash-web' });
    expect(ci.client_id).toMatch(/^cli_[a-z2-7]{24}$/);
    expect(ci.client_id).not.toBe(web.client_id);
    expect(ci).toMatchObject({ name: 'ci', revoked_at: null });
    expect(new Date(ci.created_at).toISOString()).toBe(ci.created_at);

    expect(await store.findClient(ci.client_id)).toEqual({ ...ci, secret_hash: 'hash-ci' });
    expect(await store.findClient('cli_unknown')).toBeUndefined();
    const listed = await store.listClients();
    expect(listed.map((c) => c.name)).toEqual(['web', 'ci']);
    expect(listed[0]).not.toHaveProperty('secret_hash');

    expect(await store.revokeClient(ci.client_id)).toBe(true);
    expect(await store.revokeClient(ci.client_id)).toBe(false);
    expect(await store.revokeClient('cli_unknown')).toBe(false);
    const revoked = await store.findClient(ci.client_id);
    expect(revoked?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await store.findClient(web.client_id))?.revoked_at).toBeNull();
  });

  it('creates, reads, lists, updates and deletes connectors without exposing the ciphertext', async () => {
    const store = await open(await backend.freshUrl());
    const created = await store.createConnector(await newConnector(store, { credentials_ciphertext: 'SECRET-CIPHERTEXT' }));
    expect(created).toEqual({
      id: expect.stringMatching(/^conn_[a-z2-7]{24}$/),
      client_id: (await testTenant(store)).clientId,
      external_user_id: 'user-a',
      connector_type: 'hubspot',
      name: 'Sales CRM',
      config: { region: 'EU', nested: { limit: 5 } },
      auth_scheme: 'oauth2',
      credentials_version: 1,
      auth_state: 'active',
      auth_state_at: null,
      auth_reason: null,
      created_at: expect.any(String),
      updated_at: created.created_at,
    });
    expect(new Date(created.created_at).toISOString()).toBe(created.created_at);
    expect(await store.getConnector(await testTenant(store, 'user-a'), created.id)).toEqual(created);

    await sleep(3);
    const unnamed = await store.createConnector(await newConnector(store, { name: undefined, connector_type: 'asana' }));
    expect(unnamed.name).toBeNull();
    await sleep(3);
    const third = await store.createConnector(await newConnector(store));
    const all = await store.listConnectors(await testTenant(store, 'user-a'));
    expect(all.map((c) => c.id)).toEqual([third.id, unnamed.id, created.id]);
    expect((await store.listConnectors(await testTenant(store, 'user-a'), { connector_type: 'hubspot' })).map((c) => c.id)).toEqual([third.id, created.id]);
    for (const row of [...all, created]) expect(JSON.stringify(row)).not.toContain('SECRET-CIPHERTEXT');

    await sleep(3);
    const renamed = await store.updateConnector(await testTenant(store, 'user-a'), created.id, { name: 'Renamed', config: { region: 'NA' } });
    expect(renamed).toMatchObject({ name: 'Renamed', config: { region: 'NA' }, auth_scheme: 'oauth2', credentials_version: 1 });
    expect(renamed!.created_at).toBe(created.created_at);
    expect(renamed!.updated_at > created.updated_at).toBe(true);
    expect(await store.getConnector(await testTenant(store, 'user-a'), created.id)).toEqual(renamed);
    const cleared = await store.updateConnector(await testTenant(store, 'user-a'), created.id, { name: null, auth_scheme: 'private_app' });
    expect(cleared).toMatchObject({ name: null, auth_scheme: 'private_app', config: { region: 'NA' } });

    expect(await store.deleteConnector(await testTenant(store, 'user-a'), created.id)).toBe(true);
    expect(await store.getConnector(await testTenant(store, 'user-a'), created.id)).toBeUndefined();
    expect(await store.deleteConnector(await testTenant(store, 'user-a'), created.id)).toBe(false);
    expect(await store.updateConnector(await testTenant(store, 'user-a'), created.id, { name: 'x' })).toBeUndefined();
    expect((await store.listConnectors(await testTenant(store, 'user-a'))).map((c) => c.id)).toEqual([third.id, unnamed.id]);
  });

  it("never lets one user see or change another user's connector", async () => {
    const store = await open(await backend.freshUrl());
    const owned = await store.createConnector(await newConnector(store, { external_user_id: 'user-a', credentials_ciphertext: 'a-secret' }));

    expect(await store.getConnector(await testTenant(store, 'user-b'), owned.id)).toBeUndefined();
    expect(await store.listConnectors(await testTenant(store, 'user-b'))).toEqual([]);
    expect(await store.listConnectors(await testTenant(store, 'user-b'), { connector_type: 'hubspot' })).toEqual([]);
    expect(await store.updateConnector(await testTenant(store, 'user-b'), owned.id, { name: 'hijacked' })).toBeUndefined();
    expect(await store.updateConnector(await testTenant(store, 'user-b'), owned.id, { credentials_ciphertext: 'b-secret' })).toBeUndefined();
    expect(await store.deleteConnector(await testTenant(store, 'user-b'), owned.id)).toBe(false);

    expect(await store.getConnector(await testTenant(store, 'user-a'), owned.id)).toEqual(owned);
    expect(await store.readCredentials(owned.id)).toEqual({ ciphertext: 'a-secret', version: 1 });
    expect((await store.listConnectors(await testTenant(store, 'user-a'))).map((c) => c.id)).toEqual([owned.id]);
  });

  it('bumps credentials_version when, and only when, credentials change', async () => {
    const store = await open(await backend.freshUrl());
    const row = await store.createConnector(await newConnector(store, { credentials_ciphertext: 'v1' }));
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'v1', version: 1 });

    const replaced = await store.updateConnector(await testTenant(store, 'user-a'), row.id, { credentials_ciphertext: 'v2' });
    expect(replaced?.credentials_version).toBe(2);
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'v2', version: 2 });

    const renamed = await store.updateConnector(await testTenant(store, 'user-a'), row.id, { name: 'still v2' });
    expect(renamed?.credentials_version).toBe(2);
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'v2', version: 2 });
    expect(await store.readCredentials('conn_unknown')).toBeUndefined();
  });

  it('serializes 50 concurrent credential lock holders in one process', async () => {
    const store = await open(await backend.freshUrl());
    const row = await store.createConnector(await newConnector(store, { credentials_ciphertext: '0' }));
    let active = 0;
    let maxActive = 0;
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        store.withCredentialsLock(row.id, async (current) => {
          active++;
          maxActive = Math.max(maxActive, active);
          const next = Number(current.ciphertext) + 1;
          await sleep(Math.random() * 2);
          active--;
          return { ciphertext: String(next), seen: current.version };
        }),
      ),
    );
    expect(maxActive).toBe(1);
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: '50', version: 51 });
    expect(results.map((r) => r.seen).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('holds the credentials lock across two separate connections to the same database', async () => {
    const url = await backend.freshUrl();
    const [one, two] = [await open(url), await open(url)];
    const row = await one.createConnector(await newConnector(one, { credentials_ciphertext: '0' }));
    let active = 0;
    let maxActive = 0;
    const increment = (store: Store) =>
      store.withCredentialsLock(row.id, async (current) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(1);
        const next = Number(current.ciphertext) + 1;
        await sleep(Math.random() * 2);
        active--;
        return { ciphertext: String(next) };
      });
    await Promise.all(Array.from({ length: 25 }, () => [increment(one), increment(two)]).flat());
    expect(maxActive).toBe(1);
    expect(await two.readCredentials(row.id)).toEqual({ ciphertext: '50', version: 51 });
    expect(await one.readCredentials(row.id)).toEqual({ ciphertext: '50', version: 51 });
  });

  it('writes nothing when the lock holder fails or returns no ciphertext, and rejects unknown connectors', async () => {
    const store = await open(await backend.freshUrl());
    const row = await store.createConnector(await newConnector(store, { credentials_ciphertext: 'original' }));

    const failure = new Error('refresh failed');
    await expect(
      store.withCredentialsLock(row.id, async () => {
        await sleep(1);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'original', version: 1 });

    const passThrough = await store.withCredentialsLock(row.id, async (current) => ({ seen: current.ciphertext }));
    expect(passThrough).toEqual({ seen: 'original' });
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'original', version: 1 });

    // The lock was released after the failure: a writer gets through at once.
    const written = await store.withCredentialsLock(row.id, async () => ({ ciphertext: 'rotated', note: 'ok' }));
    expect(written).toEqual({ ciphertext: 'rotated', note: 'ok' });
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'rotated', version: 2 });

    await expect(store.withCredentialsLock('conn_unknown', async () => ({}))).rejects.toBeInstanceOf(ConnectorNotFoundError);
  });

  it('makes a credentials replacement wait for a lock in progress instead of being overwritten', async () => {
    const url = await backend.freshUrl();
    const [refresher, editor] = [await open(url), await open(url)];
    const row = await refresher.createConnector(await newConnector(refresher, { credentials_ciphertext: 'old' }));

    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const refresh = refresher.withCredentialsLock(row.id, async () => {
      entered();
      await gate;
      return { ciphertext: 'refreshed' };
    });
    await inside;

    let replaced = false;
    const replace = editor.updateConnector(await testTenant(editor, 'user-a'), row.id, { credentials_ciphertext: 'user-new' }).then((result) => {
      replaced = true;
      return result;
    });
    try {
      await sleep(150);
      expect(replaced).toBe(false);
    } finally {
      openGate();
    }
    await refresh;
    const result = await replace;
    expect(result?.credentials_version).toBe(3);
    expect(await editor.readCredentials(row.id)).toEqual({ ciphertext: 'user-new', version: 3 });
  });

  it('keeps other queries flowing while many callers queue for one credentials lock', async () => {
    const store = await open(await backend.freshUrl());
    const row = await store.createConnector(await newConnector(store, { credentials_ciphertext: '0' }));
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const holders = Array.from({ length: 20 }, (_, i) =>
      store.withCredentialsLock(row.id, async (current) => {
        if (i === 0) {
          entered();
          await gate;
        }
        return { ciphertext: String(Number(current.ciphertext) + 1) };
      }),
    );
    try {
      await inside;
      await sleep(100);
      // With one database connection per waiting caller, the pool would be exhausted here.
      const read = store.getConnector(await testTenant(store, 'user-a'), row.id);
      const outcome = await Promise.race([read.then(() => 'answered'), sleep(1_000).then(() => 'starved')]);
      expect(outcome).toBe('answered');
    } finally {
      openGate();
    }
    await Promise.all(holders);
    expect(await store.readCredentials(row.id)).toEqual({ ciphertext: '20', version: 21 });
  });
});

describe('sqlite specifics', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ce-sqlite-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('keeps no plaintext of encrypted credentials in the database files', async () => {
    const path = join(root, 'plain', 'engine.db');
    const cipher = createCipher(await loadOrCreateKey({ dataDir: join(root, 'plain') }));
    const store = await openStore(`sqlite:${path}`);
    const secret = 'pat-PLAINTEXT-SECRET-0123456789';
    const row = await store.createConnector(
      await newConnector(store, { name: 'VISIBLE-MARKER-NAME', credentials_ciphertext: cipher.encrypt(JSON.stringify({ token: secret })) }),
    );
    await store.updateConnector(await testTenant(store, 'user-a'), row.id, {
      credentials_ciphertext: cipher.encrypt(JSON.stringify({ token: `${secret}-2` })),
    });
    await store.withCredentialsLock(row.id, async () => ({ ciphertext: cipher.encrypt(JSON.stringify({ token: `${secret}-3` })) }));
    const stored = await store.readCredentials(row.id);
    expect(JSON.parse(cipher.decrypt(stored!.ciphertext))).toEqual({ token: `${secret}-3` });

    // Read every file of the database (main file, WAL, shared memory) while the store is open,
    // then again after close (which checkpoints the WAL into the main file).
    const dump = async () => {
      const names = (await readdir(join(root, 'plain'))).filter((name) => name.startsWith('engine.db'));
      return Buffer.concat(await Promise.all(names.map((name) => readFile(join(root, 'plain', name)))));
    };
    for (const bytes of [await dump(), await store.close().then(dump)]) {
      expect(bytes.includes('VISIBLE-MARKER-NAME')).toBe(true);
      expect(bytes.includes(stored!.ciphertext)).toBe(true);
      expect(bytes.includes('PLAINTEXT-SECRET')).toBe(false);
    }
  });

  it('takes over the credentials lease of a dead process once it expires, not before', async () => {
    const path = join(root, 'lease', 'engine.db');
    // Lease expiry is read on the store's clock; waiters poll the row in real time.
    const clock = createManualClock();
    const store = await openStore(`sqlite:${path}`, { clock });
    const raw = new Database(path);
    try {
      const row = await store.createConnector(await newConnector(store, { credentials_ciphertext: 'held' }));
      const plant = raw.prepare('UPDATE connectors SET credentials_lock_token = ?, credentials_lock_expires_at = ? WHERE id = ?');

      // Expired on the clock: taken at once (the clock never moves, so a wait would never end).
      plant.run('dead-process', clock.now() - 1, row.id);
      await store.withCredentialsLock(row.id, async () => ({ ciphertext: 'after-expired' }));
      expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'after-expired', version: 2 });

      plant.run('live-process', clock.now() + 400, row.id);
      let written = false;
      const waiting = store.withCredentialsLock(row.id, async () => {
        written = true;
        return { ciphertext: 'after-live' };
      });
      await clock.advance(399);
      // Time for the waiter to poll the row many times (its back-off is 2 to 50 ms): the lease is still live for all of them.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(written).toBe(false);
      await clock.advance(1);
      await waiting;
      expect(written).toBe(true);
      expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'after-live', version: 3 });
      const lock = raw.prepare('SELECT credentials_lock_token AS token FROM connectors WHERE id = ?').get(row.id);
      expect(lock).toEqual({ token: null });
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('refuses to write when the lease was lost or the connector deleted meanwhile', async () => {
    const path = join(root, 'fenced', 'engine.db');
    const store = await openStore(`sqlite:${path}`);
    const raw = new Database(path);
    try {
      const row = await store.createConnector(await newConnector(store, { credentials_ciphertext: 'original' }));
      const lost = store.withCredentialsLock(row.id, async () => {
        raw.prepare("UPDATE connectors SET credentials_lock_token = 'thief' WHERE id = ?").run(row.id);
        return { ciphertext: 'stale' };
      });
      await expect(lost).rejects.toThrow(/Lost the credentials lock/);
      expect(await store.readCredentials(row.id)).toEqual({ ciphertext: 'original', version: 1 });

      raw.prepare('UPDATE connectors SET credentials_lock_token = NULL WHERE id = ?').run(row.id);
      const deleted = store.withCredentialsLock(row.id, async () => {
        await store.deleteConnector(await testTenant(store, 'user-a'), row.id);
        return { ciphertext: 'orphan' };
      });
      await expect(deleted).rejects.toBeInstanceOf(ConnectorNotFoundError);
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('opens an in-memory database', async () => {
    const store = await openStore('sqlite::memory:');
    const row = await store.createConnector(await newConnector(store));
    expect(await store.getConnector(await testTenant(store, 'user-a'), row.id)).toEqual(row);
    await store.close();
  });

  it('refuses URLs it cannot open', async () => {
    await expect(openStore('mysql://localhost/db')).rejects.toBeInstanceOf(StoreSetupError);
    await expect(openStore('sqlite:')).rejects.toBeInstanceOf(StoreSetupError);
  });
});

describe('secrets', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ce-secrets-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const key = Buffer.alloc(32, 7);

  it('encrypts with AES-256-GCM in the v1 format and decrypts back', () => {
    const cipher = createCipher(key);
    for (const plaintext of ['{"access_token":"abc"}', '', 'ünïcødé ✓ 🔑']) {
      const text = cipher.encrypt(plaintext);
      expect(text).toMatch(/^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/]*={0,2}$/);
      expect(cipher.decrypt(text)).toBe(plaintext);
    }
    const [a, b] = [cipher.encrypt('same'), cipher.encrypt('same')];
    expect(a).not.toBe(b);
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
  });

  it('detects tampering, a wrong key and malformed input with DecryptionError', () => {
    const cipher = createCipher(key);
    const text = cipher.encrypt('{"refresh_token":"r-123"}');
    const flipBit = (part: number) => {
      const parts = text.split(':');
      const bytes = Buffer.from(parts[part]!, 'base64');
      bytes[0] = bytes[0]! ^ 1;
      parts[part] = bytes.toString('base64');
      return parts.join(':');
    };
    for (const tampered of [flipBit(1), flipBit(2), flipBit(3)]) {
      expect(() => cipher.decrypt(tampered)).toThrow(DecryptionError);
    }
    expect(() => createCipher(Buffer.alloc(32, 8)).decrypt(text)).toThrow(DecryptionError);
    for (const malformed of ['', 'garbage', text.replace(/^v1:/, 'v2:'), `${text}:extra`, text.replace(/:[^:]+$/, ':***')]) {
      expect(() => cipher.decrypt(malformed)).toThrow(DecryptionError);
    }
    expect(() => createCipher(Buffer.alloc(16))).toThrow(StoreSetupError);
  });

  it('creates the key file once with mode 0600 and reuses it', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const created = await loadOrCreateKey({ dataDir });
    expect(created).toHaveLength(32);
    const file = join(dataDir, KEY_FILE_NAME);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).equals(created)).toBe(true);
    expect((await loadOrCreateKey({ dataDir })).equals(created)).toBe(true);
    expect((await loadOrCreateKey({ dataDir, secret: '' })).equals(created)).toBe(true);
    expect((await readdir(dataDir)).sort()).toEqual([KEY_FILE_NAME]);

    const racedDir = join(root, 'raced');
    const raced = await Promise.all(Array.from({ length: 6 }, () => loadOrCreateKey({ dataDir: racedDir })));
    for (const k of raced) expect(k.equals(raced[0]!)).toBe(true);
    expect(raced[0]!.equals(created)).toBe(false);
  });

  it('refuses a key file of the wrong size instead of replacing it', async () => {
    const dataDir = join(root, 'corrupt');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, KEY_FILE_NAME), 'too short');
    await expect(loadOrCreateKey({ dataDir })).rejects.toBeInstanceOf(StoreSetupError);
    expect(await readFile(join(dataDir, KEY_FILE_NAME), 'utf8')).toBe('too short');
  });

  it('derives a stable key from ENGINE_SECRET without touching the data dir', async () => {
    const dataDir = join(root, 'from-secret');
    const one = await loadOrCreateKey({ secret: 'correct horse battery staple', dataDir });
    const two = await loadOrCreateKey({ secret: 'correct horse battery staple', dataDir: join(root, 'elsewhere') });
    const other = await loadOrCreateKey({ secret: 'correct horse battery stapler', dataDir });
    expect(one).toHaveLength(32);
    expect(one.equals(two)).toBe(true);
    expect(one.equals(other)).toBe(false);
    // Pinned: changing the derivation would make every stored credential undecryptable.
    expect(one.toString('hex')).toBe(PINNED_SECRET_KEY);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('hashes client secrets with a random salt and verifies them', async () => {
    const hash = await hashSecret('s3cret-value');
    expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('s3cret-value');
    expect(await hashSecret('s3cret-value')).not.toBe(hash);
    expect(await verifySecret('s3cret-value', hash)).toBe(true);
    expect(await verifySecret('s3cret-valuE', hash)).toBe(false);
    expect(await verifySecret('', hash)).toBe(false);
    for (const malformed of ['', 'scrypt$1$2', hash.replace(/^scrypt/, 'bcrypt'), hash.replace(/\$[^$]+$/, '$')]) {
      expect(await verifySecret('s3cret-value', malformed)).toBe(false);
    }
  });
});

/** scrypt(N=2^15, r=8, p=1) of 'correct horse battery staple' with the fixed salt, computed once. */
const PINNED_SECRET_KEY = '90e2db68d4e553081723ab4622611cc9d9a6742ebaeb531a43e0143a28050c74';

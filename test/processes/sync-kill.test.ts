/**
 * kill -9 at ten points of full and incremental passes, on SQLite and PostgreSQL: each pass runs
 * in its own `connector-engine sync` process, which is killed once the copy shows it got that far;
 * then one more pass runs. After it, the copy holds every upstream record exactly once (0 lost,
 * 0 duplicated) and every change (0 stale). Orders are changed newest-first along the id order the
 * upstream lists them in, so a cursor that ran ahead of the written records would skip changes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { checkConnectorInput } from '../../engine/index.js';
import { startShopifyFake, type ShopifyFake } from '../../engine/sandbox/index.js';
import { parseSearchParams, searchRecords } from '../../engine/search/index.js';
import { createCipher, loadOrCreateKey, openStore, type Store, type SyncState } from '../../engine/store/index.js';
import { CLI, runCli } from '../support/cli.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { waitFor } from '../support/sync-processes.js';

const SECRET = 'sync-kill-shared-secret';
const ORDERS = 300;
/** Records per write transaction of the killed pass: kill points sit on batch boundaries (`sync --batch-size`). */
const BATCH = 100;
const ENTITIES = ['customers', 'orders', 'products'] as const;

/** Where a pass is killed: its mode, the entity it is copying, and how many records it has written. */
interface KillPoint {
  mode: 'full' | 'incremental';
  entity: (typeof ENTITIES)[number];
  written: number;
}

const KILL_POINTS: KillPoint[] = [
  { mode: 'full', entity: 'customers', written: 0 },
  { mode: 'full', entity: 'orders', written: 0 },
  { mode: 'full', entity: 'orders', written: BATCH },
  { mode: 'full', entity: 'orders', written: 2 * BATCH },
  { mode: 'full', entity: 'products', written: 0 },
  { mode: 'incremental', entity: 'customers', written: 0 },
  { mode: 'incremental', entity: 'orders', written: 0 },
  { mode: 'incremental', entity: 'orders', written: BATCH },
  { mode: 'incremental', entity: 'orders', written: 2 * BATCH },
  { mode: 'incremental', entity: 'products', written: 0 },
];

let fake: ShopifyFake;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  fake = await startShopifyFake({ records: ORDERS, rateLimits: false });
});
// A failed wait leaves a hold armed; the next test starts with every request answered.
afterEach(() => fake?.faults.reset());
afterAll(async () => {
  await fake?.close();
  await cluster?.stop();
});

describe.each(['sqlite', 'postgres'] as const)('kill -9 during sync passes on %s', (backend) => {
  let store: Store;
  let databaseUrl: string;
  let connectorId: string;
  let edits = 0;

  const env = () => ({ ENGINE_DATABASE_URL: databaseUrl, ENGINE_SECRET: SECRET, ENGINE_UPSTREAM_SHOPIFY: fake.describe().base_url });
  const state = async (entity: string): Promise<SyncState | undefined> => (await store.syncStates(connectorId)).find((s) => s.entity === entity);

  /** One pass to the end in its own process; fails the test unless every entity succeeded. */
  const completePass = async (full: boolean): Promise<void> => {
    const result = await runCli(['sync', connectorId, ...(full ? ['--full'] : [])], undefined, env());
    expect(result.code, result.stderr).toBe(0);
  };

  /** Changes `count` orders, newest-first along the id order (the last ids get the oldest change). */
  const editOrders = (count: number): void => {
    const ids = fake.dataset.orders.map((order) => order.id).sort((a, b) => a - b);
    const round = ++edits;
    const chosen = ids.filter((_, index) => (index + round) % 8 !== 0).slice(0, count);
    for (const id of [...chosen].reverse()) {
      fake.clock.advance(1000);
      fake.editOrder(id, `edit ${round} of ${id}`);
    }
  };

  /** The copy of one entity as [id, note] pairs, paged with the cursor: every row, duplicates kept. */
  const copy = async (entity: string): Promise<Array<[string, unknown]>> => {
    const rows: Array<[string, unknown]> = [];
    const searchable = { id: 'integer', note: 'string' } as const;
    for (let cursor: string | undefined; ;) {
      const request = parseSearchParams({ query: {}, limit: 1000, ...(cursor ? { cursor } : {}) }, searchable);
      const page = await searchRecords(store, { connectorId, entity }, request);
      for (const hit of page.hits) rows.push([hit.id, hit.data.note]);
      if (!page.next_cursor) return rows;
      cursor = page.next_cursor;
    }
  };

  beforeAll(async () => {
    if (backend === 'postgres') {
      cluster ??= await startPostgres();
      databaseUrl = await cluster.createDatabase();
    } else {
      databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'sync-kill-')), 'engine.db')}`;
    }
    store = await openStore(databaseUrl);
    const info = fake.describe();
    const checked = checkConnectorInput('shopify', info.credentials, info.config);
    const client = await store.createClient({ name: 'kill tests', secretHash: 'unused' });
    const cipher = createCipher(await loadOrCreateKey({ secret: SECRET, dataDir: tmpdir() }));
    const row = await store.createConnector({
      tenant: { clientId: client.client_id, externalUserId: 'u1' },
      connector_type: checked.type,
      config: checked.config,
      auth_scheme: checked.scheme,
      credentials_ciphertext: cipher.encrypt(JSON.stringify(info.credentials)),
    });
    connectorId = row.id;
    await completePass(true);
  }, 120_000);
  afterAll(() => store?.close());

  test.each(KILL_POINTS)(
    'killed in a $mode pass at $entity after $written records: the next pass loses, duplicates and leaves stale nothing',
    async (point) => {
      // An incremental pass must have over two batches of changed orders to read for the last kill point.
      editOrders(point.mode === 'full' ? 50 : 2 * BATCH + 60);
      const before = await state(point.entity);
      // The fake holds the entity's page that follows the kill point, so the pass is sure to stand
      // there (running, with at least that many records written) until it is killed: sync reads
      // pages of 250, so 0 stops at the first page and 100 or 200 at the second.
      fake.faults.hold(new RegExp(`/${point.entity}\\.json$`), point.written === 0 ? 0 : 1);
      const child = spawn(process.execPath, [CLI, 'sync', connectorId, '--batch-size', String(BATCH), ...(point.mode === 'full' ? ['--full'] : [])], {
        env: { ...process.env, ...env() },
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const reached = await waitFor(
        async () => {
          const now = await state(point.entity);
          const fresh = now && now.started_at !== before?.started_at;
          return fresh && now.status === 'running' && now.records >= point.written ? now : undefined;
        },
        { what: `the ${point.mode} pass to write ${point.written} ${point.entity}`, timeoutMs: 60_000, intervalMs: 5 },
      );
      child.kill('SIGKILL');
      await exited;
      fake.faults.reset();
      expect(reached.mode).toBe(point.mode);

      // The next process takes the dead one's job over at once (its lease names a process that is gone).
      await completePass(false);
      for (const entity of ENTITIES) {
        const rows = await copy(entity);
        const ids = rows.map(([id]) => id);
        expect(new Set(ids).size, `${entity}: no id twice`).toBe(ids.length);
        const upstream = entity === 'orders' ? fake.dataset.orders : entity === 'products' ? fake.dataset.products : fake.dataset.customers;
        expect([...ids].sort(), `${entity}: every upstream record`).toEqual(upstream.map((record) => String(record.id)).sort());
      }
      const notes = new Map(await copy('orders'));
      const stale = fake.dataset.orders.filter((order) => notes.get(String(order.id)) !== order.note).map((order) => order.id);
      expect(stale, 'orders whose change the copy missed').toEqual([]);
    },
    120_000,
  );
});

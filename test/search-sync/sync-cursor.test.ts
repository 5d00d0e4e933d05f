/**
 * An interrupted incremental pass loses nothing: the stored cursor (the high-water mark of
 * `updated_at`) never moves past records the copy does not hold yet. Shopify lists orders by id,
 * not by `updated_at`, so the newest change can come first: a cursor advanced to it mid-pass would
 * make the recovery pass skip every older change the cut-short pass never read.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type Connection } from '../../engine/index.js';
import { startShopifyFake, type ShopifyFake } from '../../engine/sandbox/index.js';
import type { SearchResult } from '../../engine/search/index.js';
import { openStore, type Store, type SyncState } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const ORDERS = 1200;
const CHANGED = 550;
const CUT_AFTER = 500;

let cluster: PostgresCluster | undefined;
afterAll(async () => cluster?.stop());

describe.each(['sqlite', 'postgres'] as const)('incremental sync cursor on %s', (backend) => {
  let fake: ShopifyFake;
  let store: Store;
  const copyId = 'shop-copy';

  beforeAll(async () => {
    fake = await startShopifyFake({ records: ORDERS, rateLimits: false });
    let url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'cursor-')), 'copy.db')}`;
    if (backend === 'postgres') {
      cluster ??= await startPostgres();
      url = await cluster.createDatabase();
    }
    // A sync() someone awaits, as the library's own copy opens it: at the default ('low', for a
    // service) the write thread runs at nice 10 and, with every core busy, took 74 s instead of 4.
    store = await openStore(url, { writeThreadPriority: 'normal' });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await fake?.close();
  });

  /** Every state the runner stored, in order: what a process killed at that moment leaves behind. */
  const saved: SyncState[] = [];
  const open = (): Connection => {
    const info = fake.describe();
    // The real store, with each saveSyncState also copied into `saved` (an observer, not a stand-in).
    const observed = new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (name === 'saveSyncState')
          return async (state: SyncState) => {
            saved.push(structuredClone(state));
            return target.saveSyncState(state);
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return connect<string>('shopify', {
      credentials: info.credentials,
      config: info.config,
      baseUrl: info.base_url,
      rateLimit: false,
      store: observed,
      copyId,
    });
  };
  const ordersState = async (): Promise<SyncState> => (await store.syncStates(copyId)).find((s) => s.entity === 'orders')!;
  const notes = async (connection: Connection): Promise<Map<string, unknown>> => {
    const out = new Map<string, unknown>();
    for (let cursor: string | null = null; ;) {
      const page: SearchResult = await connection.execute('orders', 'search', {
        query: {},
        limit: 1000,
        fields: ['id', 'note'],
        ...(cursor ? { cursor } : {}),
      });
      for (const hit of page.hits) out.set(hit.id, hit.data.note);
      cursor = page.next_cursor;
      if (!cursor) return out;
    }
  };

  test('a pass cut short after its first batch keeps the last success cursor, and the next pass reads every change', async () => {
    const connection = open();
    const [first] = await connection.sync({ entities: ['orders'] });
    expect(first).toMatchObject({ status: 'succeeded', mode: 'full', records: ORDERS });
    const committed = first!.cursor;
    expect(committed).toEqual(expect.any(String));

    // Changes made newest-first along the id order: the lowest ids (read first) carry the newest
    // updated_at, the highest ids (read last) the oldest of the changes.
    const ids = fake.dataset.orders.map((order) => order.id).sort((a, b) => a - b);
    const changed = ids.filter((_, index) => index % 2 === 0).slice(0, CHANGED);
    expect(changed).toHaveLength(CHANGED);
    for (const id of [...changed].reverse()) {
      fake.clock.advance(1000);
      expect(fake.editOrder(id, `changed ${id}`)).toBe(true);
    }

    // Cut the incremental pass right after its first batch is written. Then put back the state the
    // runner stored at that moment, as a process killed with -9 there would have left it.
    saved.length = 0;
    const [cut] = await connection.sync({
      entities: ['orders'],
      onProgress: (progress) => {
        if (progress.status === 'running' && progress.records >= CUT_AFTER) throw new Error('cut');
      },
    });
    expect(cut).toMatchObject({ status: 'failed', mode: 'incremental', cursor: committed });
    const midPass = saved.filter((state) => state.status === 'running');
    expect(midPass.map((state) => state.records)).toEqual([0, CUT_AFTER]);
    for (const state of midPass) expect(state.cursor, 'the stored cursor while the pass runs').toBe(committed);
    await store.saveSyncState(midPass[midPass.length - 1]!);
    expect(await ordersState()).toMatchObject({ status: 'running', records: CUT_AFTER, cursor: committed });

    const [after] = await connection.sync({ entities: ['orders'] });
    expect(after).toMatchObject({ status: 'succeeded', mode: 'incremental' });
    const copy = await notes(connection);
    expect(copy.size).toBe(ORDERS);
    const stale = changed.filter((id) => copy.get(String(id)) !== `changed ${id}`);
    expect(stale).toEqual([]);
    // The new cursor is no later than the pass's start less the skew margin: changes made while it
    // ran are read again by the next pass.
    expect(Date.parse(after!.cursor!)).toBeLessThanOrEqual(Date.parse(after!.started_at) - 5 * 60_000);
    expect(Date.parse(after!.cursor!)).toBeGreaterThanOrEqual(Date.parse(committed!));
    await connection.close();
  });
});

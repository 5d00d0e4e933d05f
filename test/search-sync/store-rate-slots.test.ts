import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../engine/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { testTenant } from '../support/store-tenants.js';

/**
 * The store's rate-limit slots (migration 7): one budget per connector, shared by every store
 * opened on the database (each store here stands for a server process).
 */

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgres();
}, 120_000);
afterAll(() => cluster?.stop());

async function databaseUrl(backend: 'sqlite' | 'postgres'): Promise<string> {
  return backend === 'postgres' ? cluster.createDatabase() : `sqlite:${join(mkdtempSync(join(tmpdir(), 'rate-slots-')), 'engine.db')}`;
}

async function connector(store: Store): Promise<string> {
  const row = await store.createConnector({
    tenant: await testTenant(store),
    connector_type: 'gong',
    config: {},
    auth_scheme: 'access_key',
    credentials_ciphertext: 'unused',
  });
  return row.id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(['sqlite', 'postgres'] as const)('rate-limit slots on %s', (backend) => {
  test('processes taking at once never hold more slots than the budget', async () => {
    const url = await databaseUrl(backend);
    const stores = [await openStore(url), await openStore(url)];
    try {
      const id = await connector(stores[0]!);
      const slots = stores.map((store) => store.rateSlots(id));
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => slots[i % 2]!.take(5, 60_000, 30_000)));
      const taken = outcomes.flatMap((outcome) => ('slot' in outcome ? [outcome.slot] : []));
      expect(taken.sort()).toEqual([0, 1, 2, 3, 4]);
      // (A take that lost a race for a slot being taken may say 0 ms: its caller looks again.)
      // Once the takes are in, every slot is leased: the soonest one can be free is a window after
      // its attempt ends, and no process can take one before.
      for (const store of slots) {
        const outcome = await store.take(5, 60_000, 30_000);
        expect('waitMs' in outcome && outcome.waitMs).toBeGreaterThan(59_000);
        expect('waitMs' in outcome && outcome.waitMs).toBeLessThanOrEqual(60_000);
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  test('a released slot is free again one window after its attempt ended, for any process', async () => {
    const url = await databaseUrl(backend);
    const [one, two] = [await openStore(url), await openStore(url)];
    try {
      const id = await connector(one);
      const mine = one.rateSlots(id);
      const theirs = two.rateSlots(id);
      const first = await mine.take(1, 300, 30_000);
      expect(first).toEqual({ slot: 0 });
      await mine.release(0);
      const waiting = await theirs.take(1, 300, 30_000);
      expect('waitMs' in waiting && waiting.waitMs).toBeGreaterThan(200);
      await sleep(('waitMs' in waiting ? waiting.waitMs : 0) + 20);
      expect(await theirs.take(1, 300, 30_000)).toEqual({ slot: 0 });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  test('a slot whose holder never releases it (a process that died) is free a window after its lease', async () => {
    const url = await databaseUrl(backend);
    const [dead, alive] = [await openStore(url), await openStore(url)];
    try {
      const id = await connector(dead);
      expect(await dead.rateSlots(id).take(1, 100, 200)).toEqual({ slot: 0 });
      await dead.close();
      const slots = alive.rateSlots(id);
      const waiting = await slots.take(1, 100, 200);
      expect('waitMs' in waiting).toBe(true);
      await sleep(350);
      expect(await slots.take(1, 100, 200)).toEqual({ slot: 0 });
    } finally {
      await alive.close();
    }
  });

  test('the slots go with their connector', async () => {
    const store = await openStore(await databaseUrl(backend));
    try {
      const tenant = await testTenant(store);
      const id = await connector(store);
      const slots = store.rateSlots(id);
      expect(await slots.take(2, 1000, 1000)).toEqual({ slot: 0 });
      expect(await store.deleteConnector(tenant, id)).toBe(true);
      await expect(slots.take(2, 1000, 1000)).rejects.toMatchObject({ code: 'CONNECTOR_NOT_FOUND' });
      await expect(store.rateSlots('con_never_created').take(2, 1000, 1000)).rejects.toMatchObject({ code: 'CONNECTOR_NOT_FOUND' });
    } finally {
      await store.close();
    }
  });
});

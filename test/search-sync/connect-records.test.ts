/**
 * The store's OAuth apps and connect sessions on both backends (issue 16): each once-only step is
 * one conditional statement, so a state is taken back once and a session creates one connector.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { testTenant } from '../support/store-tenants.js';

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

const backends = [
  { name: 'sqlite', url: async () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'connect-records-')), 'e.db')}` },
  { name: 'postgres', url: () => cluster.createDatabase() },
];

describe.each(backends)('connect records on $name', (backend) => {
  async function withStore(run: (store: Store) => Promise<void>): Promise<void> {
    const store = await openStore(await backend.url());
    try {
      await run(store);
    } finally {
      await store.close();
    }
  }

  test('OAuth apps: set replaces, list has no secret, remove once', async () => {
    await withStore(async (store) => {
      const records = store.connectRecords();
      await records.setOAuthApp({ connector_type: 'hubspot', client_id: 'first', secret_ciphertext: 'v1:a:b:c' });
      await records.setOAuthApp({ connector_type: 'hubspot', client_id: 'second', secret_ciphertext: 'v1:d:e:f' });
      expect(await records.findOAuthApp('hubspot')).toMatchObject({ connector_type: 'hubspot', client_id: 'second', secret_ciphertext: 'v1:d:e:f' });
      const listed = await records.listOAuthApps();
      expect(listed.map((app) => Object.keys(app).sort())).toEqual([['client_id', 'connector_type', 'updated_at']]);
      expect(await records.removeOAuthApp('hubspot')).toBe(true);
      expect(await records.removeOAuthApp('hubspot')).toBe(false);
      expect(await records.findOAuthApp('hubspot')).toBeUndefined();
    });
  });

  test('a session: only its latest state is taken, once; one claim; a released claim can be taken again', async () => {
    await withStore(async (store) => {
      const tenant = await testTenant(store, 'user-c');
      const records = store.connectRecords();
      const session = {
        id: 'a'.repeat(64),
        client_id: tenant.clientId,
        external_user_id: 'user-c',
        connector_types: ['hubspot'],
        return_url: null,
        expires_at: 1_800_000,
      };
      await records.createSession(session);
      expect(await records.findSession(session.id)).toEqual({
        ...session,
        state_type: null,
        state_nonce: null,
        verifier_ciphertext: null,
        state_config: null,
        state_used_at: null,
        completed_at: null,
        connector_id: null,
      });
      expect(await records.startAuthorization(session.id, { state_type: 'hubspot', state_nonce: 'n1', verifier_ciphertext: null, state_config: {} })).toBe(
        true,
      );
      expect(
        await records.startAuthorization(session.id, {
          state_type: 'amazon-ads',
          state_nonce: 'n2',
          verifier_ciphertext: 'v1:x',
          state_config: { region: 'EU' },
        }),
      ).toBe(true);
      expect(await records.useState(session.id, 'n1', 10)).toBe(false);
      expect(await records.useState(session.id, 'n2', 11)).toBe(true);
      expect(await records.useState(session.id, 'n2', 12)).toBe(false);
      // Two creations at once: exactly one takes the session, whichever the database runs first.
      expect((await Promise.all([records.claim(session.id, 20), records.claim(session.id, 21)])).sort()).toEqual([false, true]);
      await records.release(session.id);
      expect(await records.claim(session.id, 30)).toBe(true);
      await records.complete(session.id, 'conn_1');
      await records.release(session.id);
      expect(await records.findSession(session.id)).toMatchObject({
        state_used_at: 11,
        completed_at: 30,
        connector_id: 'conn_1',
        verifier_ciphertext: 'v1:x',
        state_config: { region: 'EU' },
      });
      expect(await records.startAuthorization(session.id, { state_type: 'hubspot', state_nonce: 'n3', verifier_ciphertext: null, state_config: {} })).toBe(
        false,
      );
    });
  });
});

import type { Store, Tenant } from '../../engine/store/index.js';

/** The platform client the store tests' connectors belong to (found by name, so reopened stores agree). */
const TEST_CLIENT = 'store-tests';

/**
 * The tenant of `externalUserId` under the tests' platform client, creating that client in the
 * store's database on first use. Store tests reach connectors only through a tenant, as the
 * hosted API does.
 */
export async function testTenant(store: Store, externalUserId = 'user-a'): Promise<Tenant> {
  const existing = (await store.listClients()).find((client) => client.name === TEST_CLIENT);
  const client = existing ?? (await store.createClient({ name: TEST_CLIENT, secretHash: 'not-a-real-hash' }));
  return { clientId: client.client_id, externalUserId };
}

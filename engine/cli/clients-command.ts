import { randomBytes } from 'node:crypto';
import { InvalidRequestError } from '../errors.js';
import { hashSecret, openStore } from '../store/index.js';
import { DEFAULT_DATABASE_URL } from './serve-command.js';

function databaseUrl(flag: string | undefined): string {
  return flag || process.env.ENGINE_DATABASE_URL || DEFAULT_DATABASE_URL;
}

/**
 * `connector-engine clients create --name NAME`: registers a platform client and prints
 * `{"client_id", "client_secret"}` as one JSON line. The secret is shown once; only its hash is kept.
 */
export async function createClientCommand(options: { name?: string; databaseUrl?: string }): Promise<void> {
  if (!options.name || options.name.trim() === '') {
    throw new InvalidRequestError('--name is required', { details: [{ path: '--name', message: 'is required' }] });
  }
  const store = await openStore(databaseUrl(options.databaseUrl));
  try {
    const secret = `ces_${randomBytes(32).toString('base64url')}`;
    const client = await store.createClient({ name: options.name.trim(), secretHash: await hashSecret(secret) });
    process.stdout.write(JSON.stringify({ client_id: client.client_id, client_secret: secret }) + '\n');
  } finally {
    await store.close();
  }
}

/** `connector-engine clients list`: one JSON line per client (never a secret). */
export async function listClientsCommand(options: { databaseUrl?: string }): Promise<void> {
  const store = await openStore(databaseUrl(options.databaseUrl));
  try {
    for (const client of await store.listClients()) process.stdout.write(JSON.stringify(client) + '\n');
  } finally {
    await store.close();
  }
}

/**
 * `connector-engine clients revoke <id> [--purge]`: its tokens stop working at once, its
 * connectors become unreachable through any client and their background sync stops. The
 * connectors stay stored (credentials encrypted) unless `--purge` deletes them with their copies;
 * `--purge` also works on a client revoked earlier.
 */
export async function revokeClientCommand(clientId: string, options: { databaseUrl?: string; purge?: boolean }): Promise<void> {
  const store = await openStore(databaseUrl(options.databaseUrl));
  try {
    const revoked = await store.revokeClient(clientId);
    const known = revoked || (await store.findClient(clientId)) !== undefined;
    const purged = options.purge && known ? { purged_connectors: await store.purgeClientConnectors(clientId) } : {};
    process.stdout.write(JSON.stringify({ client_id: clientId, revoked, ...purged }) + '\n');
    if (!revoked && !(options.purge && known)) process.exitCode = 1;
  } finally {
    await store.close();
  }
}

import { InvalidRequestError } from '../errors.js';
import { dataDirectory } from '../hosted/index.js';
import { createCipher, loadOrCreateKey, openStore, type Store } from '../store/index.js';
import { newSigningSecret, parseEndpointUrl, parseEventList } from '../webhooks/index.js';
import { DEFAULT_DATABASE_URL } from './serve-command.js';

export interface WebhooksAddOptions {
  client?: string;
  url?: string;
  events?: string;
  databaseUrl?: string;
}

function databaseUrl(flag: string | undefined): string {
  return flag || process.env.ENGINE_DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** Runs `fn` on the store of `--database-url`, closing it whatever happens. */
async function withStore<T>(flag: string | undefined, fn: (store: Store, url: string) => Promise<T>): Promise<T> {
  const url = databaseUrl(flag);
  const store = await openStore(url);
  try {
    return await fn(store, url);
  } finally {
    await store.close();
  }
}

/**
 * `connector-engine webhooks add --client ID --url URL [--events a,b]`: registers an endpoint and
 * prints it with its signing secret as one JSON line. The secret is shown this once; the store
 * keeps it encrypted with the service key (ENGINE_SECRET or the key file), as it keeps credentials.
 */
export async function addWebhookCommand(options: WebhooksAddOptions): Promise<void> {
  if (!options.client || options.client.trim() === '') {
    throw new InvalidRequestError('--client is required', { details: [{ path: '--client', message: 'is required' }] });
  }
  const url = parseEndpointUrl(options.url ?? '');
  const events = parseEventList(options.events);
  await withStore(options.databaseUrl, async (store, database) => {
    const key = await loadOrCreateKey({ ...(process.env.ENGINE_SECRET ? { secret: process.env.ENGINE_SECRET } : {}), dataDir: dataDirectory(database) });
    const secret = newSigningSecret();
    const endpoint = await store.webhooks.addEndpoint({
      clientId: options.client!.trim(),
      url: url.href,
      events,
      secretCiphertext: createCipher(key).encrypt(secret),
    });
    process.stdout.write(JSON.stringify({ ...endpoint, secret }) + '\n');
  });
}

/** `connector-engine webhooks list [--client ID]`: one JSON line per endpoint, never a secret. */
export async function listWebhooksCommand(options: { client?: string; databaseUrl?: string }): Promise<void> {
  await withStore(options.databaseUrl, async (store) => {
    for (const endpoint of await store.webhooks.listEndpoints(options.client)) process.stdout.write(JSON.stringify(endpoint) + '\n');
  });
}

/** `connector-engine webhooks remove <id>`: deletes the endpoint; its pending deliveries fail. Exit code 1 when unknown. */
export async function removeWebhookCommand(id: string, options: { databaseUrl?: string }): Promise<void> {
  await withStore(options.databaseUrl, async (store) => {
    const removed = await store.webhooks.removeEndpoint(id);
    process.stdout.write(JSON.stringify({ id, removed }) + '\n');
    if (!removed) process.exitCode = 1;
  });
}

import { readFile } from 'node:fs/promises';
import { InvalidRequestError, UnknownConnectorTypeError } from '../errors.js';
import { dataDirectory } from '../hosted/index.js';
import { shippedManifests } from '../manifest/index.js';
import { createCipher, loadOrCreateKey, openStore } from '../store/index.js';
import { DEFAULT_DATABASE_URL } from './serve-command.js';

function databaseUrl(flag: string | undefined): string {
  return flag || process.env.ENGINE_DATABASE_URL || DEFAULT_DATABASE_URL;
}

/** A shipped type with an OAuth authorization flow, or a typed error naming the ones there are. */
function oauthType(type: string): string {
  const name = type.toLowerCase();
  const withFlow = [...shippedManifests().values()].filter((loaded) => loaded.manifest.auth.some((scheme) => scheme.authorization)).map((l) => l.manifest.type);
  if (!withFlow.includes(name)) {
    throw new UnknownConnectorTypeError(`"${type}" is not a connector type with an OAuth authorization flow; those are: ${withFlow.join(', ')}`, {
      details: [{ path: '<type>', message: `must be one of ${withFlow.join(', ')}` }],
    });
  }
  return name;
}

/** The secret from its file, trimmed of the final newline an editor adds; never from a flag, which would land in shell history. */
async function secretFrom(file: string | undefined): Promise<string> {
  if (!file) throw new InvalidRequestError('--client-secret-file is required', { details: [{ path: '--client-secret-file', message: 'is required' }] });
  const secret = (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
  if (secret === '') throw new InvalidRequestError('the client secret file is empty', { details: [{ path: '--client-secret-file', message: 'is empty' }] });
  return secret;
}

/**
 * `connector-engine oauth-apps set <type> --client-id ID --client-secret-file FILE`: the OAuth app
 * the Connect page signs users in with, its secret encrypted with the service key (as connector
 * credentials are). Prints the type and client id; the secret is never printed.
 */
export async function setOAuthAppCommand(type: string, options: { clientId?: string; clientSecretFile?: string; databaseUrl?: string }): Promise<void> {
  const connectorType = oauthType(type);
  if (!options.clientId) throw new InvalidRequestError('--client-id is required', { details: [{ path: '--client-id', message: 'is required' }] });
  const secret = await secretFrom(options.clientSecretFile);
  const url = databaseUrl(options.databaseUrl);
  const key = await loadOrCreateKey({ ...(process.env.ENGINE_SECRET ? { secret: process.env.ENGINE_SECRET } : {}), dataDir: dataDirectory(url) });
  const store = await openStore(url);
  try {
    await store
      .connectRecords()
      .setOAuthApp({ connector_type: connectorType, client_id: options.clientId, secret_ciphertext: createCipher(key).encrypt(secret) });
    process.stdout.write(JSON.stringify({ connector_type: connectorType, client_id: options.clientId }) + '\n');
  } finally {
    await store.close();
  }
}

/** `connector-engine oauth-apps list`: one JSON line per app, without its secret. */
export async function listOAuthAppsCommand(options: { databaseUrl?: string }): Promise<void> {
  const store = await openStore(databaseUrl(options.databaseUrl));
  try {
    for (const app of await store.connectRecords().listOAuthApps()) process.stdout.write(JSON.stringify(app) + '\n');
  } finally {
    await store.close();
  }
}

/** `connector-engine oauth-apps remove <type>`: the Connect page stops offering sign-in for it; exit 1 when there was none. */
export async function removeOAuthAppCommand(type: string, options: { databaseUrl?: string }): Promise<void> {
  const connectorType = oauthType(type);
  const store = await openStore(databaseUrl(options.databaseUrl));
  try {
    const removed = await store.connectRecords().removeOAuthApp(connectorType);
    process.stdout.write(JSON.stringify({ connector_type: connectorType, removed }) + '\n');
    if (!removed) process.exitCode = 1;
  } finally {
    await store.close();
  }
}

/**
 * The hosted service the sync-load benchmark measures: a sandbox with a large HubSpot copy, the
 * service on one database (SQLite file or PostgreSQL) routed to it, one platform client with a
 * token, and the HTTP calls the benchmark makes (create a connector, ask for a pass, execute,
 * download). Passes run in this process only when asked for, so the idle phase has none.
 */
import { startHostedService, type HostedService } from '../engine/hosted/index.js';
import type { UpstreamInfo } from '../engine/sandbox/index.js';
import { hashSecret } from '../engine/store/index.js';

/** A running service with a client token for one end user. */
export interface LoadService {
  service: HostedService;
  upstreams: Record<string, UpstreamInfo>;
  token: string;
}

const USER = 'bench-user';

/** Starts the service on `databaseUrl`, routed to the fakes, with background sync off, and gets a token for the bench's user. */
export async function startLoadService(databaseUrl: string, upstreams: Record<string, UpstreamInfo>): Promise<LoadService> {
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: 'bench-sync-load-secret',
    upstreams: Object.fromEntries(Object.entries(upstreams).map(([type, info]) => [type, info.base_url])),
    allowOrigins: Object.fromEntries(Object.entries(upstreams).map(([type, info]) => [type, info.allow_origins])),
    logger: false,
    clientRateLimits: false,
    sync: { background: false },
  });
  const secret = 'bench-sync-load-client-secret';
  const client = await service.store.createClient({ name: 'bench', secretHash: await hashSecret(secret) });
  const answer = await json(service, 'POST', '/v1/auth/token', undefined, { client_id: client.client_id, client_secret: secret, external_user_id: USER });
  return { service, upstreams, token: (answer as { access_token: string }).access_token };
}

/** One JSON call to the service; throws on an error status, so a benchmark never times failures. */
export async function json(service: HostedService, method: string, path: string, token?: string, body?: unknown): Promise<unknown> {
  const response = await fetch(service.url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Creates a connector of `type` with the sandbox's credentials; its first pass waits until asked for. */
export async function createConnector(load: LoadService, type: string): Promise<string> {
  const info = load.upstreams[type]!;
  const body = { external_user_id: USER, connector_type: type, name: `bench ${type}`, credentials: info.credentials, config: info.config };
  return ((await json(load.service, 'POST', '/v1/integrations/connectors', load.token, body)) as { id: string }).id;
}

/** Asks for a full pass of a connector now; with background sync off, this process runs it. */
export async function requestFullPass(load: LoadService, id: string): Promise<void> {
  await json(load.service, 'POST', `/api/v1/connectors/sources/${id}/sync`, load.token, { full: true });
}

/** Runs one execute call and checks it answered records. */
export async function executeList(load: LoadService, id: string): Promise<void> {
  const answer = (await json(load.service, 'POST', `/api/v1/connectors/sources/${id}/execute`, load.token, {
    entity: 'contacts',
    action: 'list',
    params: { limit: 10 },
  })) as { data: unknown[] };
  if (answer.data.length !== 10) throw new Error(`execute answered ${answer.data.length} records, expected 10`);
}

/** Streams an attachment through the service's download route; returns the bytes received. */
export async function downloadAttachment(load: LoadService, id: string, gid: string): Promise<number> {
  const response = await fetch(`${load.service.url}/api/v1/connectors/sources/${id}/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${load.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity: 'attachments', action: 'download', params: { attachment_gid: gid } }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`download answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return bytes;
}

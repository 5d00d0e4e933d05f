/**
 * A hosted service on a given database, routed to a sandbox, with one platform client, and the
 * HTTP calls the sync tests make (token, create connector, sync status, execute).
 */
import type { Clock } from '../../engine/clock/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import type { Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { call, type HttpAnswer } from './http-call.js';
import { logLines } from './log-lines.js';

export interface SyncHarness {
  service: HostedService;
  url: string;
  logs: string[];
  client: { client_id: string; client_secret: string };
  sandbox: Sandbox;
}

export async function startSyncHarness(
  databaseUrl: string,
  sandbox: Sandbox,
  sync: { background?: boolean; pollMs?: number; intervalMs?: number; leaseMs?: number },
  clock?: Clock,
): Promise<SyncHarness> {
  const { stream, lines: logs } = logLines();
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: 'sync-test-engine-secret-0123456789',
    upstreams,
    logger: { level: 'info', stream },
    sync,
    ...(clock ? { clock } : {}),
  });
  const secret = 'ces_sync_test_secret_0001';
  const created = await service.store.createClient({ name: 'sync tests', secretHash: await hashSecret(secret) });
  return { service, url: service.url, logs, client: { client_id: created.client_id, client_secret: secret }, sandbox };
}

export async function token(h: SyncHarness, user: string): Promise<string> {
  const answer = await call(h, 'POST', '/v1/auth/token', { body: { ...h.client, external_user_id: user } });
  if (answer.status !== 200) throw new Error(`token for ${user}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** Creates a connector of `type` for `user` with the sandbox's credentials; returns its id. */
export async function createConnector(h: SyncHarness, user: string, type: string): Promise<string> {
  const info = h.sandbox.upstreams[type]!;
  const answer = await call(h, 'POST', '/v1/integrations/connectors', {
    token: await token(h, user),
    body: { external_user_id: user, connector_type: type, name: `${type} of ${user}`, credentials: info.credentials, config: info.config },
  });
  if (answer.status !== 201) throw new Error(`create ${type}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id as string;
}

export function execute(h: SyncHarness, userToken: string, id: string, body: { entity: string; action: string; params?: unknown }): Promise<HttpAnswer> {
  return call(h, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token: userToken, body });
}

/**
 * Polls GET .../sync until each of `entities` has a succeeded state (or one failed), up to
 * `timeoutMs`; returns the last status body. The caller asserts on it.
 */
export async function waitForSync(h: SyncHarness, userToken: string, id: string, entities: string[], timeoutMs = 60_000): Promise<HttpAnswer['body']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: userToken });
    if (answer.status !== 200) throw new Error(`sync status of ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
    const states = answer.body.entities as Array<{ entity: string; status: string }>;
    const done = entities.every((entity) => states.some((s) => s.entity === entity && s.status === 'succeeded'));
    const failed = states.some((s) => s.status === 'failed');
    if (done || failed || Date.now() > deadline) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

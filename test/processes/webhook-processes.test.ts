/**
 * Two `connector-engine serve` processes on one SQLite file both deliver webhooks: each delivery
 * is claimed under a lease, so the receiver gets every event exactly once, never twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { killAll, startServe, waitFor, type ServeProcess } from '../support/sync-processes.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'webhook-processes-shared-secret';
const CONNECTORS = 12;

let sandbox: Sandbox;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [sandbox, receiver] = await Promise.all([startSandbox({ records: 50, rateLimits: false }), startWebhookReceiver()]);
});
afterAll(async () => {
  await killAll();
  await receiver?.close();
  await sandbox?.close();
});

test('two serve processes polling one database never deliver one event twice', async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'webhook-processes-')), 'engine.db')}`;
  const client = JSON.parse((await runCli(['clients', 'create', '--name', 'hooks', '--database-url', databaseUrl])).stdout);
  const added = await runCli(['webhooks', 'add', '--client', client.client_id, '--url', `${receiver.origin}/both`, '--database-url', databaseUrl], undefined, {
    ENGINE_SECRET: SECRET,
  });
  expect(added.code).toBe(0);
  const env = {
    ENGINE_DATABASE_URL: databaseUrl,
    ENGINE_SECRET: SECRET,
    ENGINE_UPSTREAM_HUBSPOT: sandbox.upstreams.hubspot!.base_url,
    ENGINE_ALLOW_ORIGINS_WEBHOOKS: receiver.origin,
    // Both processes look for due deliveries all the time, so they race for every one.
    ENGINE_WEBHOOK_POLL_SECONDS: '0.2',
  };
  const servers: ServeProcess[] = await Promise.all([startServe(env, ['--no-sync']), startServe(env, ['--no-sync'])]);
  const token = async (url: string) =>
    (await call({ url }, 'POST', '/v1/auth/token', { body: { client_id: client.client_id, client_secret: client.client_secret, external_user_id: 'u1' } })).body
      .access_token as string;
  const tokens = await Promise.all(servers.map((s) => token(s.url)));
  const created = await Promise.all(
    Array.from({ length: CONNECTORS }, async (_, i) => {
      const server = servers[i % 2]!;
      const answer = await call(server, 'POST', '/v1/integrations/connectors', {
        token: tokens[i % 2]!,
        body: { external_user_id: 'u1', connector_type: 'hubspot', credentials: sandbox.upstreams.hubspot!.credentials, check_credentials: false },
      });
      expect(answer.status).toBe(201);
      return answer.body.id as string;
    }),
  );
  const delivered = await waitFor(
    async () => {
      const answer = await call(servers[0]!, 'GET', '/v1/webhooks/deliveries?status=delivered&limit=100', { token: tokens[0]! });
      return answer.body.data.length === CONNECTORS ? answer.body.data : undefined;
    },
    { what: 'every delivery to be delivered', timeoutMs: 30_000 },
  );
  expect(delivered.map((d: any) => d.attempts)).toEqual(Array(CONNECTORS).fill(1));
  const got = receiver.received.filter((r) => r.path === '/both');
  expect(got.map((r) => r.event.data.connector_id).sort()).toEqual([...created].sort());
  expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(CONNECTORS);
}, 90_000);

/**
 * The hosted MCP endpoint on PostgreSQL when a tool's database session ends under it: the agent
 * gets a tool error with the typed, retryable SERVICE_UNAVAILABLE (not INTERNAL, which reads as a
 * bug not worth retrying), and the same tool answers when called again.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHostedService, syncOnce, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { call } from '../support/http-call.js';
import { callJson, mcpClient } from '../support/mcp.js';
import { endSessionsWaitingOn, startPostgres, type PostgresCluster } from '../support/postgres.js';

const SECRET = 'mcp-database-down-secret-0123456789';

let sandbox: Sandbox;
let cluster: PostgresCluster;
let service: HostedService;
let databaseUrl: string;
let client: Client;
let tool: string;

beforeAll(async () => {
  [sandbox, cluster] = await Promise.all([startSandbox({ rateLimits: false, records: 40 }), startPostgres()]);
  databaseUrl = await cluster.createDatabase();
  const hubspot = sandbox.upstreams.hubspot!;
  service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: SECRET,
    upstreams: { hubspot: hubspot.base_url },
    allowOrigins: { hubspot: hubspot.allow_origins },
    logger: false,
    sync: { background: false },
  });
  const secret = 'ces_mcp_down_secret_value_0001';
  const platform = await service.store.createClient({ name: 'mcp-down', secretHash: await hashSecret(secret) });
  const token = (await call(service, 'POST', '/v1/auth/token', { body: { client_id: platform.client_id, client_secret: secret, external_user_id: 'agent' } }))
    .body.access_token as string;
  const created = await call(service, 'POST', '/v1/integrations/connectors', {
    token,
    body: { external_user_id: 'agent', connector_type: 'hubspot', credentials: hubspot.credentials, config: hubspot.config },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const synced = await syncOnce({ databaseUrl, connectorId: id, secret: SECRET, upstreams: { hubspot: hubspot.base_url } });
  expect(synced.ran && synced.states.every((state) => state.status === 'succeeded')).toBe(true);
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  client = (await mcpClient(transport)).client;
  tool = `hubspot-${id.slice('conn_'.length, 'conn_'.length + 6)}-contacts-search`;
}, 120_000);

afterAll(async () => {
  await client?.close();
  await service?.close();
  await sandbox?.close();
  await cluster?.stop();
});

test('a search tool whose session ends answers a tool error SERVICE_UNAVAILABLE (retryable); called again, it answers', async () => {
  const before = await callJson(client, tool, { query: {}, limit: 5 });
  expect(before.isError).toBe(false);
  expect(before.body.hits).toHaveLength(5);

  let answered: Promise<{ isError: boolean; body: any }> | undefined;
  await endSessionsWaitingOn(databaseUrl, 'search_records', () => {
    answered = callJson(client, tool, { query: {}, limit: 5 });
  });
  const failed = await answered;
  expect(failed).toEqual({
    isError: true,
    body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'the database session ended; retry the call', retryable: true } },
  });

  const again = await callJson(client, tool, { query: {}, limit: 5 });
  expect(again.isError).toBe(false);
  expect(again.body.hits).toEqual(before.body.hits);
});

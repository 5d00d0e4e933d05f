/**
 * The hosted MCP endpoint (POST /v1/mcp, streamable HTTP), driven by the official SDK's own
 * client with a scoped token, against the sandbox fakes: the tools of the token user's
 * connectors, list, get and search with the cursor, typed errors, a file, and tenancy (another
 * user's connectors are neither listed nor callable, and their upstream is never reached).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostedService, syncOnce, type HostedService } from '../../engine/hosted/index.js';
import { ANCHOR_ATTACHMENT_SIZE, expectedBlobBytes, startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { allPages, callJson, mcpClient } from '../support/mcp.js';
import { call, type HttpAnswer as Answer } from '../support/http-call.js';

const SECRET = 'mcp-hosted-test-secret-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'mcp-hosted-'));
const databaseUrl = `sqlite:${join(dir, 'engine.db')}`;

let sandbox: Sandbox;
let service: HostedService;
const platform: Record<'A' | 'B', { client_id: string; client_secret: string }> = {} as never;
/** Connector ids: user-1's HubSpot and Asana, user-2's HubSpot (all of platform client A). */
const ids = { hubspot1: '', asana1: '', hubspot2: '' };
const clients: Client[] = [];

async function tokenFor(client: 'A' | 'B', user: string): Promise<string> {
  const answer = await call(service, 'POST', '/v1/auth/token', { body: { ...platform[client], external_user_id: user } });
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

async function createConnector(user: string, type: 'hubspot' | 'asana'): Promise<string> {
  const info = sandbox.upstreams[type]!;
  const body = { external_user_id: user, connector_type: type, name: `${type} of ${user}`, credentials: info.credentials, config: info.config };
  const answer = await call(service, 'POST', '/v1/integrations/connectors', { token: await tokenFor('A', user), body });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

/** An SDK client on /v1/mcp with a bearer token. */
async function mcpAs(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const { client } = await mcpClient(transport);
  clients.push(client);
  return client;
}

/** The hosted API's own answer to the same request, for comparison. */
async function execute(token: string, id: string, body: Record<string, unknown>): Promise<Answer> {
  return call(service, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token, body });
}

/** The prefix of a connector's tools: its type and the first six characters of its id. */
const prefix = (type: string, id: string): string => `${type}-${id.slice('conn_'.length, 'conn_'.length + 6)}`;

function upstreamRequests(): number {
  return sandbox.fakes.hubspot.requests.length + sandbox.fakes.asana.requests.length;
}

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 60 });
  const entries = Object.entries(sandbox.upstreams);
  service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: SECRET,
    upstreams: Object.fromEntries(entries.map(([type, info]) => [type, info.base_url])),
    allowOrigins: Object.fromEntries(entries.map(([type, info]) => [type, info.allow_origins])),
    logger: false,
    sync: { background: false },
  });
  for (const name of ['A', 'B'] as const) {
    const secret = `ces_mcp_${name}_secret_value_0001`;
    const created = await service.store.createClient({ name, secretHash: await hashSecret(secret) });
    platform[name] = { client_id: created.client_id, client_secret: secret };
  }
  ids.hubspot1 = await createConnector('user-1', 'hubspot');
  ids.asana1 = await createConnector('user-1', 'asana');
  ids.hubspot2 = await createConnector('user-2', 'hubspot');
  // user-1's HubSpot copy is synced (so there is something another user could try to find); user-2's is not.
  const synced = await syncOnce({ databaseUrl, connectorId: ids.hubspot1, secret: SECRET, upstreams: { hubspot: sandbox.upstreams.hubspot!.base_url } });
  expect(synced.ran && synced.states.map((state) => state.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await service?.close();
  await sandbox?.close();
});

describe('POST /v1/mcp', () => {
  test("lists the tools of the token user's connectors, named by type and connector id", async () => {
    const client = await mcpAs(await tokenFor('A', 'user-1'));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const hubspot = prefix('hubspot', ids.hubspot1);
    const asana = prefix('asana', ids.asana1);
    expect(names.filter((name) => name.startsWith(`${hubspot}-`))).toEqual([
      `${hubspot}-entities`,
      `${hubspot}-describe`,
      ...['contacts', 'companies', 'deals'].flatMap((entity) => ['list', 'get', 'api_search', 'search'].map((action) => `${hubspot}-${entity}-${action}`)),
      ...['tickets-list', 'tickets-get', 'tickets-api_search', 'schemas-list', 'schemas-get', 'objects-list', 'objects-get'].map(
        (tool) => `${hubspot}-${tool}`,
      ),
    ]);
    expect(names.filter((name) => !name.startsWith(`${hubspot}-`) && !name.startsWith(`${asana}-`))).toEqual([]);
    expect(names).toContain(`${asana}-attachments-download`);
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    const entities = await callJson(client, `${hubspot}-entities`);
    expect(entities.body.connector).toBe(`HubSpot CRM connector "hubspot of user-1" (${ids.hubspot1})`);
  });

  test('list, get and search answer as the execute route does, 50 records at a time with the cursor', async () => {
    const token = await tokenFor('A', 'user-1');
    const client = await mcpAs(token);
    const tools = prefix('hubspot', ids.hubspot1);
    const listed = await execute(token, ids.hubspot1, { entity: 'contacts', action: 'list', params: { limit: 100 } });
    const pages = await allPages(client, `${tools}-contacts-list`, { limit: 100 });
    expect(pages.map((page) => page.data.length)).toEqual([50, listed.body.data.length - 50]);
    expect(pages.flatMap((page) => page.data)).toEqual(listed.body.data);
    expect(pages.map((page) => [page.meta.has_more, page.meta.next_cursor === null])).toEqual([
      [true, false],
      [false, true],
    ]);
    const id = listed.body.data[7].id as string;
    const got = await execute(token, ids.hubspot1, { entity: 'contacts', action: 'get', params: { contactId: id } });
    expect(await callJson(client, `${tools}-contacts-get`, { contactId: id })).toEqual({ isError: false, body: got.body });
    const query = { query: { sort: [{ 'properties.createdate': 'asc' }] }, fields: ['id', 'properties.email'] };
    const found = await execute(token, ids.hubspot1, { entity: 'contacts', action: 'search', params: { ...query, limit: 1000 } });
    const hits = await allPages(client, `${tools}-contacts-search`, query);
    expect(hits.map((page) => page.hits.length)).toEqual([50, found.body.hits.length - 50]);
    expect(hits.flatMap((page) => page.hits)).toEqual(found.body.hits);
  });

  test("an invalid param is a tool error with the engine's code, message and details", async () => {
    const token = await tokenFor('A', 'user-1');
    const client = await mcpAs(token);
    const refused = await execute(token, ids.hubspot1, { entity: 'contacts', action: 'list', params: { limit: 500 } });
    delete refused.body.error.request_id;
    expect(refused.body.error.details).toEqual([{ path: '/limit', message: 'must be <= 100' }]);
    expect(await callJson(client, `${prefix('hubspot', ids.hubspot1)}-contacts-list`, { limit: 500 })).toEqual({ isError: true, body: refused.body });
  });

  test('a file comes back as an embedded resource, cut at 256 KB; a byte range whole', async () => {
    const client = await mcpAs(await tokenFor('A', 'user-1'));
    const gid = sandbox.fakes.asana.anchors.attachments.asana;
    const tool = `${prefix('asana', ids.asana1)}-attachments-download`;
    const whole = await client.callTool({ name: tool, arguments: { attachment_gid: gid } });
    const [summary, file] = whole.content as [{ text: string }, { type: string; resource: { uri: string; mimeType: string; blob: string } }];
    expect(JSON.parse(summary.text)).toMatchObject({ status: 200, content_length: ANCHOR_ATTACHMENT_SIZE, bytes_returned: 256 * 1024, truncated: true });
    expect(file.type).toBe('resource');
    expect(Buffer.from(file.resource.blob, 'base64').equals(expectedBlobBytes(gid, 0, 256 * 1024 - 1))).toBe(true);
    const range = await client.callTool({ name: tool, arguments: { attachment_gid: gid, range_header: 'bytes=1000-1999' } });
    const [rangeSummary, rangeFile] = range.content as [{ text: string }, { resource: { blob: string } }];
    expect(JSON.parse(rangeSummary.text)).toMatchObject({ status: 206, bytes_returned: 1000, truncated: false });
    expect(Buffer.from(rangeFile.resource.blob, 'base64').equals(expectedBlobBytes(gid, 1000, 1999))).toBe(true);
  });

  test("tenancy: another user's connectors are neither listed nor callable, and their upstream is never reached", async () => {
    const other = await mcpAs(await tokenFor('A', 'user-2'));
    const names = (await other.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => !name.startsWith(`${prefix('hubspot', ids.hubspot2)}-`))).toEqual([]);
    const before = upstreamRequests();
    for (const name of [
      `${prefix('hubspot', ids.hubspot1)}-contacts-list`,
      `${prefix('hubspot', ids.hubspot1)}-contacts-search`,
      `${prefix('asana', ids.asana1)}-attachments-download`,
    ]) {
      await expect(other.callTool({ name, arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(`Unknown tool: ${name}`) });
    }
    expect(upstreamRequests()).toBe(before);
    // user-2's own copy was never synced: user-1's copy does not answer for it.
    const own = await callJson(other, `${prefix('hubspot', ids.hubspot2)}-contacts-search`, { query: {} });
    expect([own.isError, own.body.error.code]).toEqual([true, 'SEARCH_NOT_READY']);
    // The same external user id under another platform client is another tenant: no connectors.
    const foreign = await mcpAs(await tokenFor('B', 'user-1'));
    expect((await foreign.listTools()).tools).toEqual([]);
  });

  test('answers 401 without a token, and 405 to GET and DELETE', async () => {
    const init = {
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    };
    const anonymous = await fetch(`${service.url}/v1/mcp`, { method: 'POST', ...init });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as any).error.code).toBe('UNAUTHENTICATED');
    const token = await tokenFor('A', 'user-1');
    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(`${service.url}/v1/mcp`, { method, headers: { authorization: `Bearer ${token}` } });
      expect([answer.status, answer.headers.get('allow'), ((await answer.json()) as any).error.code]).toEqual([405, 'POST', 'METHOD_NOT_ALLOWED']);
    }
  });
});

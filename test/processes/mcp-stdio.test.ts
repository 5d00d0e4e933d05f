/**
 * The MCP server over stdio, driven by the official SDK's own client: the built CLI's
 * `connector-engine mcp hubspot --sandbox --store <file>`. Its answers are compared with the
 * library on a HubSpot fake of the same seed (the sandbox's data comes from its seed), and its
 * searches with the library reading the very copy the server's sync tool filled.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, findManifest, type Connection, type ListResult, type RecordResult } from '../../engine/index.js';
import { startHubspotFake, type HubspotFake } from '../../engine/sandbox/index.js';
import { CLI, runCli } from '../support/cli.js';
import { failure } from '../support/failure.js';
import { allPages, callJson, mcpClient } from '../support/mcp.js';

/** The sandbox's HubSpot fake as `--sandbox` starts it: same records and seed, so the same data. */
const SANDBOX_HUBSPOT = { host: '127.0.0.1', port: 0, records: 1200, seed: 42, rateLimits: false };
const manifest = findManifest('hubspot').manifest;

let fake: HubspotFake;
let library: Connection;
let server: { client: Client; errors: Error[] };
let stderr = '';
const dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-'));
const storeUrl = `sqlite:${join(dir, 'copy.db')}`;

beforeAll(async () => {
  fake = await startHubspotFake(SANDBOX_HUBSPOT);
  const info = fake.describe();
  library = connect<string>('hubspot', { credentials: info.credentials, baseUrl: info.base_url, store: storeUrl });
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', 'hubspot', '--sandbox', '--store', storeUrl], stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  server = await mcpClient(transport);
}, 90_000);

afterAll(async () => {
  await server?.client.close();
  await library?.close();
  await fake?.close();
});

const CONTACTS_HINTS = manifest.entities.contacts!.agent!;
/** HubSpot's action tools: contacts, companies and deals have a sync plan, so a search tool (with a store). */
const ACTION_TOOLS = [
  ...['contacts', 'companies', 'deals'].flatMap((entity) => ['list', 'get', 'api_search', 'search'].map((action) => `hubspot-${entity}-${action}`)),
  ...[
    'hubspot-tickets-list',
    'hubspot-tickets-get',
    'hubspot-tickets-api_search',
    'hubspot-schemas-list',
    'hubspot-schemas-get',
    'hubspot-objects-list',
    'hubspot-objects-get',
  ],
];

describe('mcp hubspot --sandbox --store', () => {
  test('lists one tool per entity and action, plus entities, describe and sync, described from the manifest', async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['hubspot-entities', 'hubspot-describe', ...ACTION_TOOLS, 'hubspot-sync']);
    const list = tools.find((tool) => tool.name === 'hubspot-contacts-list')!;
    expect(list.description).toBe(
      [
        'HubSpot CRM, contacts (CRM contacts): Lists records, one page at a time.',
        `When to use: ${CONTACTS_HINTS.when_to_use}`,
        `Example questions: ${CONTACTS_HINTS.example_questions!.map((q) => JSON.stringify(q)).join('; ')}.`,
        'Answers at most 50 records (64 KB of JSON) per call; when next_cursor is not null, call again with {"cursor": next_cursor} alone to read on.',
      ].join('\n'),
    );
    // HubSpot's own page param (after) gives way to the tool's cursor.
    expect(Object.keys(list.inputSchema.properties!)).toEqual(['limit', 'associations', 'properties', 'propertiesWithHistory', 'archived', 'cursor']);
    expect(list.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    const search = tools.find((tool) => tool.name === 'hubspot-contacts-search')!;
    expect(Object.keys(search.inputSchema.properties!)).toEqual(['query', 'limit', 'fields', 'cursor']);
    expect(search.inputSchema.required).toEqual(['query']);
    expect(server.client.getInstructions()).toContain('Start with hubspot-entities (HubSpot CRM)');
  });

  test('entities and describe tell each entity, its tools, params, record fields and searchable fields', async () => {
    const entities = await callJson(server.client, 'hubspot-entities');
    expect(entities.body.entities.map((e: { entity: string }) => e.entity)).toEqual(Object.keys(manifest.entities));
    expect(entities.body.entities[0]).toEqual({
      entity: 'contacts',
      description: 'CRM contacts.',
      when_to_use: CONTACTS_HINTS.when_to_use,
      tools: ['hubspot-contacts-list', 'hubspot-contacts-get', 'hubspot-contacts-api_search', 'hubspot-contacts-search'],
    });
    const described = await callJson(server.client, 'hubspot-describe', { entity: 'contacts' });
    const { tools } = await server.client.listTools();
    expect(described.body.agent_hints).toEqual(CONTACTS_HINTS);
    expect(Object.keys(described.body.record_fields)).toEqual(Object.keys(manifest.entities.contacts!.record.properties as object));
    expect(described.body.searchable_fields).toEqual(manifest.entities.contacts!.sync!.searchable);
    expect(described.body.actions.list.input_schema).toEqual(tools.find((tool) => tool.name === 'hubspot-contacts-list')!.inputSchema);
    expect(described.body.actions.list.rules).toEqual(['history-page-size: with propertiesWithHistory, limit can be at most 50']);
    const unknown = await callJson(server.client, 'hubspot-describe', { entity: 'leads' });
    expect(unknown.isError).toBe(true);
    expect(unknown.body.error.code).toBe('INVALID_PARAMS');
    expect(unknown.body.error.details).toEqual([
      {
        path: '/entity',
        message: `must be one of ${Object.keys(manifest.entities)
          .map((e) => JSON.stringify(e))
          .join(', ')}`,
      },
    ]);
  });

  test('list answers 50 records at a time and pages on with the cursor, inside an upstream page and into the next', async () => {
    const expected: unknown[] = [];
    for await (const record of library.records('contacts', 'list', { limit: 100 })) if (expected.push(record) === 150) break;
    const first = await callJson(server.client, 'hubspot-contacts-list', { limit: 100 });
    const second = await callJson(server.client, 'hubspot-contacts-list', { cursor: first.body.meta.next_cursor });
    const third = await callJson(server.client, 'hubspot-contacts-list', { cursor: second.body.meta.next_cursor });
    expect([first, second, third].map((page) => page.body.data.length)).toEqual([50, 50, 50]);
    // The first two come from one upstream page of 100, the third from the page after it.
    expect([...first.body.data, ...second.body.data, ...third.body.data]).toEqual(expected);
    expect([first, second, third].map((page) => page.body.meta.has_more)).toEqual([true, true, true]);
    const elsewhere = await callJson(server.client, 'hubspot-deals-list', { cursor: first.body.meta.next_cursor });
    expect(elsewhere).toEqual({
      isError: true,
      body: {
        error: {
          code: 'INVALID_PARAMS',
          message: 'cursor continues "hubspot-contacts-list", not hubspot-deals-list: pass it to the tool that returned it',
          retryable: false,
          details: [{ path: '/cursor', message: 'continues "hubspot-contacts-list", not hubspot-deals-list: pass it to the tool that returned it' }],
        },
      },
    });
  });

  test('get reads one record, as the library does', async () => {
    const page = (await library.execute('contacts', 'list', { limit: 3 })) as ListResult;
    const id = String(page.data[2]!.id);
    const expected = (await library.execute('contacts', 'get', { contactId: id })) as RecordResult;
    expect(await callJson(server.client, 'hubspot-contacts-get', { contactId: id })).toEqual({ isError: false, body: expected });
  });

  test("an invalid param is a tool error carrying the engine's error, as the library raises it", async () => {
    const expected = (await failure(library.execute('contacts', 'list', { limit: 'ten', colour: 'blue' }))).toJSON();
    expect(expected.error.code).toBe('INVALID_PARAMS');
    expect(await callJson(server.client, 'hubspot-contacts-list', { limit: 'ten', colour: 'blue' })).toEqual({ isError: true, body: expected });
    await expect(server.client.callTool({ name: 'hubspot-leads-list', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: hubspot-leads-list'),
    });
  });

  test('the sync tool fills the copy, and search pages through it with the cursor', async () => {
    const synced = await callJson(server.client, 'hubspot-sync', { entities: ['contacts'] });
    expect(synced.isError).toBe(false);
    expect(synced.body.entities.map((s: { entity: string; status: string; mode: string }) => [s.entity, s.status, s.mode])).toEqual([
      ['contacts', 'succeeded', 'full'],
    ]);
    const everything = await library.execute('contacts', 'search', { query: {}, limit: 10_000, fields: ['id'] });
    expect(synced.body.entities[0].records).toBe(everything.hits.length);
    const params = {
      query: { filter: { lt: { 'properties.hs_object_id': 1250 } }, sort: [{ 'properties.createdate': 'desc' }] },
      fields: ['id', 'properties.email', 'properties.createdate'],
    };
    const expected = await library.execute('contacts', 'search', { ...params, limit: 1000 });
    expect(expected.hits.length).toBeGreaterThan(100);
    const pages = await allPages(server.client, 'hubspot-contacts-search', params);
    expect(pages.map((page) => page.hits.length)).toEqual(
      expected.hits
        .map((_hit, i) => i)
        .filter((i) => i % 50 === 0)
        .map((i) => Math.min(50, expected.hits.length - i)),
    );
    expect(pages.flatMap((page) => page.hits)).toEqual(expected.hits);
    const wrong = await callJson(server.client, 'hubspot-sync', { entities: ['tickets'] });
    expect(wrong.isError).toBe(true);
    expect(wrong.body.error.details).toEqual([{ path: '/entities/0', message: 'must be one of "contacts", "companies", "deals"' }]);
  });

  test('stdout carried MCP only: the client read no line it could not parse', () => {
    expect(server.errors).toEqual([]);
    expect(stderr).not.toContain('access_token');
  });
});

describe('mcp hubspot --credentials (no store)', () => {
  test('serves the upstream with the credentials file, without search and sync tools', async () => {
    const info = fake.describe();
    const file = join(dir, 'hubspot.json');
    writeFileSync(file, JSON.stringify(info.credentials));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'hubspot', '--credentials', file, '--base-url', info.base_url],
      stderr: 'pipe',
    });
    const { client, errors } = await mcpClient(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(['hubspot-entities', 'hubspot-describe', ...ACTION_TOOLS.filter((name) => !name.endsWith('-search'))]);
      const expected = (await library.execute('contacts', 'list', { limit: 2 })) as ListResult;
      const page = await callJson(client, 'hubspot-contacts-list', { limit: 2 });
      expect(page.body.data).toEqual(expected.data);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test('writes JSON-RPC only to stdout, and exits 0 when the client closes stdin', async () => {
    const info = fake.describe();
    const file = join(dir, 'hubspot-raw.json');
    writeFileSync(file, JSON.stringify(info.credentials));
    const child = spawn(process.execPath, [CLI, 'mcp', 'hubspot', '--credentials', file, '--base-url', info.base_url], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    const send = (message: object) => child.stdin.write(JSON.stringify(message) + '\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const initialized = JSON.parse((await lines.next()).value as string);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hubspot-entities', arguments: {} } });
    const called = JSON.parse((await lines.next()).value as string);
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect([initialized.jsonrpc, initialized.id, initialized.result.serverInfo.name]).toEqual(['2.0', 1, 'connector-engine']);
    expect([called.jsonrpc, called.id, JSON.parse(called.result.content[0].text).type]).toEqual(['2.0', 2, 'hubspot']);
    expect(await lines.next()).toEqual({ done: true, value: undefined });
  });

  test('bad options are refused on stderr before anything starts, stdout left empty', async () => {
    const file = join(dir, 'token.json');
    writeFileSync(file, JSON.stringify({ access_token: 'pat-unused' }));
    const cases: Array<[string[], unknown]> = [
      [
        ['--credentials', '-'],
        {
          code: 'INVALID_REQUEST',
          message: '--credentials - would read stdin, which carries MCP here; name a file',
          retryable: false,
          details: [{ path: '--credentials', message: 'must be a file, not stdin' }],
        },
      ],
      [
        ['--credentials', file, '--config', '{"region": 1}'],
        {
          code: 'INVALID_CONFIG',
          message: 'invalid config for hubspot: /config/region must NOT have additional properties',
          retryable: false,
          details: [{ path: '/config/region', message: 'must NOT have additional properties' }],
        },
      ],
    ];
    for (const [flags, error] of cases) {
      const result = await runCli(['mcp', 'hubspot', ...flags]);
      expect([result.code, result.stdout, JSON.parse(result.stderr).error]).toEqual([1, '', error]);
    }
    const manifest = await runCli(['mcp', '--manifest', join(dir, 'absent.yaml'), '--credentials', file]);
    expect([manifest.code, manifest.stdout, JSON.parse(manifest.stderr).error.message]).toEqual([1, '', `--manifest: no file at ${join(dir, 'absent.yaml')}`]);
  });
});

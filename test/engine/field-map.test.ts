/**
 * Field mappings compiled at load (issue 15): an action's `fields` map each record exactly as
 * the manifest says (from, transform, default), reading every source from the record as the
 * upstream sent it, and an action without mappings returns the upstream's records as they are.
 * A small API served in this test sends records with every case (source present, missing, null,
 * unparsable), and the Asana fake's workspaces list (no mappings) is compared with a raw read.
 */
import got from 'got';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, parseManifest, type ListResult } from '../../engine/index.js';
import { startAsanaFake, type AsanaFake } from '../../engine/sandbox/index.js';

const TOKEN = 'mapped-token';

/** Three records: every source present; every source missing; sources null or unparsable. */
const ITEMS = [
  { id: 'a', name: 'Mixed Case', when: { at: '2024-01-02T03:04:05.000Z' }, count: '12', code: 'x1', tags: ['t'], old: 'a-old', other: 'a-other' },
  { id: 'b' },
  { id: 'c', name: null, when: { at: 'not a date' }, count: 'twelve', code: 7, old: null, other: 'c-other' },
];

const MANIFEST = `type: mapped
name: Mapped API
version: 0.1.0
base_url: https://api.mapped.example
hosts:
  api: [api.mapped.example]
auth:
  - name: token
    credentials: { type: object, required: [token], properties: { token: { type: string, writeOnly: true, description: API token. } } }
    sign: { type: bearer, token: "{{credentials.token}}" }
check: { entity: items, action: list, params: {} }
entities:
  items:
    record:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
        name_lower: { type: [string, "null"] }
        when_ms: { type: [integer, "null"] }
        count: { type: [number, "null"] }
        code: { type: string }
        tags: { type: array }
        old: { type: [string, "null"] }
        other: { type: string }
    actions:
      list:
        params: { type: object, additionalProperties: false, properties: {} }
        request: { method: GET, path: /items }
        response: { records: items }
        pagination: { type: none }
        fields:
          name_lower: { from: name, transform: lower }
          name: { transform: upper, default: unnamed }
          when_ms: { from: when.at, transform: epoch_ms, default: null }
          count: { transform: number, default: 0 }
          code: { transform: string }
          tags: { default: [] }
          old: { from: other }
          other: { from: old, default: none }
  raw_items:
    record: { type: object, properties: { id: { type: string } } }
    actions:
      list:
        params: { type: object, additionalProperties: false, properties: {} }
        request: { method: GET, path: /items }
        response: { records: items }
        pagination: { type: none }
`;

let server: Server;
let baseUrl: string;
let asanaFake: AsanaFake;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: ITEMS }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  asanaFake = await startAsanaFake({ records: 60, rateLimits: false });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await asanaFake.close();
});

const mapped = () => connect(parseManifest(MANIFEST, 'mapped.yaml'), { credentials: { token: TOKEN }, baseUrl, rateLimit: false });

describe('field mappings', () => {
  test('from, transform and default map every record, each source read as the upstream sent it', async () => {
    const result = (await mapped().execute('items', 'list')) as ListResult;
    expect(result.data).toEqual([
      {
        id: 'a',
        name: 'MIXED CASE',
        when: { at: '2024-01-02T03:04:05.000Z' },
        count: 12,
        code: 'x1',
        tags: ['t'],
        // old and other swap: each reads the other's upstream value, not the mapped one.
        old: 'a-other',
        other: 'a-old',
        name_lower: 'mixed case',
        when_ms: 1704164645000,
      },
      // Every source missing: defaults where the mapping has one, no field where it has none.
      { id: 'b', name: 'unnamed', when_ms: null, count: 0, tags: [], other: 'none' },
      // null sources take the default (none without one: null stays); unparsable dates and numbers
      // become null, then the default; code 7 becomes text.
      { id: 'c', name: 'unnamed', when: { at: 'not a date' }, count: 0, code: '7', old: 'c-other', other: 'none', name_lower: null, when_ms: null, tags: [] },
    ]);
    // Field order: the upstream's fields first, in its order, then the new ones in the mappings' order.
    expect(Object.keys(result.data[0] as object)).toEqual(['id', 'name', 'when', 'count', 'code', 'tags', 'old', 'other', 'name_lower', 'when_ms']);
    expect(Object.keys(result.data[1] as object)).toEqual(['id', 'name', 'when_ms', 'count', 'tags', 'other']);
  });

  test('records() maps every record the same way as execute', async () => {
    const read: unknown[] = [];
    for await (const record of mapped().records('items', 'list')) read.push(record);
    expect(read).toEqual(((await mapped().execute('items', 'list')) as ListResult).data);
  });

  test('an action without mappings returns the records exactly as the upstream sent them', async () => {
    const result = (await mapped().execute('raw_items', 'list')) as ListResult;
    expect(result.data).toEqual(ITEMS);
    expect(result.data.map((record) => Object.keys(record))).toEqual(ITEMS.map((record) => Object.keys(record)));
  });

  test('Asana workspaces list (no mappings) answers the fake’s records with the same values', async () => {
    const info = asanaFake.describe();
    const asana = connect('asana', { credentials: info.credentials, baseUrl: info.base_url, allowOrigins: info.allow_origins, rateLimit: false });
    const result = await asana.execute('workspaces', 'list', { limit: 100 });
    const raw = await got(`${info.base_url}/workspaces?limit=100`, { headers: { authorization: `Bearer ${String(info.credentials.token)}` } }).json<{
      data: unknown[];
    }>();
    expect(raw.data.length).toBeGreaterThan(0);
    expect(result.data).toEqual(raw.data);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, parseManifest } from '../../engine/index.js';
import { MINIMAL_MANIFEST } from '../fixtures/minimal-manifest.js';

// A tiny upstream whose page tokens are whatever the test tells it, to reach the loop guard.
let server: Server;
let baseUrl: string;
let tokens: Array<string | null> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('cursor')?.replace('t', '') ?? 0);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: `r${page}` }], next: tokens[page] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const demo = parseManifest(MINIMAL_MANIFEST, 'demo.yaml');

test('records() follows tokens and stops on the last page', async () => {
  tokens = ['t1', 't2', null];
  const ids: string[] = [];
  for await (const r of connect(demo, { credentials: { token: 'abcd' }, baseUrl }).records('items', 'list')) ids.push(r.id as string);
  expect(ids).toEqual(['r0', 'r1', 'r2']);
});

test('a repeated page token fails loudly with PAGINATION_LOOP', async () => {
  tokens = ['t1', 't2', 't1'];
  const ids: string[] = [];
  const error = await (async () => {
    for await (const r of connect(demo, { credentials: { token: 'abcd' }, baseUrl }).records('items', 'list')) ids.push(r.id as string);
  })().catch((e) => e);
  expect(error.code).toBe('PAGINATION_LOOP');
  expect(error.message).toContain('"t1"');
  expect(ids).toEqual(['r0', 'r1', 'r2']);
});

test('an answer without the records array is UPSTREAM_ERROR', async () => {
  const broken = parseManifest(MINIMAL_MANIFEST.replace('response: { records: data }', 'response: { records: items }'), 'demo.yaml');
  const error = await connect(broken, { credentials: { token: 'abcd' }, baseUrl })
    .execute('items', 'list')
    .catch((e) => e);
  expect(error.code).toBe('UPSTREAM_ERROR');
  expect(error.message).toContain('without an array of records at "items"');
});

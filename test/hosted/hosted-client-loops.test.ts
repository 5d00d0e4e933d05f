/**
 * The hosted client reads every page through the service one call at a time, so it must notice
 * on its own an upstream that would make that read endless: one that ignores the page cursor and
 * answers the same page under a new cursor, and one that hands back a cursor it already gave.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, PaginationLoopError } from '../../engine/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { hashSecret } from '../../engine/store/index.js';

/**
 * How the upstream goes wrong: `ignores-cursor` answers the first page under a new cursor every
 * time; `repeats-cursor` answers different pages (the records alternate in order) but always the
 * same cursor.
 */
let mode: 'ignores-cursor' | 'repeats-cursor' = 'ignores-cursor';
/** Pages it serves before it stops giving a cursor: without loop detection a read ends here, with every page counted. */
const PAGES_BEFORE_THE_END = 30;
let usersRequests = 0;

const USERS = [
  { id: '101', emailAddress: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', active: true, created: '2020-01-01T00:00:00Z' },
  { id: '102', emailAddress: 'alan@example.com', firstName: 'Alan', lastName: 'Turing', active: true, created: '2020-01-02T00:00:00Z' },
];

function cursorFor(page: number): string {
  return mode === 'ignores-cursor' ? `c${page}` : 'always-the-same';
}

/** A Gong-like upstream that ignores `cursor`: every users page is the first one (API-NOTES C: records.cursor paging). */
function answer(path: string): unknown {
  if (path.startsWith('/v2/workspaces')) return { requestId: 'r-w', workspaces: [{ id: '1', name: 'Main', description: '' }] };
  usersRequests++;
  const more = usersRequests < PAGES_BEFORE_THE_END;
  return {
    requestId: `r-${usersRequests}`,
    records: { totalRecords: 1000, currentPageSize: USERS.length, currentPageNumber: usersRequests - 1, ...(more ? { cursor: cursorFor(usersRequests) } : {}) },
    users: mode === 'repeats-cursor' && usersRequests % 2 === 0 ? [...USERS].reverse() : USERS,
  };
}

let upstream: Server;
let service: HostedService;
const secret = 'ces_loop_client_secret_01';
let clientId: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answer(new URL(req.url ?? '/', 'http://x').pathname)));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  service = await startHostedService({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'loop-client-')), 'engine.db')}`,
    port: 0,
    secret: 'loop-client-test-secret',
    upstreams: { gong: origin },
    allowOrigins: { gong: [origin] },
    clientRateLimits: false,
    logger: false,
    sync: { background: false },
  });
  clientId = (await service.store.createClient({ name: 'loop tests', secretHash: await hashSecret(secret) })).client_id;
  const token = (await (
    await fetch(`${service.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: secret, external_user_id: 'user-1' }),
    })
  ).json()) as { access_token: string };
  const created = await fetch(`${service.url}/v1/integrations/connectors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
    body: JSON.stringify({ external_user_id: 'user-1', connector_type: 'gong', credentials: { access_key: 'key', access_key_secret: 'secret' } }),
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await service?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function readAll(): Promise<{ error: unknown; read: number }> {
  usersRequests = 0;
  const gong = connect('gong', { hosted: { baseUrl: service.url, externalUserId: 'user-1', clientId, clientSecret: secret } });
  let read = 0;
  try {
    for await (const user of gong.records('users', 'list')) {
      expect(user.id).toMatch(/^10[12]$/);
      read++;
    }
    return { error: undefined, read };
  } catch (error) {
    return { error, read };
  }
}

test('the same page again under a new cursor stops the read after one page, naming the cursor', async () => {
  mode = 'ignores-cursor';
  const { error, read } = await readAll();
  expect(error).toBeInstanceOf(PaginationLoopError);
  expect((error as PaginationLoopError).message).toBe(
    'gong users list: the upstream answered the same page again for cursor "c1"; stopping instead of looping',
  );
  expect(read).toBe(2);
  expect(usersRequests).toBe(2);
});

test('a cursor given twice stops the read before that page is asked for again', async () => {
  mode = 'repeats-cursor';
  const { error, read } = await readAll();
  expect(error).toBeInstanceOf(PaginationLoopError);
  expect((error as PaginationLoopError).message).toBe('gong users list: the service repeated page token "always-the-same"; stopping instead of looping');
  expect(read).toBe(4);
  expect(usersRequests).toBe(2);
});

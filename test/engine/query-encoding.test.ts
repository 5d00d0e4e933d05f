/**
 * The query of an upstream request is written exactly as URLSearchParams serializes it (the form
 * encoding), whatever the param values hold: the engine builds it as text, without going through
 * `url.searchParams`, so the raw query an upstream receives is compared here with what
 * URLSearchParams makes of the same values.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect } from '../../engine/index.js';

let server: Server;
let baseUrl: string;
/** The request targets (path and query, as sent) the upstream received. */
const targets: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    targets.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const VALUES = [
  'plain',
  " !'()*-._~",
  'a+b&c=d%e#f?g/h;i,j:k@l$m[n]o{p}q|r\\s^t`u"v<w>x',
  'José Núñez, 美咲 佐藤 🙂',
  'tab\tnew\nline\u0000nul',
  'lone \uD800 surrogate and \uDC00 its mate',
];

test.each(VALUES)('a param value %j reaches the upstream encoded as URLSearchParams encodes it', async (value) => {
  const connection = connect('hubspot', { credentials: { access_token: 'query-encoding-token' }, baseUrl });
  await connection.execute('contacts', 'list', { limit: 3, after: value, properties: `email,${value}` });
  const target = targets.at(-1)!;
  const expected = new URLSearchParams([
    ['limit', '3'],
    ['after', value],
    ['properties', `email,${value}`],
  ]).toString();
  expect(target).toBe(`/crm/v3/objects/contacts?${expected}`);
});

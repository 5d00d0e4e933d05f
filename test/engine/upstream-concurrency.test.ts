/**
 * The manifest's `http.concurrency` caps a connection's requests in flight upstream, and
 * `rateLimit: false` (serve and sandbox with --no-rate-limits, benchmarks) drops that cap with the
 * rate limit. A small API served in this test holds every request it receives and counts how many
 * it holds at once; the test decides when they are answered, so no timing is involved.
 */
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { connect, parseManifest, type Connection, type ConnectOptions } from '../../engine/index.js';

const TOKEN = 'held-token';
const CAP = 3;
const CALLS = 2 * CAP;

const MANIFEST = `type: held
name: Held API
version: 0.1.0
base_url: https://api.held.example
hosts:
  api: [api.held.example]
auth:
  - name: token
    credentials: { type: object, required: [token], properties: { token: { type: string, writeOnly: true, description: API token. } } }
    sign: { type: bearer, token: "{{credentials.token}}" }
check: { entity: items, action: list, params: {} }
http:
  concurrency: ${CAP}
entities:
  items:
    record: { type: object, properties: { id: { type: string } } }
    actions:
      list:
        params: { type: object, additionalProperties: false, properties: {} }
        request: { method: GET, path: /items }
        response: { records: items }
        pagination: { type: none }
`;

/** Told each time a request arrives, with how many the server holds: answer them all, or hold on. */
type Release = (heldCount: number) => 'all' | 'none';

let server: Server;
let baseUrl: string;
let held: ServerResponse[] = [];
let maxHeld = 0;
let release: Release = () => 'all';

const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ id: 'a' }] }));

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
    held.push(res);
    maxHeld = Math.max(maxHeld, held.length);
    if (release(held.length) === 'all') held.splice(0).forEach(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  held.splice(0).forEach(answer);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  held = [];
  maxHeld = 0;
});

/**
 * Starts CALLS lists on one connection at once and waits for them all; `releaseFor` says, given
 * the connection (to read its counters), when the server answers.
 */
async function listAtOnce(options: Partial<ConnectOptions>, releaseFor: (connection: Connection) => Release): Promise<void> {
  const connection = connect(parseManifest(MANIFEST, 'held.yaml'), { credentials: { token: TOKEN }, baseUrl, ...options });
  release = releaseFor(connection);
  try {
    const results = await Promise.all(Array.from({ length: CALLS }, () => connection.execute('items', 'list')));
    expect(results.map((result) => result.data)).toEqual(Array.from({ length: CALLS }, () => [{ id: 'a' }]));
  } finally {
    await connection.close();
  }
}

type Stats = Connection['stats'];

describe("the manifest's concurrency cap", () => {
  test('holds a connection to that many requests in flight upstream', async () => {
    // Nothing is answered until CAP requests have arrived; then the client's counters say every
    // call reached it but only CAP were sent (the others wait for a turn), and from then on the
    // server answers at once, so the waiting calls go.
    let atCap: Stats | undefined;
    await listAtOnce({}, (connection) => (count) => {
      if (count === CAP) atCap ??= { ...connection.stats };
      return atCap ? 'all' : 'none';
    });
    expect(atCap).toMatchObject({ requests: CALLS, attempts: CAP, inFlight: CAP });
    expect(maxHeld).toBe(CAP);
  });

  test('is off with rateLimit: false: every call is in flight upstream at once', async () => {
    // Nothing is answered until every call has arrived: with the cap still on, the calls past it
    // would wait for a turn that never comes (and fail at their deadline).
    let atAll: Stats | undefined;
    await listAtOnce({ rateLimit: false, deadlineMs: 5_000 }, (connection) => (count) => {
      if (count < CALLS) return 'none';
      atAll = { ...connection.stats };
      return 'all';
    });
    expect(atAll).toMatchObject({ requests: CALLS, attempts: CALLS, inFlight: CALLS });
    expect(maxHeld).toBe(CALLS);
  });
});

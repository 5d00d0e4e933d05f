import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseManifest, type LoadedManifest } from '../../engine/index.js';

export const HELD_TOKEN = 'held-token';

/** Told each time a request arrives, with how many the server holds: answer them all, or hold on. */
export type Release = (heldCount: number) => 'all' | 'none';

/**
 * A small API on loopback that holds every request it receives until the test says, and counts
 * how many it holds at once: tests of what a connection keeps in flight decide when answers come,
 * so no timing is involved. Its connector lists `items` (one record) with a bearer token.
 */
export interface HeldApi {
  baseUrl: string;
  manifest: LoadedManifest;
  /** Requests held now. */
  readonly heldCount: number;
  /** The most held at once since the last `reset`. */
  readonly maxHeld: number;
  /** When to answer from now on (answers every request at once by default). */
  setRelease(release: Release): void;
  /** Answers every request held now. */
  answerAll(): void;
  reset(): void;
  close(): Promise<void>;
}

function heldManifest(concurrency: number): LoadedManifest {
  const yaml = `type: held
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
  concurrency: ${concurrency}
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
  return parseManifest(yaml, 'held.yaml');
}

const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items: [{ id: 'a' }] }));

/** Starts the held API; its manifest caps a connection at `concurrency` requests in flight. */
export async function startHeldApi(concurrency: number): Promise<HeldApi> {
  let held: ServerResponse[] = [];
  let maxHeld = 0;
  let release: Release = () => 'all';
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${HELD_TOKEN}`) return res.writeHead(401).end();
    held.push(res);
    maxHeld = Math.max(maxHeld, held.length);
    if (release(held.length) === 'all') held.splice(0).forEach(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    manifest: heldManifest(concurrency),
    get heldCount() {
      return held.length;
    },
    get maxHeld() {
      return maxHeld;
    },
    setRelease: (next) => (release = next),
    answerAll: () => held.splice(0).forEach(answer),
    reset: () => {
      held = [];
      maxHeld = 0;
      release = () => 'all';
    },
    close: async () => {
      held.splice(0).forEach(answer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

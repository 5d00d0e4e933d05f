/**
 * A webhook receiver on loopback for the webhook tests: it records every request (path, headers,
 * raw body) and answers each path with scripted statuses (then 200), or always with one status.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, with the raw body as sent (the signature covers those bytes). */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed. */
  event: { id: string; type: string; created_at: string; data: Record<string, any> };
}

export interface WebhookReceiver {
  /** Its origin, e.g. http://127.0.0.1:PORT: what the service is told it may reach. */
  origin: string;
  received: ReceivedWebhook[];
  /** Answers the next requests to `path` with these statuses, in order, then 200. */
  script(path: string, statuses: number[]): void;
  /** Answers every request to `path` with `status`. */
  always(path: string, status: number): void;
  /** Resolves with the first request (already received or to come) that matches. */
  next(match: (request: ReceivedWebhook) => boolean): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, number[]>();
  const fixed = new Map<string, number>();
  const waiters: Array<{ match: (request: ReceivedWebhook) => boolean; resolve: (request: ReceivedWebhook) => void }> = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      const entry: ReceivedWebhook = { path, headers: request.headers, body, event: JSON.parse(body) };
      received.push(entry);
      const status = fixed.get(path) ?? scripts.get(path)?.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      for (const waiter of waiters.filter((w) => w.match(entry))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    script: (path, statuses) => scripts.set(path, [...statuses]),
    always: (path, status) => fixed.set(path, status),
    next: (match) => {
      const seen = received.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

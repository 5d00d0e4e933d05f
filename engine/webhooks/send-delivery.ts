import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Clock } from '../clock/index.js';
import { EngineError } from '../errors.js';

/** One attempt's request. */
export interface DeliveryRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt, connect to status line, ends after this long. */
  timeoutMs: number;
  clock: Clock;
  /** The egress policy's connect-time address check (absent for operator-allowed origins). */
  lookup?: LookupFunction;
}

/** What an attempt got: the status code when the receiver answered, else why not (never the URL: it may hold a token). */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** A short, secret-free reason for a failed request (an egress refusal names host, port and rule only). */
function reasonOf(error: unknown): string {
  if (error instanceof EngineError) return `${error.code}: ${error.message}`.slice(0, 300);
  const { code, message } = error as NodeJS.ErrnoException;
  return typeof code === 'string' ? `connection failed (${code})` : `connection failed (${String(message).slice(0, 120)})`;
}

/**
 * POSTs one delivery and settles with the status code as soon as the status line arrives: the
 * answer's body is never read (the socket is closed at once), redirects are not followed (a 3xx
 * is a failed attempt), and a receiver that is slow, resets or sends garbage ends the attempt at
 * the latest after `timeoutMs`, so a hostile receiver cannot hold a worker.
 */
export function sendDelivery(request: DeliveryRequest): Promise<AttemptResult> {
  const transport = request.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      outgoing.destroy();
      resolve(result);
    };
    const timer = request.clock.setTimer(() => finish({ statusCode: null, error: `no answer within ${request.timeoutMs} ms` }), request.timeoutMs);
    const outgoing = transport.request(request.url, {
      method: 'POST',
      agent: false,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      ...(request.lookup ? { lookup: request.lookup } : {}),
    });
    outgoing.on('response', (answer) => {
      answer.destroy();
      finish({ statusCode: answer.statusCode ?? null, error: null });
    });
    outgoing.on('error', (error) => finish({ statusCode: null, error: reasonOf(error) }));
    outgoing.end(request.body);
  });
}

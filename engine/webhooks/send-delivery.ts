import { request as undiciRequest, type Dispatcher } from 'undici';
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
  /** The egress policy's dispatcher: its connections refuse non-public addresses unless the operator allowed the origin. */
  dispatcher: Dispatcher;
  /** Turns a connect-time address refusal into the egress policy's typed error. */
  refusal?: (error: unknown) => EngineError | undefined;
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
 * answer's body is never read (it is destroyed at once), redirects are not followed (a 3xx is a
 * failed attempt), and a receiver that is slow, resets or sends garbage ends the attempt at the
 * latest after `timeoutMs`, so a hostile receiver cannot hold a worker.
 */
export async function sendDelivery(request: DeliveryRequest): Promise<AttemptResult> {
  const controller = new AbortController();
  const timer = request.clock.setTimer(() => controller.abort(), request.timeoutMs);
  try {
    const answer = await undiciRequest(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      body: request.body,
      dispatcher: request.dispatcher,
      signal: controller.signal,
    });
    // undici reports an unread body destroyed as an error; nothing here wants it.
    answer.body.on('error', () => undefined);
    answer.body.destroy();
    return { statusCode: answer.statusCode, error: null };
  } catch (error) {
    if (controller.signal.aborted) return { statusCode: null, error: `no answer within ${request.timeoutMs} ms` };
    return { statusCode: null, error: reasonOf(request.refusal?.(error) ?? error) };
  } finally {
    timer.cancel();
  }
}

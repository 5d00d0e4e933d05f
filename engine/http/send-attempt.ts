import { request, type Dispatcher } from 'undici';
import { ACCEPT_ENCODING, bodyText } from './decoded-body.js';
import { USER_AGENT, withClientHeaders } from './user-agent.js';

const API_DEFAULTS = { 'accept-encoding': ACCEPT_ENCODING, 'user-agent': USER_AGENT };

/** The HTTP methods a manifest may use, plus the reads a retry rule may name. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** One attempt's answer, whatever its status, with the body read as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** What one attempt sends. */
export interface AttemptRequest {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** An attempt that outlived the connector's timeout_ms (got's `timeout.request`, same code). */
export class AttemptTimeout extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/**
 * Sends one attempt through undici and reads its whole answer. It fails with AttemptTimeout when
 * the attempt (connect, headers and body) takes longer than `timeoutMs`, and with the signal's
 * reason when `signal` (the call's deadline) aborts first. Why a timer of its own: undici's
 * headers and body timeouts measure idle gaps, not the attempt.
 */
export async function sendAttempt(attempt: AttemptRequest, dispatcher: Dispatcher, signal: AbortSignal | undefined, timeoutMs: number): Promise<RawAnswer> {
  if (signal?.aborted) throw signal.reason;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort);
  const timer = setTimeout(() => controller.abort(new AttemptTimeout(timeoutMs)), timeoutMs);
  try {
    const response = await request(attempt.url, {
      method: attempt.method,
      headers: withClientHeaders(attempt.headers, API_DEFAULTS),
      body: attempt.body ?? null,
      dispatcher,
      signal: controller.signal,
    });
    const text = await bodyText(response.body, response.headers['content-encoding']);
    return { status: response.statusCode, headers: response.headers, text };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

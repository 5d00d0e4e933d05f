import type { Dispatcher } from 'undici';
import { AnswerReader } from './answer-reader.js';
import { ACCEPT_ENCODING, bodyText } from './decoded-body.js';
import type { UpstreamCall } from './upstream-call.js';
import { USER_AGENT } from './user-agent.js';

/**
 * The headers every API request carries unless it sets its own: the encodings the engine decodes
 * (got asked for them, and they stayed when moving to undici) and its User-Agent. The caller
 * puts them under the request's own headers (all lower-case: manifest and signer header names
 * are lower-cased at load), once per call.
 */
export const API_HEADER_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({ 'accept-encoding': ACCEPT_ENCODING, 'user-agent': USER_AGENT });

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
  /** Sent as they are: the client's defaults are already in (API_HEADER_DEFAULTS, withClientHeaders). */
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
 * the attempt (connect, headers and body) takes longer than `timeoutMs`, and with the call's
 * UPSTREAM_TIMEOUT when the call's deadline passes first; either aborts the request. Why a timer
 * of its own: undici's headers and body timeouts measure idle gaps, not the attempt. The timer is
 * only set when it could fire before the deadline, which aborts the attempt anyway (the
 * manifests' 30 s timeout and the 30 s default deadline: it never could).
 */
export async function sendAttempt(attempt: AttemptRequest, dispatcher: Dispatcher, call: UpstreamCall | undefined, timeoutMs: number): Promise<RawAnswer> {
  if (call?.deadlineError) throw call.deadlineError;
  const reader = new AnswerReader();
  const onDeadline = (reason: Error) => reader.abort(reason);
  call?.onDeadline(onDeadline);
  const timer = call === undefined || timeoutMs < call.remaining() ? setTimeout(() => reader.abort(new AttemptTimeout(timeoutMs)), timeoutMs) : undefined;
  try {
    const { url } = attempt;
    // The dispatcher's own dispatch, with a handler that gathers the answer's bytes (AnswerReader).
    dispatcher.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method: attempt.method, headers: attempt.headers, body: attempt.body ?? null },
      reader,
    );
    const answer = await reader.promise;
    const text = bodyText(answer.bytes, answer.headers['content-encoding']);
    return { status: answer.status, headers: answer.headers, text: typeof text === 'string' ? text : await text };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    call?.offDeadline(onDeadline);
  }
}

import { errorFor, isErrorCode, type EngineError, type ErrorCode } from '../errors.js';
import type { HttpPolicy } from '../manifest/index.js';
import { readPath } from './body-path.js';
import { parseRetryAfter } from './retry-after.js';
import type { Redactor } from './redact.js';

/** A failed upstream answer, before it becomes a typed error. */
export interface FailedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function defaultCode(status: number): ErrorCode {
  if (status === 401) return 'REAUTH_REQUIRED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 408 || status === 504) return 'UPSTREAM_TIMEOUT';
  // The upstream judged the request itself invalid: the caller's values, so a 4xx, not a 502.
  if (status === 400 || status === 416 || status === 422) return 'UPSTREAM_REJECTED';
  return 'UPSTREAM_ERROR';
}

function stringAt(body: unknown, paths: string | string[] | undefined): string | undefined {
  for (const path of typeof paths === 'string' ? [paths] : (paths ?? [])) {
    const value = readPath(body, path);
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}

/**
 * Turns an upstream error answer into the engine's typed error: the manifest's error map first,
 * then the status, with the upstream message and request id read from the body shape the
 * manifest declares. Bodies that are not JSON (some 404s are empty or HTML) are tolerated.
 */
export function upstreamError(answer: FailedAnswer, policy: HttpPolicy, label: string, redact: Redactor): EngineError {
  const body = parseJson(answer.text);
  const shape = policy.error_body ?? {};
  const upstreamMessage = stringAt(body, shape.message) ?? (body === undefined ? answer.text.trim().slice(0, 200) : '');
  const headerId = policy.request_id_header ? answer.headers[policy.request_id_header.toLowerCase()] : undefined;
  const requestId = stringAt(body, shape.request_id) ?? (Array.isArray(headerId) ? headerId[0] : headerId);
  const mapped = policy.error_map?.find((entry) => entry.status === answer.status && (entry.path === undefined || stringAt(body, entry.path) === entry.equals));
  const code = mapped && isErrorCode(mapped.code) ? mapped.code : defaultCode(answer.status);
  const retryAfterMs = answer.status === 429 ? parseRetryAfter(answer.headers['retry-after']) : undefined;
  const message = redact(mapped?.message ?? `${label} answered ${answer.status}${upstreamMessage ? `: ${upstreamMessage}` : ''}`);
  return errorFor(code, message, {
    upstream: {
      status: answer.status,
      message: redact(upstreamMessage),
      ...(requestId ? { request_id: redact(requestId) } : {}),
    },
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(answer.status >= 500 ? { retryable: true } : {}),
  });
}

/**
 * Response values returned by fake route handlers, and their encoding to bytes.
 */
import { isJsonMediaType } from './request-body.js';

/** Header values a handler may set; numbers are sent as decimal strings. */
export type HeaderValue = string | number | string[];

/** What a handler answers. `body`: undefined (empty), string/Buffer (sent as is) or a JSON value. */
export interface FakeResponse {
  status: number;
  headers?: Record<string, HeaderValue>;
  body?: unknown;
}

/** A response ready for the wire, plus the form stored in the request log. */
export interface EncodedResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[]>;
  payload: Buffer;
  /** Parsed JSON when the Content-Type is JSON, otherwise the payload as text. */
  recordedBody: unknown;
}

/**
 * A JSON response.
 * Why: most upstream answers are JSON; the charset parameter matches what the real APIs send.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, HeaderValue> = {}): FakeResponse {
  return { status, headers: { 'content-type': 'application/json;charset=utf-8', ...headers }, body };
}

/**
 * A text response with the given media type.
 * Why: some upstream errors are HTML or plain text, and clients must cope with them.
 */
export function textResponse(status: number, text: string, contentType = 'text/plain;charset=utf-8', headers: Record<string, HeaderValue> = {}): FakeResponse {
  return { status, headers: { 'content-type': contentType, ...headers }, body: text };
}

/**
 * Returns a copy of `response` with extra headers (existing names are replaced, case-insensitively).
 * Why: fakes add per-upstream headers (correlation ids, rate-limit counters) after a handler ran.
 */
export function withHeaders(response: FakeResponse, extra: Record<string, HeaderValue>): FakeResponse {
  const headers: Record<string, HeaderValue> = {};
  const replaced = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (!replaced.has(name.toLowerCase())) headers[name] = value;
  }
  return { ...response, headers: { ...headers, ...extra } };
}

/**
 * Serializes a handler's response and computes Content-Length.
 * Why: one place decides how bodies become bytes, so the request log records exactly what was sent
 * and the truncation fault can cut a known payload.
 */
export function encodeResponse(response: FakeResponse): EncodedResponse {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value : String(value);
  }
  let payload: Buffer;
  const body = response.body;
  if (body === undefined) payload = Buffer.alloc(0);
  else if (Buffer.isBuffer(body)) payload = body;
  else if (typeof body === 'string') payload = Buffer.from(body, 'utf8');
  else {
    payload = Buffer.from(JSON.stringify(body), 'utf8');
    if (headers['content-type'] === undefined) headers['content-type'] = 'application/json;charset=utf-8';
  }
  headers['content-length'] = String(payload.length);
  const contentType = headers['content-type'];
  const text = payload.toString('utf8');
  let recordedBody: unknown = text;
  if (typeof contentType === 'string' && isJsonMediaType(contentType) && payload.length > 0) {
    try {
      recordedBody = JSON.parse(text) as unknown;
    } catch {
      recordedBody = text;
    }
  }
  return { status: response.status, headers, payload, recordedBody };
}

/**
 * The JSON body of Gong's POST list operations (`PublicApiBaseRequest*`: `{cursor, filter, ...}`).
 */
import type { FakeRequest } from '../fake-server.js';
import { isJsonMediaType } from '../request-body.js';
import type { FakeResponse } from '../responses.js';
import { malformed } from './errors.js';

/** A decoded body with its top-level cursor, or the 400 to answer. */
export type BodyOutcome = { ok: true; body: Record<string, unknown>; cursor: string | undefined } | { ok: false; response: FakeResponse };

/**
 * Requires a JSON object body (the spec declares `application/json` and `required: true`) and
 * reads its top-level `cursor` (C.2: POST endpoints take the cursor next to `filter`, never in the
 * query string). A cursor in the query of a POST is ignored, as an unknown parameter.
 */
export function readJsonBody(req: FakeRequest): BodyOutcome {
  const header = req.headers['content-type'];
  const contentType = Array.isArray(header) ? header[0] : header;
  if (req.rawBody.length === 0) return fail(req, 'A JSON request body is required');
  if (!isJsonMediaType(contentType)) return fail(req, `Content-Type must be application/json, got ${contentType ?? '(none)'}`);
  if (req.bodyParseError !== undefined) return fail(req, `The request body is not valid JSON: ${req.bodyParseError}`);
  const body = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(req, 'The request body must be a JSON object');
  const record = body as Record<string, unknown>;
  const cursor = record['cursor'];
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') return fail(req, 'cursor must be a string');
  return { ok: true, body: record, cursor: typeof cursor === 'string' ? cursor : undefined };
}

function fail(req: FakeRequest, reason: string): BodyOutcome {
  return { ok: false, response: malformed(req, reason) };
}

/**
 * The generic `…/{id}.json` handler (API-NOTES B.6: gets use the singular key).
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { notFound } from './errors.js';
import { requestedFields, selectFields } from './select-fields.js';

/**
 * The id of a `{id}.json` path segment, or undefined when the segment is not one.
 * Why: routes match `orders/:file`; `orders/abc.json` and `orders/12` are unknown paths (404).
 */
export function idOfSegment(segment: string | undefined): number | undefined {
  const match = segment ? /^(\d{1,16})\.json$/.exec(segment) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * Answers `{<singular>: record}` trimmed by `fields`, or 404 `{"errors":"Not Found"}`.
 * Why: B.6 and the checklist: "Unknown id -> 404 `{"errors":"Not Found"}`".
 */
export function getRecord(singular: string, record: Record<string, unknown> | undefined, req: FakeRequest): FakeResponse {
  if (!record) return notFound();
  return jsonResponse(200, { [singular]: selectFields(record, requestedFields(req.query)) });
}

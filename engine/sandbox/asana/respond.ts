/**
 * The `{data: ...}` envelope of every Asana answer (API-NOTES B2), with `opt_pretty`.
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';

/**
 * A 200 JSON answer; indented when `opt_pretty` is present and not `false` (the spec's
 * `opt_pretty` allows an empty value).
 * Why: B2: `opt_pretty=true` pretty-prints the response.
 */
export function asanaJson(req: FakeRequest, body: unknown, status = 200): FakeResponse {
  const pretty = lastParam(req.query, 'opt_pretty');
  if (pretty !== undefined && pretty !== 'false') return jsonResponse(status, JSON.stringify(body, null, 2));
  return jsonResponse(status, body);
}

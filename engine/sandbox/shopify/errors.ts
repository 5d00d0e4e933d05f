/**
 * Shopify REST error bodies (API-NOTES B.5): always `{"errors": <string | object>}`.
 */
import { STATUS_CODES } from 'node:http';
import { jsonResponse, type FakeResponse, type HeaderValue } from '../responses.js';

/**
 * Builds `{"errors": errors}` with `status`.
 * Why: B.5: "The body is always `{"errors": <string | object | array>}`", whatever the status.
 */
export function shopifyError(status: number, errors: unknown, headers: Record<string, HeaderValue> = {}): FakeResponse {
  return jsonResponse(status, { errors }, headers);
}

/**
 * 404 `{"errors":"Not Found"}`: unknown ids, unknown paths, unsupported API versions.
 * Why: B.5 gives this exact body; the fake also answers it for methods it does not serve, since it
 * only implements the read side.
 */
export function notFound(): FakeResponse {
  return shopifyError(404, 'Not Found');
}

/** The 401 text of B.5 (the exact wording is marked unverified there). */
export const INVALID_TOKEN_MESSAGE = '[API] Invalid API key or access token (unrecognized login or wrong password)';

/**
 * 401 for a missing, unknown, expired or revoked `X-Shopify-Access-Token`, or a token presented to
 * another store. Shopify documents no separate "expired" body, so every case answers the same.
 * Why: DESIGN.md §8: a token the fake did not issue gets the upstream's 401.
 */
export function invalidToken(): FakeResponse {
  return shopifyError(401, INVALID_TOKEN_MESSAGE);
}

/**
 * 400 `{"errors":{"<param>":["<message>"]}}` for a query parameter the fake rejects.
 * Why: B.5: validation errors use the object form (`{"errors":{"line_items":["must have at least
 * one line item"]}}`); the fake uses it for bad `limit`, ids, dates and enum values.
 */
export function invalidParam(name: string, message: string): FakeResponse {
  return shopifyError(400, { [name]: [message] });
}

/**
 * 400 for a request that adds a filter to `page_info`, with the text Shopify's clients report:
 * `"<param> cannot be passed when page_info is present. See https://shopify.dev/api/usage/pagination-rest for more information."`
 * Why: B.3: "A request that carries `page_info` may only add `limit` and `fields`" (observed
 * bodies: Shopify/shopify-api-js#755 for `status`, n8n-io/n8n#3963 for `title`).
 */
export function pageInfoConflict(param: string): FakeResponse {
  return shopifyError(400, `${param} cannot be passed when page_info is present. See https://shopify.dev/api/usage/pagination-rest for more information.`);
}

/**
 * 400 `{"errors":{"page_info":"Invalid value."}}` for a cursor the fake did not issue (or issued
 * for another endpoint). Why: the observed body (Shopify/shopify_python_api#544); B.3: cursors
 * are opaque and must be used exactly as given.
 */
export function invalidPageInfo(): FakeResponse {
  return shopifyError(400, { page_info: 'Invalid value.' });
}

/**
 * The body `failNext(count, status)` injects and a crashed handler answers: the status's reason
 * phrase as the error string, e.g. `{"errors":"Internal Server Error"}`, `{"errors":"Service Unavailable"}`.
 * Why: B.5: errors keep the `{"errors": …}` shape at every status, so clients map on the status.
 */
export function statusError(status: number): FakeResponse {
  return shopifyError(status, STATUS_CODES[status] ?? `HTTP ${status}`);
}

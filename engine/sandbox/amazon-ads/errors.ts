/**
 * Amazon Ads error bodies (API-NOTES A.2, A.6). Two generations coexist: the "universal" legacy
 * object `{code, details}` of v2 routes and profiles, and the v3 object `{code, message,
 * errors?}` of the generated v3 APIs; the LwA token host answers OAuth2 `{error, error_description}`.
 */
import { jsonResponse, type FakeResponse, type HeaderValue } from '../responses.js';

/** Which error shape a route answers with. */
export type ApiFamily = 'v3' | 'legacy' | 'lwa';

/**
 * The family of a request path: the v3 list operations (`/portfolios/list`, `/sp/...`), the LwA
 * token endpoint, or everything else (v2 routes, profiles, unknown paths).
 * Why: plumbing answers (faults, 404s, crashes) must use the shape of the route they replace.
 */
export function familyOf(path: string): ApiFamily {
  if (path === '/auth/o2/token') return 'lwa';
  if (path === '/portfolios/list' || path.startsWith('/sp/')) return 'v3';
  return 'legacy';
}

/** A.6 legacy body `{code, details}`. Why: v2 routes and `/v2/profiles` answer this way. */
export function legacyError(status: number, code: string, details: string, headers: Record<string, HeaderValue> = {}): FakeResponse {
  return jsonResponse(status, { code, details }, headers);
}

/** A.6 v3 body `{code, message}` (application/json, as the v3 documents declare for errors). */
export function v3Error(status: number, code: string, message: string, headers: Record<string, HeaderValue> = {}): FakeResponse {
  return jsonResponse(status, { code, message }, headers);
}

/** The error body of a family: `{code, message}` for v3, `{code, details}` otherwise. */
export function familyError(family: ApiFamily, status: number, code: string, text: string, headers: Record<string, HeaderValue> = {}): FakeResponse {
  return family === 'v3' ? v3Error(status, code, text, headers) : legacyError(status, code, text, headers);
}

/** The error selectors of a v3 400 that the fake emits (keys of `...AccessErrorSelector`). */
export type V3ErrorType = 'malformedValueError' | 'missingValueError' | 'rangeError' | 'invalidInputError';

/** One entry of a v3 400's `errors` array. */
export interface V3Problem {
  errorType: V3ErrorType;
  reason: string;
  message: string;
  /** JSON path of the offending request element, e.g. `$.stateFilter.include[0]`. */
  location: string;
  trigger?: string;
  allowed?: string[];
  lowerLimit?: string;
  upperLimit?: string;
}

/**
 * A v3 400 `{code: "INVALID_ARGUMENT", message, errors: [{errorType, errorValue: {<errorType>:
 * {message, reason, cause: {location, trigger}, ...}}}]}` (A.6; spec `CampaignAccessException`,
 * `PortfolioAccessException`).
 * Why: clients see which field was wrong, in the documented structure.
 */
export function invalidArgument(problems: V3Problem[]): FakeResponse {
  const errors = problems.map((problem) => {
    const detail: Record<string, unknown> = {
      message: problem.message,
      reason: problem.reason,
      cause: { location: problem.location, ...(problem.trigger !== undefined ? { trigger: problem.trigger } : {}) },
    };
    if (problem.allowed) detail['allowed'] = problem.allowed;
    if (problem.lowerLimit !== undefined) detail['lowerLimit'] = problem.lowerLimit;
    if (problem.upperLimit !== undefined) detail['upperLimit'] = problem.upperLimit;
    return { errorType: problem.errorType, errorValue: { [problem.errorType]: detail } };
  });
  return jsonResponse(400, { code: 'INVALID_ARGUMENT', message: problems.map((problem) => problem.message).join('; '), errors });
}

/** A.2 LwA error `{error, error_description}`. Why: the engine's token refresh maps these. */
export function lwaError(status: number, error: string, description: string, headers: Record<string, HeaderValue> = {}): FakeResponse {
  return jsonResponse(status, { error_description: description, error }, { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache', ...headers });
}

const STATUS_CODES: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Bad Request'],
  401: ['UNAUTHORIZED', 'Unauthorized'],
  403: ['ACCESS_DENIED', 'Forbidden'],
  404: ['NOT_FOUND', 'Not Found'],
  406: ['NOT_ACCEPTABLE', 'Not Acceptable'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type'],
  422: ['UNPROCESSABLE_ENTITY', 'Unprocessable Entity'],
  425: ['TOO_EARLY', 'Duplicate request'],
  429: ['THROTTLED', 'Too Many Requests'],
  500: ['INTERNAL_ERROR', 'Internal Server Error'],
  502: ['INTERNAL_ERROR', 'Bad Gateway'],
  503: ['INTERNAL_ERROR', 'Service Unavailable'],
  504: ['INTERNAL_ERROR', 'Gateway Timeout'],
};

/**
 * The body `failNext(count, status)` injects, and what a crashed handler answers: the route
 * family's shape with A.6's code for the status (5xx all say INTERNAL_ERROR, the only 5xx code
 * the v3 documents define); on the LwA host, `server_error` / `temporarily_unavailable` and the
 * OAuth2 codes.
 * Why: injected failures must look like the upstream's own.
 */
export function statusError(family: ApiFamily, status: number): FakeResponse {
  if (family === 'lwa') {
    if (status === 503) return lwaError(status, 'temporarily_unavailable', 'The service is temporarily unavailable.');
    if (status >= 500) return lwaError(status, 'server_error', 'An internal server error occurred.');
    if (status === 401) return lwaError(status, 'invalid_client', 'Client authentication failed');
    if (status === 429) return lwaError(status, 'slow_down', 'The request was throttled.');
    return lwaError(status, 'invalid_request', 'The request is invalid.');
  }
  const [code, text] = STATUS_CODES[status] ?? (status >= 500 ? ['INTERNAL_ERROR', 'Internal Server Error'] : [String(status), `HTTP ${status}`]);
  return familyError(family, status, code, text);
}

/**
 * A.6 429: `THROTTLED` in the family's shape, with an integer `Retry-After` in seconds when known.
 * Why: the docs promise the header on every throttled response; tests can inject one without it.
 */
export function throttled(family: ApiFamily, retryAfter: string | undefined): FakeResponse {
  const headers: Record<string, HeaderValue> = retryAfter !== undefined ? { 'Retry-After': retryAfter } : {};
  if (family === 'lwa') return lwaError(429, 'slow_down', 'The request was throttled.', headers);
  return familyError(family, 429, 'THROTTLED', 'Request was throttled. Retry after the number of seconds in the Retry-After header.', headers);
}

/**
 * HubSpot error bodies (API-NOTES A6). The spec's `Error` requires `message`, `correlationId`
 * (uuid) and `category`; real bodies add `"status":"error"`.
 */
import { jsonResponse, type FakeResponse, type HeaderValue } from '../responses.js';

/** A HubSpot-shaped error body. */
export interface HubspotErrorBody {
  status: string;
  message: string;
  correlationId: string;
  category: string;
  [extra: string]: unknown;
}

/**
 * Builds an error response `{status:"error", message, correlationId, category, ...extra}`.
 * Why: every HubSpot error the fake emits has the observed shape and validates against `Error`.
 */
export function hubspotError(
  status: number,
  category: string,
  message: string,
  correlationId: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, HeaderValue> = {},
): FakeResponse {
  const body: HubspotErrorBody = { status: 'error', message, correlationId, category, ...extra };
  return jsonResponse(status, body, headers);
}

/**
 * 400 VALIDATION_ERROR (A6 spec example, with its knowledge-base link).
 * Why: out-of-range limits, bad cursors and search limits all answer this way.
 */
export function validationError(message: string, correlationId: string): FakeResponse {
  return hubspotError(400, 'VALIDATION_ERROR', message, correlationId, {
    links: { 'knowledge-base': 'https://www.hubspot.com/products/service/knowledge-base' },
  });
}

/**
 * 401 for a missing or unknown token; exact message of A6 ([3p] hubspot-api-php #363).
 * Why: DESIGN.md §8: a token the fake did not issue gets the upstream's 401.
 */
export function invalidAuthentication(correlationId: string): FakeResponse {
  return hubspotError(
    401,
    'INVALID_AUTHENTICATION',
    'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
    correlationId,
  );
}

/**
 * 401 for an expired OAuth access token, with A6's message and `context["expire time"]`.
 * Why: clients must refresh on expiry (A2) and recognise this body when they did not.
 */
export function expiredAuthentication(correlationId: string, expiredAtMs: number, nowMs: number): FakeResponse {
  const ago = Math.max(0, Math.floor((nowMs - expiredAtMs) / 1000));
  return hubspotError(401, 'EXPIRED_AUTHENTICATION', `The OAuth token used to make this call expired ${ago} second(s) ago.`, correlationId, {
    context: { 'expire time': [new Date(expiredAtMs).toISOString()] },
  });
}

/**
 * 404 OBJECT_NOT_FOUND for an unknown record id, in the JSON error shape with the id in `context`.
 * Why: the live API answers GET by id this way ([3p] HubSpot/hubspot-api-nodejs #669, 2025: the
 * message word for word, two spaces included); the empty, type-less 404 of older reports (A6,
 * #194/#413) makes the official client fail with "Cannot parse content" instead of its typed 404.
 */
export function objectNotFound(objectId: string, correlationId: string): FakeResponse {
  return hubspotError(404, 'OBJECT_NOT_FOUND', 'Object not found.  objectId are usually numeric.', correlationId, {
    context: { id: [objectId] },
  });
}

/**
 * The error `failNext(count, status)` injects (and what a crashed handler answers): HubSpot's
 * body for that status: 403 is A6's MISSING_SCOPES body, other statuses get a category named
 * after them; 5xx say "internal error" or the gateway phrase.
 * Why: A6: HubSpot error bodies keep one shape whatever the status, and clients map on category.
 */
export function statusError(status: number, correlationId: string): FakeResponse {
  if (status === 403) {
    return hubspotError(
      403,
      'MISSING_SCOPES',
      "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
      correlationId,
      {
        errors: [{ message: 'One or more of the following scopes are required.', context: { requiredScopes: ['crm.objects.contacts.read'] } }],
        links: { scopes: 'https://developers.hubspot.com/scopes' },
      },
    );
  }
  const known: Record<number, [string, string]> = {
    400: ['VALIDATION_ERROR', 'There was a problem with the request.'],
    401: ['INVALID_AUTHENTICATION', 'Authentication credentials not found.'],
    404: ['OBJECT_NOT_FOUND', 'Resource not found'],
    409: ['CONFLICT', 'Conflict'],
    423: ['LOCKED', 'The record is locked; retry in a few seconds.'],
    502: ['INTERNAL_ERROR', 'Bad Gateway'],
    503: ['INTERNAL_ERROR', 'Service Unavailable'],
    504: ['INTERNAL_ERROR', 'Gateway Timeout'],
  };
  const [category, message] = known[status] ?? (status >= 500 ? ['INTERNAL_ERROR', 'internal error'] : ['ERROR', `HTTP ${status}`]);
  return hubspotError(status, category, message, correlationId);
}

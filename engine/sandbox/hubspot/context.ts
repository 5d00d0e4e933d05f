import type { FakeClock } from '../fake-clock.js';
/**
 * State shared by the HubSpot route handlers, and the auth + rate-limit gate in front of them.
 */
import type { FakeRequest } from '../fake-server.js';
import { withHeaders, type FakeResponse, type HeaderValue } from '../responses.js';
import { authenticate } from './authenticate.js';
import type { HubspotDataset } from './dataset.js';
import type { PropertyCatalog } from './property-catalog.js';
import type { HubspotRateLimits } from './rate-limits.js';
import type { HubspotCredentials } from './credentials.js';

/** What every HubSpot handler reads. */
export interface HubspotContext {
  data: HubspotDataset;
  credentials: HubspotCredentials;
  /** The fake's clock: token expiry and rate-limit windows. */
  clock: FakeClock;
  limits: HubspotRateLimits;
  /** The portal's property definitions now (custom ones, changed types): search filters and sorts by them. */
  catalog: PropertyCatalog;
}

/** A handler body that runs after the gate. */
export type GuardedHandler = (req: FakeRequest) => FakeResponse;

/**
 * Wraps an API handler: 401 unless the token was issued by the fake, then 429 when over the limit
 * (the burst limiter, or the search limiter for search), then the handler; the admitted request's
 * rate-limit headers are added to whatever the handler answers.
 * Why: A6/A7: auth is checked first, every counted response carries the limit headers.
 */
export function guarded(ctx: HubspotContext, limiter: 'burst' | 'search', handler: GuardedHandler): (req: FakeRequest) => FakeResponse {
  return (req) => {
    const auth = authenticate(req, ctx.credentials, ctx.clock.now());
    if (!auth.ok) return auth.response;
    const admission = limiter === 'search' ? ctx.limits.admitSearch(auth.scheme, req.requestId) : ctx.limits.admit(auth.scheme, req.requestId);
    if (!admission.allowed) return admission.response;
    const headers: Record<string, HeaderValue> = admission.headers;
    return Object.keys(headers).length > 0 ? withHeaders(handler(req), headers) : handler(req);
  };
}

/**
 * The checks in front of every Amazon Ads API route, in order (API-NOTES A.2, A.6): bearer
 * access token, `Amazon-Advertising-API-ClientId`, `Amazon-Advertising-API-Scope` (profile-scoped
 * routes only), then the throttle.
 */
import type { FakeHandler, FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { header, type AdsContext } from './context.js';
import { familyError, invalidArgument, legacyError, type ApiFamily } from './errors.js';
import { HOST_REGION, type AdsProfile } from './model.js';

/** How a route is guarded. */
export interface GateOptions {
  /** Error shape of the route: v3 `{code, message}` or legacy `{code, details}` (A.6). */
  family: Exclude<ApiFamily, 'lwa'>;
  /** A.2: every call but `GET /v2/profiles[/{id}]` needs the Scope header. */
  scoped: boolean;
  /** Throttle weight of a request (default 1). */
  weight?: (req: FakeRequest) => number;
}

/** A route body that runs once the gate let the request through; `profile` is the Scope's profile. */
export type GatedHandler = (req: FakeRequest, profile: AdsProfile | undefined) => FakeResponse;

/**
 * Wraps a handler with the gate. Answers, in this order:
 * - 401 UNAUTHORIZED without a bearer token, or with one the fake did not issue or that expired
 *   (A.2 "An expired access token gets an Unauthorized (401) response");
 * - 400 INVALID_ARGUMENT without `Amazon-Advertising-API-ClientId`, 401 UNAUTHORIZED when it is
 *   not the LwA client the token belongs to;
 * - scoped routes: 401 "Scope header is missing", 401 "No matching advertiser found for scope"
 *   for an unknown profile id, 401 "Not authorized to access scope <id>" for another region's
 *   profile (A.1: a profile from another region is refused with 4XX Unauthorized);
 * - 429 THROTTLED when the profile (or, unscoped, the client) is over its budget (A.6).
 * Why: DESIGN.md §8: credentials are checked as the real API does, so auth bugs cannot hide.
 */
export function gated(ctx: AdsContext, options: GateOptions, handler: GatedHandler): FakeHandler {
  const { family } = options;
  return (req) => {
    const token = bearerToken(req);
    if (!token) return familyError(family, 401, 'UNAUTHORIZED', 'Authorization header is missing');
    const status = ctx.grant.accessTokens.check(token);
    if (status.state === 'expired') return familyError(family, 401, 'UNAUTHORIZED', 'Access token is expired');
    if (status.state !== 'valid') return familyError(family, 401, 'UNAUTHORIZED', 'Access token is invalid');

    const clientId = header(req, 'amazon-advertising-api-clientid');
    if (!clientId) return missingClientId(family);
    if (clientId !== ctx.grant.clientId) {
      return familyError(family, 401, 'UNAUTHORIZED', 'The Amazon-Advertising-API-ClientId header does not match the client the access token was issued to');
    }

    let profile: AdsProfile | undefined;
    if (options.scoped) {
      const scope = header(req, 'amazon-advertising-api-scope');
      if (!scope) return familyError(family, 401, 'UNAUTHORIZED', 'Scope header is missing');
      const profileId = /^\d{1,16}$/.test(scope) ? Number(scope) : Number.NaN;
      profile = ctx.data.hostProfile(profileId);
      if (!profile) {
        const region = ctx.data.regionOf(profileId);
        return region !== undefined && region !== HOST_REGION
          ? familyError(family, 401, 'UNAUTHORIZED', `Not authorized to access scope ${scope}`)
          : familyError(family, 401, 'UNAUTHORIZED', 'No matching advertiser found for scope');
      }
    }

    const key = profile ? `profile:${profile.profileId}` : `client:${clientId}`;
    const decision = ctx.limits.admit(key, options.weight?.(req) ?? 1, family);
    if (!decision.allowed) return decision.response;
    return handler(req, profile);
  };
}

/**
 * The bearer token of a request, if its Authorization header has one.
 * Why: A.2: calls carry `Authorization: Bearer Atza|...`.
 */
export function bearerToken(req: FakeRequest): string | undefined {
  const value = header(req, 'authorization');
  const match = value ? /^Bearer\s+(\S+)$/i.exec(value) : null;
  return match?.[1];
}

function missingClientId(family: Exclude<ApiFamily, 'lwa'>): FakeResponse {
  const message = 'Amazon-Advertising-API-ClientId header is missing';
  if (family === 'legacy') return legacyError(400, 'INVALID_ARGUMENT', message);
  return invalidArgument([{ errorType: 'missingValueError', reason: 'MISSING_VALUE', message, location: '$.headers.Amazon-Advertising-API-ClientId' }]);
}

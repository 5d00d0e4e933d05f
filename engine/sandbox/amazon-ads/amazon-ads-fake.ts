/**
 * The Amazon Advertising API fake (API-NOTES part "A. Amazon Advertising API"): one server plays
 * the NA API host and the Login with Amazon token host.
 */
import { createHash } from 'node:crypto';
import { FakeServer, type FakeRequest, type RecordedRequest } from '../fake-server.js';
import type { Faults } from '../faults.js';
import { withHeaders } from '../responses.js';
import type { UpstreamInfo } from '../upstream-info.js';
import type { AdsContext } from './context.js';
import { amazonAdsGrant } from './credentials.js';
import type { ProfileCounts } from './dataset.js';
import { familyError, familyOf, legacyError, statusError, throttled } from './errors.js';
import { gated } from './gate.js';
import { listCampaigns } from './list-campaigns.js';
import { listPortfolios } from './list-portfolios.js';
import { routeLwaAuthorize } from './lwa-authorize.js';
import { lwaToken } from './lwa-token.js';
import { HOST_REGION, type AdsProfile, type AdsRegion, type CampaignRecord, type PortfolioRecord } from './model.js';
import { getProfile, listProfiles } from './profiles.js';
import { AdsRateLimits, EXTENDED_DATA_WEIGHT } from './rate-limits.js';
import { seedAmazonAdsData } from './seed-data.js';
import { getCampaignV2, getPortfolioV2 } from './v2-reads.js';

/** Options of {@link startAmazonAdsFake} (the sandbox's FakeStartOptions fit). */
export interface AmazonAdsFakeOptions {
  port?: number;
  host?: string;
  /** Scales the main profile: records/8 portfolios, records*5/24 campaigns; default 1200 (150 and 250). */
  records?: number;
  /** PRNG seed of records and credentials; default 42. */
  seed?: number;
  /** Per-profile throttling; default true. */
  rateLimits?: boolean;
  /** The fake's time in epoch ms (tokens, paging tokens, signed URLs, rate-limit windows); default real time. */
  now?: () => number;
}

/** Read access to the seeded account, for tests. */
export interface AmazonAdsData {
  /** The main seller profile (US), the one `describe()` configures. */
  readonly mainProfileId: number;
  /** Profiles of one region, or of all regions; the fake serves only NA. */
  profiles(region?: AdsRegion): AdsProfile[];
  regionOf(profileId: number): AdsRegion | undefined;
  /** Portfolios of a profile in id order (the order the v3 list pages them). */
  portfolios(profileId: number): readonly PortfolioRecord[];
  /** Campaigns of a profile in id order (the order the v3 list pages them). */
  campaigns(profileId: number): readonly CampaignRecord[];
  findPortfolio(profileId: number, portfolioId: number): PortfolioRecord | undefined;
  findCampaign(profileId: number, campaignId: number): CampaignRecord | undefined;
  /** Portfolio and campaign counts per profile id (as a string). */
  counts(): Record<string, ProfileCounts>;
}

/** Request counters of the fake. */
export interface AmazonAdsStats {
  /** Requests that reached `POST /auth/o2/token`. */
  readonly tokenRequests: number;
  /** Requests that reached an API route (any outcome, faults included). */
  readonly apiRequests: number;
}

/** A running Amazon Ads fake and its test hooks. */
export interface AmazonAdsFake {
  readonly type: 'amazon-ads';
  readonly baseUrl: string;
  /** Every exchange, oldest first. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  /** Fault switches; injected errors and 429s carry the route family's real bodies. */
  readonly faults: Faults;
  /** LwA client id (`amzn1.application-oa2-client.<hex>`), also the `Amazon-Advertising-API-ClientId`. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** `Atzr|...`; refreshing returns this same value. */
  readonly refreshToken: string;
  /** The main seller profile id (also `dataset.mainProfileId`). */
  readonly profileId: number;
  /** Issues an access token (`Atza|...`) the fake accepts for `ttlSeconds` (default 3600). */
  issueAccessToken(ttlSeconds?: number): string;
  /** Expires every access token issued so far. */
  expireAllAccessTokens(): void;
  /** Makes the refresh token invalid (`invalid_grant` from then on). */
  revokeRefreshToken(): void;
  /** Registers a redirect URI (an Allowed Return URL) with the LwA app; the consent page sends codes to registered URIs only. */
  allowRedirectUri(uri: string): void;
  readonly stats: AmazonAdsStats;
  resetStats(): void;
  /** Per-profile budget in weight units per rolling window (default 10 per 1000 ms; extended-data lists weigh 5). No effect with rate limits off. */
  setRateLimit(max: number, windowMs: number): void;
  /** Back to 10 per 1000 ms with empty windows. */
  resetRateLimits(): void;
  readonly dataset: AmazonAdsData;
  describe(): UpstreamInfo;
  close(): Promise<void>;
}

/**
 * Starts the Amazon Ads fake on a loopback port.
 * Why: the sandbox, the test suites and the benchmarks need a faithful, credential-checking
 * Amazon Ads API (and its LwA token host) without network access (DESIGN.md §8).
 */
export async function startAmazonAdsFake(options: AmazonAdsFakeOptions = {}): Promise<AmazonAdsFake> {
  const seed = options.seed ?? 42;
  const now = options.now ?? Date.now;
  const grant = amazonAdsGrant(seed, now);
  const limits = new AdsRateLimits(options.rateLimits ?? true, options.now);
  const data = seedAmazonAdsData(options.records ?? 1200, seed);
  const ctx: AdsContext = {
    data,
    grant,
    limits,
    tokenSecret: createHash('sha256').update(`amazon-ads-next-token:${seed}`).digest('hex'),
  };

  const server = new FakeServer('amazon-ads', {
    decorate: (req, response) => withHeaders(response, { 'x-amzn-RequestId': req.requestId }),
    serverError: (req, status) => statusError(familyOf(req.path), status),
    rateLimited: (req, retryAfter) => throttled(familyOf(req.path), retryAfter),
    // Observed (A.6 legacy shape): {"code":"NOT_FOUND","details":"Could not find resource for full path: <url>"}.
    notFound: (req) => legacyError(404, 'NOT_FOUND', `Could not find resource for full path: ${req.url.origin}${req.path}`),
    methodNotAllowed: (req, allowed) =>
      familyError(familyOf(req.path) === 'v3' ? 'v3' : 'legacy', 405, 'METHOD_NOT_ALLOWED', `HTTP 405 Method Not Allowed: ${req.method} ${req.path}`, {
        Allow: allowed.join(', '),
      }),
  });

  addAdsRoutes(server, ctx);

  const baseUrl = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const credentials = { client_id: grant.clientId, client_secret: grant.clientSecret, refresh_token: grant.refreshTokens.current };

  return {
    type: 'amazon-ads',
    baseUrl,
    requests: server.requests,
    clearRequests: () => server.clearRequests(),
    faults: server.faults,
    clientId: grant.clientId,
    clientSecret: grant.clientSecret,
    refreshToken: grant.refreshTokens.current,
    profileId: data.mainProfileId,
    issueAccessToken: (ttlSeconds) => grant.accessTokens.issue(ttlSeconds),
    expireAllAccessTokens: () => grant.accessTokens.expireAll(),
    revokeRefreshToken: () => grant.refreshTokens.revoke(),
    allowRedirectUri: (uri) => void grant.redirectUris.add(uri),
    stats: server.stats,
    resetStats: () => server.resetStats(),
    setRateLimit: (max, windowMs) => limits.setLimit(max, windowMs),
    resetRateLimits: () => limits.restoreDefaults(),
    dataset: data,
    describe: () => ({
      base_url: baseUrl,
      credentials: { ...credentials },
      credentials_by_scheme: { oauth: { ...credentials } },
      config: { region: HOST_REGION, profile_id: String(data.mainProfileId) },
      allow_origins: [],
    }),
    close: () => server.close(),
  };
}

/** The LwA token route and the Ads API routes, each behind its family's gate (scope header, weight). */
function addAdsRoutes(server: FakeServer, ctx: AdsContext): void {
  const listWeight = (req: FakeRequest): number => (wantsExtendedData(req.body) ? EXTENDED_DATA_WEIGHT : 1);
  const v3 = { family: 'v3', scoped: true, weight: listWeight } as const;
  const v2 = { family: 'legacy', scoped: true } as const;
  const profilesGate = { family: 'legacy', scoped: false } as const;

  server.route('POST', '/auth/o2/token', lwaToken(ctx.grant), 'auth');
  routeLwaAuthorize(server, ctx.grant);
  server.route(
    'GET',
    '/v2/profiles',
    gated(ctx, profilesGate, (req) => listProfiles(ctx, req)),
  );
  server.route(
    'GET',
    '/v2/profiles/:profileId',
    gated(ctx, profilesGate, (req) => getProfile(ctx, req)),
  );
  server.route(
    'POST',
    '/portfolios/list',
    gated(ctx, v3, (req, profile) => listPortfolios(ctx, req, profile!)),
  );
  server.route(
    'POST',
    '/sp/campaigns/list',
    gated(ctx, v3, (req, profile) => listCampaigns(ctx, req, profile!)),
  );
  server.route(
    'GET',
    '/v2/portfolios/:portfolioId',
    gated(ctx, v2, (req, profile) => getPortfolioV2(ctx, req, profile!, false)),
  );
  server.route(
    'GET',
    '/v2/portfolios/extended/:portfolioId',
    gated(ctx, v2, (req, profile) => getPortfolioV2(ctx, req, profile!, true)),
  );
  server.route(
    'GET',
    '/v2/sp/campaigns/:campaignId',
    gated(ctx, v2, (req, profile) => getCampaignV2(ctx, req, profile!, false)),
  );
  server.route(
    'GET',
    '/v2/sp/campaigns/extended/:campaignId',
    gated(ctx, v2, (req, profile) => getCampaignV2(ctx, req, profile!, true)),
  );
}

/** True when a list body asks for extended data (`true` or, as Airbyte sends it, `"true"`). */
function wantsExtendedData(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const value = (body as Record<string, unknown>)['includeExtendedDataFields'];
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

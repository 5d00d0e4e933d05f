import { createFakeClock, type FakeClock } from '../fake-clock.js';
/**
 * The HubSpot fake upstream: routes, credentials, limits and seeded data (API-NOTES A1-A8).
 */
import { FakeServer, type RecordedRequest } from '../fake-server.js';
import type { Faults } from '../faults.js';
import { withHeaders } from '../responses.js';
import type { UpstreamInfo } from '../upstream-info.js';
import { bearerToken } from './authenticate.js';
import { routeAuthorize } from './authorize.js';
import type { HubspotContext } from './context.js';
import { guarded } from './context.js';
import { checkToken, hubspotCredentials, type HubspotCredentials } from './credentials.js';
import { customSchemas } from './custom-schemas.js';
import type { CrmRecord, DatasetCounts } from './dataset.js';
import { hubspotError, statusError } from './errors.js';
import { getObject } from './get-object.js';
import { listObjects } from './list-objects.js';
import { getSchema, listSchemas } from './object-schemas.js';
import { seedCustomValues } from './custom-properties.js';
import { listProperties } from './list-properties.js';
import type { PropertyDef, PropertyType } from './object-types.js';
import { oauthToken } from './oauth-token.js';
import { PropertyCatalog } from './property-catalog.js';
import { HubspotRateLimits } from './rate-limits.js';
import { searchObjects } from './search-objects.js';
import { seedHubspotData } from './seed-data.js';

/** Options of {@link startHubspotFake}. */
export interface HubspotFakeOptions {
  port?: number;
  host?: string;
  /** Live contacts (the largest collection); default 1200. */
  records?: number;
  /** PRNG seed of records and credentials; default 42. */
  seed?: number;
  /** Upstream rate limits and their headers; default true. */
  rateLimits?: boolean;
  /** The fake's time in epoch ms (tokens, paging tokens, signed URLs, rate-limit windows); default real time. */
  now?: () => number;
}

/**
 * Access to the seeded records, for tests. Types by any alias: `contacts`, `0-1`, `p19936437_car`,
 * `2-3508482`... Changing records (their properties, or archiving) is how a test makes the
 * upstream change between two reads, as a HubSpot user would in the app.
 */
export interface HubspotData {
  counts(): DatasetCounts;
  setArchived(typeName: string, id: string, archived: boolean, at?: string): void;
  records(typeName: string, archived?: boolean): readonly CrmRecord[];
  find(typeName: string, id: string): CrmRecord | undefined;
  associatedIds(typeName: string, id: string, toTypeName: string): string[];
  /** Sets (or, with undefined, clears) one property value of a record, as an edit in the app would. */
  setProperty(typeName: string, id: string, name: string, value: string | undefined): void;
}

/**
 * The portal's property definitions (`GET /crm/v3/properties/{objectType}`), changeable by tests
 * as an admin would change them in HubSpot.
 */
export interface HubspotProperties {
  /** Changes a property's type (and field type: `number` for numbers, `text` otherwise, unless given). */
  setType(typeName: string, name: string, type: PropertyType, fieldType?: string): void;
  /** Adds a custom property definition (hubspotDefined false); records get values with dataset.setProperty. */
  add(typeName: string, def: PropertyDef): void;
}

/** Request counters of the fake. */
export interface HubspotStats {
  /** Requests that reached `POST /oauth/v1/token`. */
  readonly tokenRequests: number;
  /** Requests that reached an API route (any outcome, faults included). */
  readonly apiRequests: number;
}

/** A running HubSpot fake and its test hooks. */
export interface HubspotFake {
  readonly type: 'hubspot';
  readonly baseUrl: string;
  /** Every exchange, oldest first. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  readonly faults: Faults;
  /** The fake's clock (real time plus `advance`): ends rate-limit windows and expires tokens without sleeping. */
  readonly clock: FakeClock;
  readonly privateAppToken: string;
  readonly oauthClientId: string;
  readonly oauthClientSecret: string;
  readonly refreshToken: string;
  /** Issues an OAuth access token the fake accepts for `ttlSeconds` (default 1800). */
  issueAccessToken(ttlSeconds?: number): string;
  /** Expires every OAuth access token issued so far. */
  expireAllAccessTokens(): void;
  /** Makes the refresh token invalid (BAD_REFRESH_TOKEN from then on). */
  revokeRefreshToken(): void;
  /** Registers a redirect URI with the OAuth app; the consent page sends codes to registered URIs only. */
  allowRedirectUri(uri: string): void;
  readonly stats: HubspotStats;
  resetStats(): void;
  /** Burst limit of both app types (default 100 per 10 s private app, 110 OAuth). No effect with rate limits off. */
  setRateLimit(max: number, windowMs: number): void;
  /** Search limit (default 5 per 1000 ms). */
  setSearchRateLimit(max: number, windowMs: number): void;
  /** Private-app daily quota (default 250,000). */
  setDailyLimit(max: number): void;
  /** Back to the default limits, with empty windows and a full daily quota. */
  resetRateLimits(): void;
  readonly dataset: HubspotData;
  readonly properties: HubspotProperties;
  describe(): UpstreamInfo;
  close(): Promise<void>;
}

/** The fake's server: HubSpot's error bodies and headers, and its routes (API-NOTES A1-A7). */
function hubspotServer(ctx: HubspotContext, schemas: ReturnType<typeof customSchemas>): FakeServer {
  const { credentials, limits, catalog } = ctx;
  const server = new FakeServer('hubspot', {
    // A7 [3p]: X-HubSpot-Correlation-Id on responses; the same id is the body's correlationId.
    decorate: (req, response) => withHeaders(response, { 'X-HubSpot-Correlation-Id': req.requestId }),
    serverError: (req, status) => statusError(status, req.requestId),
    rateLimited: (req, retryAfter) => {
      const token = bearerToken(req);
      const status = token ? checkToken(credentials, token) : undefined;
      return limits.injected(status?.state === 'valid' ? status.scheme : undefined, req.requestId, retryAfter);
    },
    notFound: (req) => hubspotError(404, 'OBJECT_NOT_FOUND', `No resource at ${req.method} ${req.path}`, req.requestId),
    methodNotAllowed: (req, allowed) =>
      hubspotError(405, 'METHOD_NOT_ALLOWED', `HTTP 405 Method Not Allowed: ${req.method} ${req.path}`, req.requestId, {}, { Allow: allowed.join(', ') }),
  });

  server.route('POST', '/oauth/v1/token', oauthToken(credentials.grant), 'auth');
  routeAuthorize(server, credentials.grant);
  server.route(
    'GET',
    '/crm/v3/objects/:objectType',
    guarded(ctx, 'burst', (req) => listObjects(ctx, req)),
  );
  server.route(
    'GET',
    '/crm/v3/objects/:objectType/:objectId',
    guarded(ctx, 'burst', (req) => getObject(ctx, req)),
  );
  server.route(
    'POST',
    '/crm/v3/objects/:objectType/search',
    guarded(ctx, 'search', (req) => searchObjects(ctx, req)),
  );
  // The properties API counts against the same burst limit as object reads (API-NOTES A7).
  server.route(
    'GET',
    '/crm/v3/properties/:objectType',
    guarded(ctx, 'burst', (req) => listProperties(catalog, req)),
  );
  for (const prefix of ['/crm-object-schemas/v3/schemas', '/crm/v3/schemas']) {
    // A1: the spec path and the docs' `/crm/v3/schemas` are aliases.
    server.route(
      'GET',
      prefix,
      guarded(ctx, 'burst', (req) => listSchemas(schemas, req)),
    );
    server.route(
      'GET',
      `${prefix}/:objectType`,
      guarded(ctx, 'burst', (req) => getSchema(schemas, req)),
    );
  }
  return server;
}

/** What the sandbox prints for this fake: its URL and both schemes' credentials. */
function describeHubspot(baseUrl: string, credentials: HubspotCredentials, startupAccessToken: string): UpstreamInfo {
  const { privateAppToken, grant } = credentials;
  const privateApp = { access_token: privateAppToken };
  return {
    base_url: baseUrl,
    credentials: { ...privateApp },
    credentials_by_scheme: {
      private_app: privateApp,
      oauth: {
        client_id: grant.clientId,
        client_secret: grant.clientSecret,
        refresh_token: grant.refreshTokens.current,
        access_token: startupAccessToken,
      },
    },
    config: {},
    allow_origins: [],
  };
}

/**
 * Starts the HubSpot fake on a loopback port.
 * Why: the sandbox, the test suites and the benchmarks all need a faithful, credential-checking
 * HubSpot without network access (DESIGN.md §8).
 */
export async function startHubspotFake(options: HubspotFakeOptions = {}): Promise<HubspotFake> {
  const seed = options.seed ?? 42;
  const clock = createFakeClock(options.now);
  const credentials = hubspotCredentials(seed, clock.now);
  const { grant } = credentials;
  const limits = new HubspotRateLimits(options.rateLimits ?? true, clock.now);
  const data = seedHubspotData(options.records ?? 1200, seed);
  seedCustomValues(data, seed);
  const catalog = new PropertyCatalog();
  const ctx: HubspotContext = { data, credentials, limits, clock, catalog };
  const server = hubspotServer(ctx, customSchemas());

  const baseUrl = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const startupAccessToken = grant.accessTokens.issue();

  return {
    type: 'hubspot',
    baseUrl,
    requests: server.requests,
    clearRequests: () => server.clearRequests(),
    faults: server.faults,
    clock,
    privateAppToken: credentials.privateAppToken,
    oauthClientId: grant.clientId,
    oauthClientSecret: grant.clientSecret,
    refreshToken: grant.refreshTokens.current,
    issueAccessToken: (ttlSeconds) => grant.accessTokens.issue(ttlSeconds),
    expireAllAccessTokens: () => grant.accessTokens.expireAll(),
    revokeRefreshToken: () => grant.refreshTokens.revoke(),
    allowRedirectUri: (uri) => void grant.redirectUris.add(uri),
    stats: server.stats,
    resetStats: () => server.resetStats(),
    setRateLimit: (max, windowMs) => limits.setBurstLimit(max, windowMs),
    setSearchRateLimit: (max, windowMs) => limits.setSearchLimit(max, windowMs),
    setDailyLimit: (max) => limits.setDailyLimit(max),
    resetRateLimits: () => limits.restoreDefaults(),
    dataset: data,
    properties: {
      setType: (typeName, name, type, fieldType) => catalog.setType(typeName, name, type, fieldType),
      add: (typeName, def) => catalog.add(typeName, def),
    },
    describe: () => describeHubspot(baseUrl, credentials, startupAccessToken),
    close: () => server.close(),
  };
}

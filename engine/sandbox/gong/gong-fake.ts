/**
 * The Gong fake upstream: two hosts, credentials, limits and seeded data (API-NOTES C.1-C.4).
 */
import type { RunningFake } from '../fake-types.js';
import { FakeServer, type FakeRequest, type RecordedRequest } from '../fake-server.js';
import type { Faults } from '../faults.js';
import type { RefreshTokenRecord } from '../oauth/index.js';
import { createPrng } from '../prng.js';
import type { UpstreamInfo } from '../upstream-info.js';
import type { GongHost } from './authenticate.js';
import { callTranscripts } from './call-transcripts.js';
import { callsExtensive } from './calls-extensive.js';
import { routeAuthorize } from './authorize.js';
import { guarded, type GongContext } from './context.js';
import { gongCredentials, type GongCredentials } from './credentials.js';
import { CursorCodec } from './cursor.js';
import type { GongDataset } from './dataset.js';
import { frameworkError, statusError } from './errors.js';
import { getCall } from './get-call.js';
import { getUser } from './get-user.js';
import { openHostAlias, type HostAlias } from './host-alias.js';
import { listCalls } from './list-calls.js';
import { listUsers } from './list-users.js';
import { listWorkspaces } from './list-workspaces.js';
import { generateCustomerToken } from './oauth-token.js';
import { GongRateLimits, rateLimited } from './rate-limits.js';
import { seedGongData } from './seed-data.js';

/** Options of {@link startGongFake} (the sandbox's FakeStartOptions, all optional here). */
export interface GongFakeOptions {
  /** Port of the main host (api.gong.io + app.gong.io); 0 or absent: a free port. */
  port?: number;
  host?: string;
  /** Calls (the largest collection); default 1200. Users are one per ten calls (at least 5). */
  records?: number;
  /** PRNG seed of records and credentials; default 42. */
  seed?: number;
  /** Upstream rate limits (3/s, 10,000/day); default true. */
  rateLimits?: boolean;
  /** Port of the customer API host; default a free port. */
  customerPort?: number;
  /** The fake's time in epoch ms (tokens, paging tokens, signed URLs, rate-limit windows); default real time. */
  now?: () => number;
}

/** Request counters of the fake (both hosts together). */
export interface GongStats {
  /** Requests that reached `POST /oauth2/generate-customer-token`. */
  readonly tokenRequests: number;
  /** Requests that reached a `/v2` route on either host (any outcome, faults included). */
  readonly apiRequests: number;
}

/** A running Gong fake and its test hooks. */
export interface GongFake {
  readonly type: 'gong';
  /** The main host: `https://api.gong.io` for access-key calls and `https://app.gong.io` for OAuth tokens. */
  readonly baseUrl: string;
  /** The customer API host that token responses name as `api_base_url_for_customer`. */
  readonly customerBaseUrl: string;
  /** Every exchange on both hosts, oldest first; {@link GongFake.hostOf} tells which host. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  /** Which host a logged exchange reached (by its Host header). */
  hostOf(exchange: Pick<RecordedRequest, 'headers'>): GongHost;
  /** Fault switches shared by both hosts. */
  readonly faults: Faults;
  readonly accessKey: string;
  readonly accessKeySecret: string;
  readonly oauthClientId: string;
  readonly oauthClientSecret: string;
  /** The latest refresh token issued (valid unless revoked since). Changes on every refresh. */
  currentRefreshToken(): string;
  /** Every refresh token issued, oldest first, with its status (valid, rotated, revoked). */
  refreshTokens(): RefreshTokenRecord[];
  /** Revokes the current refresh token: refreshes answer invalid_grant until {@link GongFake.issueRefreshToken}. */
  revokeRefreshToken(): void;
  /** Issues a new valid refresh token (re-authorisation) and returns it; the previous one is revoked. */
  issueRefreshToken(): string;
  /** Registers a redirect URI with the OAuth app; the consent page sends codes to registered URIs only. */
  allowRedirectUri(uri: string): void;
  /** Issues an access token valid on the customer host for `ttlSeconds` (default 86,400). */
  issueAccessToken(ttlSeconds?: number): string;
  /** Expires every access token issued so far. */
  expireAllAccessTokens(): void;
  readonly stats: GongStats;
  resetStats(): void;
  /** Per-second limit (default 3 per 1000 ms, rolling, per company). No effect with rate limits off. */
  setRateLimit(max: number, windowMs: number): void;
  /** Daily limit (default 10,000), starting a fresh day. */
  setDailyLimit(max: number): void;
  /** Back to 3/s and 10,000/day with empty windows. */
  resetRateLimits(): void;
  readonly dataset: GongDataset;
  describe(): UpstreamInfo;
  close(): Promise<void>;
}

/** Where the customer host listens; known only once its alias is open. */
interface CustomerHost {
  port: number;
  baseUrl: string;
}

/**
 * Starts the Gong fake: the main host on `port` and the customer host on another loopback port.
 * Why: the sandbox, the test suites and the benchmarks need a faithful, credential-checking Gong
 * without network access (DESIGN.md §8).
 */
export async function startGongFake(options: GongFakeOptions = {}): Promise<GongFake & RunningFake> {
  const seed = options.seed ?? 42;
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? Date.now;
  const credentials = gongCredentials(seed, now);
  const limits = new GongRateLimits(options.rateLimits ?? true, now);
  const data = seedGongData(options.records ?? 1200, seed);
  const keys = createPrng(seed ^ 0xc0de);
  const customer: CustomerHost = { port: -1, baseUrl: '' };
  const ctx: GongContext = {
    data,
    credentials,
    limits,
    cursors: new CursorCodec(keys.hex(64)),
    mediaKey: keys.hex(64),
    now,
    hostOf: (req: FakeRequest) => hostOfHeaders(customer, req.headers),
  };
  const server = gongServer(ctx, customer);
  const baseUrl = await server.listen(options.port ?? 0, host);
  let alias: HostAlias;
  try {
    alias = await openHostAlias(baseUrl, options.customerPort ?? 0, host);
  } catch (error) {
    await server.close();
    throw error;
  }
  customer.port = alias.port;
  customer.baseUrl = alias.baseUrl;
  const startupAccessToken = credentials.grant.accessTokens.issue();
  return gongHandle({ ctx, server, alias, baseUrl, customer, startupAccessToken });
}

/** Which host a request was sent to, told by the port in its Host header. */
function hostOfHeaders(customer: CustomerHost, headers: RecordedRequest['headers']): GongHost {
  const value = headers['host'];
  const text = Array.isArray(value) ? value[0] : value;
  const port = text ? /:(\d+)$/.exec(text)?.[1] : undefined;
  return port !== undefined && Number(port) === customer.port ? 'customer' : 'main';
}

/** The server of both hosts: Gong's error bodies, the token endpoint and the v2 routes. */
function gongServer(ctx: GongContext, customer: CustomerHost): FakeServer {
  const server = new FakeServer('gong', {
    serverError: (req, status) => statusError(req, status),
    rateLimited: (req, retryAfter) => rateLimited(req, undefined, retryAfter),
    notFound: (req) => frameworkError(req, 404),
    methodNotAllowed: (req, allowed) => frameworkError(req, 405, { Allow: allowed.join(', ') }),
  });
  server.route(
    'POST',
    '/oauth2/generate-customer-token',
    generateCustomerToken(ctx, () => customer.baseUrl),
    'auth',
  );
  routeAuthorize(server, ctx, ctx.credentials.grant);
  server.route(
    'GET',
    '/v2/users',
    guarded(ctx, (req) => listUsers(ctx, req)),
  );
  server.route(
    'GET',
    '/v2/users/:id',
    guarded(ctx, (req) => getUser(ctx, req)),
  );
  server.route(
    'GET',
    '/v2/calls',
    guarded(ctx, (req) => listCalls(ctx, req)),
  );
  server.route(
    'GET',
    '/v2/calls/:id',
    guarded(ctx, (req) => getCall(ctx, req)),
  );
  server.route(
    'POST',
    '/v2/calls/extensive',
    guarded(ctx, (req) => callsExtensive(ctx, req)),
  );
  server.route(
    'POST',
    '/v2/calls/transcript',
    guarded(ctx, (req) => callTranscripts(ctx, req)),
  );
  server.route(
    'GET',
    '/v2/workspaces',
    guarded(ctx, (req) => listWorkspaces(ctx, req)),
  );
  return server;
}

/** The running parts a fake handle exposes. */
interface RunningParts {
  ctx: GongContext;
  server: FakeServer;
  alias: HostAlias;
  baseUrl: string;
  customer: CustomerHost;
  startupAccessToken: string;
}

/** The test hooks over the running hosts, tokens and limits. */
function gongHandle(parts: RunningParts): GongFake & RunningFake {
  const { ctx, server, alias, baseUrl, customer } = parts;
  const { credentials, limits } = ctx;
  const { grant } = credentials;
  return {
    type: 'gong',
    baseUrl,
    customerBaseUrl: customer.baseUrl,
    requests: server.requests,
    clearRequests: () => server.clearRequests(),
    hostOf: (exchange) => hostOfHeaders(customer, exchange.headers),
    faults: server.faults,
    accessKey: credentials.accessKey,
    accessKeySecret: credentials.accessKeySecret,
    oauthClientId: grant.clientId,
    oauthClientSecret: grant.clientSecret,
    currentRefreshToken: () => grant.refreshTokens.current,
    refreshTokens: () => grant.refreshTokens.records(),
    revokeRefreshToken: () => grant.refreshTokens.revoke(),
    issueRefreshToken: () => grant.refreshTokens.reissue(),
    allowRedirectUri: (uri) => void grant.redirectUris.add(uri),
    issueAccessToken: (ttlSeconds) => grant.accessTokens.issue(ttlSeconds),
    expireAllAccessTokens: () => grant.accessTokens.expireAll(),
    stats: server.stats,
    resetStats: () => server.resetStats(),
    setRateLimit: (max, windowMs) => limits.setRateLimit(max, windowMs),
    setDailyLimit: (max) => limits.setDailyLimit(max),
    resetRateLimits: () => limits.restoreDefaults(),
    dataset: ctx.data,
    describe: () => describeGong(credentials, baseUrl, customer.baseUrl, parts.startupAccessToken),
    close: async () => {
      await alias.close();
      await server.close();
    },
  };
}

/** The connection details the sandbox prints: an access key, or OAuth with a startup token. */
function describeGong(credentials: GongCredentials, baseUrl: string, customerBaseUrl: string, startupAccessToken: string): UpstreamInfo {
  const { grant } = credentials;
  const accessKey = { access_key: credentials.accessKey, access_key_secret: credentials.accessKeySecret };
  return {
    base_url: baseUrl,
    credentials: { ...accessKey },
    credentials_by_scheme: {
      access_key: accessKey,
      oauth: {
        client_id: grant.clientId,
        client_secret: grant.clientSecret,
        // Single-use rotation: always the refresh token that is valid now.
        refresh_token: grant.refreshTokens.current,
        // Valid on the customer host only (C.1); a client learns that host by refreshing.
        access_token: startupAccessToken,
      },
    },
    config: {},
    // The customer host that token answers name (API-NOTES C.1) is a second origin.
    allow_origins: [new URL(customerBaseUrl).origin],
  };
}

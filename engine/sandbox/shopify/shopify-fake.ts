/**
 * The Shopify Admin REST API fake: one store, versioned routes, access tokens, the leaky-bucket
 * limit and seeded data (API-NOTES B.1-B.6).
 */
import { FakeServer, type RecordedRequest } from '../fake-server.js';
import type { Faults } from '../faults.js';
import { withHeaders } from '../responses.js';
import type { UpstreamInfo } from '../upstream-info.js';
import { LATEST_API_VERSION } from './api-versions.js';
import { authenticate } from './authenticate.js';
import { createFakeClock, type FakeClock } from '../fake-clock.js';
import type { ShopifyContext } from './context.js';
import { shopifyCredentials } from './credentials.js';
import type { ShopifyData } from './dataset.js';
import { notFound, statusError } from './errors.js';
import { CALL_LIMIT_HEADER, ShopifyRateLimits } from './rate-limits.js';
import { registerRoutes } from './routes.js';
import { seedShopifyData } from './seed-data.js';
import { shopTime } from './shop-time.js';

/** The default store name: the fake serves `sandbox-store.myshopify.com`. */
export const DEFAULT_STORE = 'sandbox-store';

/** Options of {@link startShopifyFake}. */
export interface ShopifyFakeOptions {
  port?: number;
  host?: string;
  /** Orders (the largest collection); default 1200. */
  records?: number;
  /** PRNG seed of records and of the static token; default 42. */
  seed?: number;
  /** The leaky bucket and its header; default true. */
  rateLimits?: boolean;
  /** Store name, the subdomain of `{store}.myshopify.com`; default `sandbox-store`. */
  store?: string;
  /** The fake's time in epoch ms (tokens, paging tokens, signed URLs, rate-limit windows); default real time. */
  now?: () => number;
}

/** Request counters of the fake. */
export interface ShopifyStats {
  /**
   * Always 0: the storefront connector authenticates with a static Admin API token only (SPEC.md:
   * "OAuth is unavailable"), so this fake has no token endpoint. Kept so that code reading every
   * fake's stats works unchanged.
   */
  readonly tokenRequests: number;
  /** Requests that reached an Admin API route (any outcome, faults included). */
  readonly apiRequests: number;
}

/** A running Shopify fake and its test hooks. */
export interface ShopifyFake {
  readonly type: 'shopify';
  /** `http://host:port` (the API lives under `/admin/api/{version}`). */
  readonly baseUrl: string;
  /** The store name (`describe().config.shop`). */
  readonly store: string;
  /** Every exchange, oldest first. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  readonly faults: Faults;
  /** The static `shpat_…` Admin API token (stable per seed). */
  readonly accessToken: string;
  /** Issues another token the fake accepts for `ttlSeconds` (default 86400, B.2's 24 h). */
  issueAccessToken(ttlSeconds?: number): string;
  /** Expires every token issued by {@link issueAccessToken}; the static token stays valid. */
  expireAllAccessTokens(): void;
  /** Revokes a token, the static one included (as uninstalling the app does); false when unknown. */
  revokeAccessToken(token: string): boolean;
  readonly stats: ShopifyStats;
  resetStats(): void;
  /** Leaky bucket per token: size and leak rate (default 40 at 2/s); empties every bucket. No effect with rate limits off. */
  setRateLimit(bucketSize: number, leakPerSecond: number): void;
  /** Back to 40 at 2/s with empty buckets. */
  resetRateLimits(): void;
  /** The fake's clock (real time plus `advance`): drains buckets and expires tokens without sleeping. */
  readonly clock: FakeClock;
  readonly dataset: ShopifyData;
  /**
   * Edits an order as a merchant does in the admin: sets its `note` and moves `updated_at` to the
   * fake clock's now, so `updated_at_min` lists it again. False when there is no such order.
   */
  editOrder(id: number, note: string): boolean;
  describe(): UpstreamInfo;
  close(): Promise<void>;
}

/**
 * Starts the Shopify fake on a loopback port.
 * Why: the sandbox, the test suites and the benchmarks need a faithful, credential-checking
 * Shopify Admin API without network access (DESIGN.md §8).
 */
export async function startShopifyFake(options: ShopifyFakeOptions = {}): Promise<ShopifyFake> {
  const seed = options.seed ?? 42;
  const store = options.store ?? DEFAULT_STORE;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(store)) throw new RangeError(`store must be a lower-case myshopify subdomain, got ${store}`);
  const clock = createFakeClock(options.now);
  const { accessToken, tokens } = shopifyCredentials(seed, () => clock.now());
  const limits = new ShopifyRateLimits(options.rateLimits ?? true, clock);
  const data = seedShopifyData(options.records ?? 1200, seed, store);
  const ctx: ShopifyContext = { data, tokens, limits, store };

  const server = new FakeServer('shopify', {
    // B.5: `x-request-id` on every answer; B.4: the call-limit header on every answer to a valid
    // token, including those that spent nothing (faults, unknown paths and versions).
    decorate: (req, response) => {
      const headers: Record<string, string> = { 'x-request-id': req.requestId };
      const hasCallLimit = Object.keys(response.headers ?? {}).some((name) => name.toLowerCase() === CALL_LIMIT_HEADER.toLowerCase());
      if (!hasCallLimit) {
        const auth = authenticate(req, tokens, store);
        if (auth.ok) Object.assign(headers, limits.headersFor(auth.token));
      }
      return withHeaders(response, headers);
    },
    serverError: (_req, status) => statusError(status),
    rateLimited: (req, retryAfter) => limits.injected(retryAfter, authenticate(req, tokens, store).ok),
    notFound: () => notFound(),
    // The fake serves the read side only; other methods on known paths are unknown routes too.
    methodNotAllowed: () => notFound(),
  });
  registerRoutes(server, ctx);

  const baseUrl = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    type: 'shopify',
    baseUrl,
    store,
    requests: server.requests,
    clearRequests: () => server.clearRequests(),
    faults: server.faults,
    accessToken,
    issueAccessToken: (ttlSeconds) => tokens.issue(ttlSeconds),
    expireAllAccessTokens: () => tokens.expireAll(),
    revokeAccessToken: (token) => tokens.revoke(token),
    stats: server.stats,
    resetStats: () => server.resetStats(),
    setRateLimit: (bucketSize, leakPerSecond) => limits.setLimit(bucketSize, leakPerSecond),
    resetRateLimits: () => limits.restoreDefaults(),
    clock,
    dataset: data,
    editOrder: (id, note) => {
      const order = data.order(id);
      if (!order) return false;
      Object.assign(order, { note, updated_at: shopTime(clock.now()) });
      return true;
    },
    describe: () => {
      const credentials = { api_key: accessToken, shop: store };
      return {
        base_url: `${baseUrl}/admin/api/${LATEST_API_VERSION}`,
        credentials: { ...credentials },
        credentials_by_scheme: { token: { ...credentials } },
        config: { shop: store, api_version: LATEST_API_VERSION },
        allow_origins: [],
      };
    },
    close: () => server.close(),
  };
}

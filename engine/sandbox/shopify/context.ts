/**
 * State shared by the Shopify route handlers, and the gate in front of them.
 */
import type { FakeHandler, FakeRequest } from '../fake-server.js';
import type { AccessTokenLedger } from '../oauth/index.js';
import { withHeaders, type FakeResponse } from '../responses.js';
import { isSupportedVersion } from './api-versions.js';
import { authenticate } from './authenticate.js';
import type { ShopifyDataset } from './dataset.js';
import { notFound } from './errors.js';
import type { ShopifyRateLimits } from './rate-limits.js';

/** What every Shopify handler reads. */
export interface ShopifyContext {
  data: ShopifyDataset;
  tokens: AccessTokenLedger;
  limits: ShopifyRateLimits;
  /** The store name (`{store}.myshopify.com`) the tokens belong to. */
  store: string;
}

/** A handler body that runs after the gate. */
export type GuardedHandler = (req: FakeRequest) => FakeResponse;

/**
 * Wraps an Admin API handler: 404 `{"errors":"Not Found"}` for an unsupported `{version}`, 401
 * unless the `X-Shopify-Access-Token` is valid for this store, 429 when the caller's bucket is
 * full, then the handler; admitted answers carry `X-Shopify-Shop-Api-Call-Limit` and
 * `X-Shopify-API-Version` (the version that served the request, as Shopify reports it).
 * Why: B.1 (versioned paths), B.2 (auth header), B.4 (leaky bucket and its header).
 */
export function guarded(ctx: ShopifyContext, handler: GuardedHandler): FakeHandler {
  return (req) => {
    const version = req.params['version'] ?? '';
    if (!isSupportedVersion(version)) return notFound();
    const auth = authenticate(req, ctx.tokens, ctx.store);
    if (!auth.ok) return auth.response;
    const admission = ctx.limits.admit(auth.token);
    if (!admission.allowed) return admission.response;
    return withHeaders(handler(req), { ...admission.headers, 'X-Shopify-API-Version': version });
  };
}

/**
 * The `X-Shopify-Access-Token` check of every Admin API route (API-NOTES B.2, B.5).
 */
import type { FakeRequest } from '../fake-server.js';
import type { AccessTokenLedger } from '../oauth/index.js';
import type { FakeResponse } from '../responses.js';
import { invalidToken } from './errors.js';

/** The accepted token (the caller's rate-limit bucket), or the 401 to answer. */
export type AuthOutcome = { ok: true; token: string } | { ok: false; response: FakeResponse };

/**
 * The `X-Shopify-Access-Token` header of a request, if any.
 * Why: B.2: Shopify authenticates with this header only (no `Authorization: Bearer`).
 */
export function accessTokenOf(req: FakeRequest): string | undefined {
  const value = req.headers['x-shopify-access-token'];
  const token = (Array.isArray(value) ? value[0] : value)?.trim();
  return token ? token : undefined;
}

/**
 * The store a request addresses through its host, when the host is a `*.myshopify.com` domain
 * (`Host`, or `X-Forwarded-Host` behind a proxy); undefined for any other host (such as
 * `127.0.0.1:PORT`, where the sandbox sends everything).
 */
export function addressedStore(req: FakeRequest): string | undefined {
  for (const name of ['x-forwarded-host', 'host']) {
    const raw = req.headers[name];
    const host = (Array.isArray(raw) ? raw[0] : raw)?.split(',')[0]?.trim().toLowerCase().replace(/:\d+$/, '');
    const match = host ? /^([a-z0-9][a-z0-9-]*)\.myshopify\.com$/.exec(host) : null;
    if (match) return match[1];
  }
  return undefined;
}

/**
 * Accepts only tokens the fake issued, unexpired and unrevoked, presented to this store: a token
 * belongs to one store, so a request whose host names another `{shop}.myshopify.com` gets the
 * same 401 as a bad token. Any other host is accepted (the sandbox routes every shop here).
 * Why: DESIGN.md §8: auth bugs (wrong header, wrong token, wrong shop) must not hide.
 */
export function authenticate(req: FakeRequest, tokens: AccessTokenLedger, store: string): AuthOutcome {
  const token = accessTokenOf(req);
  if (!token || tokens.check(token).state !== 'valid') return { ok: false, response: invalidToken() };
  const addressed = addressedStore(req);
  if (addressed !== undefined && addressed !== store.toLowerCase()) return { ok: false, response: invalidToken() };
  return { ok: true, token };
}

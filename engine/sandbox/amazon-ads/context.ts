/**
 * State shared by the Amazon Ads route handlers, and the request-header helper they all use.
 */
import type { FakeRequest } from '../fake-server.js';
import type { AdsDataset } from './dataset.js';
import type { AdsRateLimits } from './rate-limits.js';
import type { OAuthGrant } from '../oauth/index.js';

/** What every handler reads. */
export interface AdsContext {
  data: AdsDataset;
  /** The LwA app's grant: its client id is also the `Amazon-Advertising-API-ClientId`. */
  grant: OAuthGrant;
  limits: AdsRateLimits;
  /** Seed-derived secret that makes `nextToken`s tamper-evident. */
  tokenSecret: string;
}

/**
 * The first value of a request header (lower-case name), trimmed; undefined when absent or blank.
 * Why: clients may repeat headers; the fake reads the first, as most servers do.
 */
export function header(req: FakeRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  const first = (Array.isArray(value) ? value[0] : value)?.trim();
  return first ? first : undefined;
}

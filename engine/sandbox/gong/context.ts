/**
 * State shared by the Gong route handlers, and the auth + rate-limit gate in front of them.
 */
import type { FakeHandler, FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { authenticate, type GongHost } from './authenticate.js';
import type { CursorCodec } from './cursor.js';
import type { GongDataset } from './dataset.js';
import type { GongRateLimits } from './rate-limits.js';
import type { GongCredentials } from './credentials.js';

/** What every Gong handler reads. */
export interface GongContext {
  data: GongDataset;
  credentials: GongCredentials;
  limits: GongRateLimits;
  cursors: CursorCodec;
  /** Signs the media URLs of extensive calls. */
  mediaKey: string;
  /** The fake's time in epoch ms (the sandbox's `now`). */
  now(): number;
  /** Which host a request reached (see host-alias.ts). */
  hostOf(req: FakeRequest): GongHost;
}

/** A handler body that runs after the gate. */
export type GuardedHandler = (req: FakeRequest) => FakeResponse;

/**
 * Wraps an API handler: 401 unless the credentials are the fake's (and fit the host), then 429
 * when over the company's limits, then the handler.
 * Why: C.1/C.2: auth decides whose budget a request spends, so it is checked first.
 */
export function guarded(ctx: GongContext, handler: GuardedHandler): FakeHandler {
  return (req) => {
    const auth = authenticate(req, ctx.credentials, ctx.hostOf(req));
    if (!auth.ok) return auth.response;
    const limited = ctx.limits.admit(req);
    if (limited) return limited;
    return handler(req);
  };
}

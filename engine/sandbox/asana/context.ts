/**
 * State shared by the Asana route handlers, and the auth + rate-limit gate in front of them.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { authenticate } from './authenticate.js';
import type { AsanaDataset } from './dataset.js';
import type { FakeClock } from '../fake-clock.js';
import type { RecordContext } from './full-records.js';
import type { OffsetCodec } from './offset-token.js';
import type { AsanaRateLimits } from './rate-limits.js';
import type { AsanaCredentials } from './credentials.js';

/** What every Asana handler reads. */
export interface AsanaContext {
  data: AsanaDataset;
  credentials: AsanaCredentials;
  limits: AsanaRateLimits;
  clock: FakeClock;
  offsets: OffsetCodec;
  records: RecordContext;
  /** Unpaginated lists longer than this answer "The result is too large" (B2, B8). */
  tooLargeThreshold: number;
}

/** A handler body that runs after the gate. */
export type AsanaHandler = (req: FakeRequest) => FakeResponse;

/**
 * Wraps an API handler: 401 unless the token was issued by the fake and is unexpired, then the
 * per-token limit (and the search limit for task search) answering 429, then the handler.
 * Why: B6/B7: auth first; limits are per token, and search has its own 60/min on top.
 */
export function guarded(ctx: AsanaContext, handler: AsanaHandler, options: { search?: boolean } = {}): (req: FakeRequest) => FakeResponse {
  return (req) => {
    const auth = authenticate(req, ctx.credentials);
    if (!auth.ok) return auth.response;
    const admitted = ctx.limits.admit(auth.token);
    if (!admitted.allowed) return admitted.response;
    if (options.search) {
      const searchAdmitted = ctx.limits.admitSearch(auth.token);
      if (!searchAdmitted.allowed) return searchAdmitted.response;
    }
    return handler(req);
  };
}

import { InvalidRequestError, type ErrorDetail } from '../errors.js';
import { MAX_DEADLINE_MS, type Traffic } from '../http/index.js';

/** Options of one call (`execute`, `records`, `download`). */
export interface CallOptions {
  /**
   * How long the call may take in all, in ms: every rate-limit wait, Retry-After, back-off,
   * retry and token refresh (default: connect's `deadlineMs`, 30 s). Past it the call fails with
   * UPSTREAM_TIMEOUT, whose `deadline` says what it waited for; a wait that would end after it
   * fails at once. For `records()` it bounds each page request; for a download, reaching the
   * file's first byte (the stream then takes as long as it takes).
   */
  deadlineMs?: number;
  /**
   * `sync` marks background reads (the sync runner's): while interactive calls wait, they get at
   * most half of the connector's rate limit. Default `interactive`.
   */
  traffic?: Traffic;
  /**
   * Cancels the call when it aborts: every wait (rate limiter, Retry-After, back-off) ends and the
   * attempt in flight is aborted, and the call fails with CANCELLED (the signal's reason as its
   * `cause`). For `records()` it ends the page in flight and the iteration; for a download, the
   * wait for the file's first byte, as the deadline does (cancel the stream itself to stop reading).
   * Why: a caller that no longer wants the answer (a stopping sync pass, a closed request) should
   * not hold a connection and a rate-limit slot until the deadline.
   */
  signal?: AbortSignal;
}

/** Checks a deadline in ms: a whole number from 1 to MAX_DEADLINE_MS (setTimeout's limit). */
export function deadlineProblem(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DEADLINE_MS) {
    return `must be a whole number of milliseconds from 1 to ${MAX_DEADLINE_MS}`;
  }
  return undefined;
}

/** Checks call options before anything is sent (INVALID_REQUEST naming each bad option). */
export function checkCallOptions(options: CallOptions | undefined): CallOptions {
  if (options === undefined) return {};
  const details: ErrorDetail[] = [];
  const deadline = options.deadlineMs === undefined ? undefined : deadlineProblem(options.deadlineMs);
  if (deadline) details.push({ path: '/options/deadlineMs', message: deadline });
  if (options.traffic !== undefined && options.traffic !== 'interactive' && options.traffic !== 'sync') {
    details.push({ path: '/options/traffic', message: 'must be "interactive" or "sync"' });
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) details.push({ path: '/options/signal', message: 'must be an AbortSignal' });
  if (details.length > 0) throw new InvalidRequestError(`invalid call options: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, { details });
  return options;
}

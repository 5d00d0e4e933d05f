import { InvalidRequestError, type ErrorDetail } from '../errors.js';
import { CallerGone, MAX_DEADLINE_MS, type Traffic } from '../http/index.js';

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

/** Checks a deadline in ms: a whole number from 1 to `most` (default MAX_DEADLINE_MS, setTimeout's limit). */
export function deadlineProblem(value: unknown, most = MAX_DEADLINE_MS): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > most) {
    return `must be a whole number of milliseconds from 1 to ${most}`;
  }
  return undefined;
}

/** Which options a kind of call takes, and the longest deadline it allows. */
export interface CallOptionRules {
  names: readonly string[];
  maxDeadlineMs: number;
}

/** The options `execute`, `records` and `download` take in-process. */
const LIBRARY_CALL_OPTIONS: CallOptionRules = { names: ['deadlineMs', 'traffic', 'signal'], maxDeadlineMs: MAX_DEADLINE_MS };

/** A caller's option name as a JSON Pointer token (RFC 6901), clipped: it is echoed in an error. */
function optionPath(name: string): string {
  return `/options/${name.slice(0, 60).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** What is wrong with each option the call does not take, or with its value. */
function optionProblems(options: Record<string, unknown>, { names, maxDeadlineMs }: CallOptionRules): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(options)) {
    if (!names.includes(name)) details.push({ path: optionPath(name), message: `is not a call option (${names.join(', ')})` });
  }
  const deadline = options.deadlineMs === undefined ? undefined : deadlineProblem(options.deadlineMs, maxDeadlineMs);
  if (deadline) details.push({ path: '/options/deadlineMs', message: deadline });
  if (names.includes('traffic') && options.traffic !== undefined && options.traffic !== 'interactive' && options.traffic !== 'sync') {
    details.push({ path: '/options/traffic', message: 'must be "interactive" or "sync"' });
  }
  // A CallerGone is the service's own stand-in for an AbortSignal (see caller-gone.ts); no caller has one.
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal || options.signal instanceof CallerGone))
    details.push({ path: '/options/signal', message: 'must be an AbortSignal' });
  return details;
}

/**
 * Checks call options before anything is sent (INVALID_REQUEST naming each bad option). An
 * unknown name is refused rather than ignored: a misspelt `deadline` or `signals` would otherwise
 * leave the call without the bound or the cancel its caller believes it has. `rules` are the
 * options this kind of call takes (the hosted client: no `traffic`, and the service's longest deadline).
 */
export function checkCallOptions(options: CallOptions | undefined, rules: CallOptionRules = LIBRARY_CALL_OPTIONS): CallOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const message = `must be an object with ${rules.names.join(', ')}`;
    throw new InvalidRequestError(`invalid call options: ${message}`, { details: [{ path: '/options', message }] });
  }
  const details = optionProblems(options as Record<string, unknown>, rules);
  if (details.length > 0) throw new InvalidRequestError(`invalid call options: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, { details });
  return options;
}

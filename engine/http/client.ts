import { systemClock, type Clock } from '../clock/index.js';
import { EngineError, UpstreamError, UpstreamTimeoutError } from '../errors.js';
import type { HostPurpose, HttpPolicy, ReauthMatcher } from '../manifest/index.js';
import { readPath } from './body-path.js';
import type { EgressPermit, EgressPolicy } from './egress-policy.js';
import { RequestLimiter, type SlotHold } from './limiter.js';
import type { RateSlots } from './rate-slots.js';
import type { Redactor } from './redact.js';
import type { UpstreamCall, WaitKind } from './upstream-call.js';
import type { UpstreamRequestListener } from './upstream-requests.js';
import { upstreamError } from './upstream-error.js';
import { AttemptTimeout, sendAttempt, type HttpMethod, type RawAnswer } from './send-attempt.js';

/** One upstream request, fully rendered. */
export interface OutgoingRequest {
  method: HttpMethod;
  url: URL;
  /** Lower-case names, sent as they are: the caller puts API_HEADER_DEFAULTS under its own. */
  headers: Record<string, string>;
  body?: string;
  /** A POST that only reads (a search endpoint): retried like a GET. Writes are never retried. */
  readOnly?: boolean;
  /** Error answers that mean "no records" for this request: returned as an empty answer. */
  emptyOn?: ReauthMatcher[];
}

/** A successful upstream answer, with the body parsed when it is JSON. */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
  /** True when the upstream said "nothing here" with an error status the manifest calls empty. */
  empty?: boolean;
}

/** Counters a caller (metrics, tests, benchmarks) can read. */
export interface HttpStats {
  requests: number;
  attempts: number;
  retries: number;
  /** The attempts of sync traffic (included in `attempts`). */
  syncAttempts: number;
  /** Attempts sent whose answer (or failure) is not in yet. */
  inFlight: number;
}

// Socket failures that mean "try again": got's defaults plus a premature close mid-body, and
// undici's names for the same failures (a socket closed or reset before or during the answer, a
// body shorter than its Content-Length, a connect, headers or body timeout).
const RETRY_ERROR_CODES = new Set([
  'ETIMEDOUT',
  'ECONNRESET',
  'EADDRINUSE',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** API calls go to the manifest's API hosts, or to the account's own host that a token answer names. */
const API_PURPOSES: HostPurpose[] = ['api', 'account'];

/** How long past its timeout an attempt's slot stays taken if the attempt never reports back. */
const HOLD_MARGIN_MS = 5_000;

/** One request's attempts: its call, its rate-limit slot, and what its retries decided. */
interface AttemptState {
  call: UpstreamCall;
  /** Attempts sent so far. */
  sent: number;
  hold?: SlotHold;
  /** Set when the next wait would pass the deadline: the call stops at once instead. */
  stop?: { kind: WaitKind; neededMs: number; retryAfterMs?: number };
}

/** How one attempt ended: an answer (any status) or a failure to get one. */
type Outcome = { answer: RawAnswer; error?: undefined } | { answer?: undefined; error: unknown };

/** Methods retried by default: reads. A read-only POST (a search) is retried too. */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one way the engine talks HTTP to an upstream: undici with the connector's policy (retries on
 * 429, listed statuses, timeouts and resets with exponential backoff and full jitter, Retry-After
 * honoured exactly up to the cap), the client-side rate limit and concurrency, and typed errors.
 * The retry rules are got's, which the engine used before (API-NOTES and the manifests rely on them).
 */
export class HttpClient {
  readonly stats: HttpStats = { requests: 0, attempts: 0, retries: 0, syncAttempts: 0, inFlight: 0 };
  private readonly limiter: RequestLimiter;

  /** `slots`: where the rate limit's slots live when several processes share it (default: memory). */
  constructor(
    private readonly policy: HttpPolicy,
    private readonly label: string,
    private readonly redact: Redactor,
    private readonly egress: EgressPolicy,
    slots?: RateSlots,
    private readonly onRequest?: UpstreamRequestListener,
    private readonly clock: Clock = systemClock,
  ) {
    this.limiter = new RequestLimiter({
      ...(policy.rate_limit ? { requests: policy.rate_limit.requests, perMs: policy.rate_limit.per_ms } : {}),
      ...(policy.concurrency ? { concurrency: policy.concurrency } : {}),
      ...(slots ? { slots } : {}),
      holdMs: policy.timeout_ms + HOLD_MARGIN_MS,
      clock,
    });
  }

  /**
   * Sends a request and returns the parsed answer, or throws the typed error for the failure. The
   * URL passes the egress policy first (HOST_NOT_ALLOWED otherwise), and every connection of every
   * attempt resolves its host through the policy's guarded lookup. Every wait and attempt ends
   * by the call's deadline (UPSTREAM_TIMEOUT naming what it waited for).
   */
  async send(request: OutgoingRequest, call: UpstreamCall): Promise<UpstreamAnswer> {
    const permit = this.egress.permit(request.url, API_PURPOSES);
    this.stats.requests++;
    const turn = this.limiter.takeTurn(call);
    if (turn) await turn;
    const state: AttemptState = { call, sent: 0 };
    try {
      return await this.attemptLoop(request, permit, state);
    } catch (error) {
      this.endAttempt(state);
      throw this.deadlineError(error, call, state) ?? this.toEngineError(error, request);
    } finally {
      this.limiter.endTurn(call);
    }
  }

  /**
   * Attempts until an answer under 400, a failure that is not retried, or the deadline. Each
   * attempt takes a slot of the rolling window, then sends; its failure is kept, not thrown, for
   * the retry rules.
   */
  private async attemptLoop(request: OutgoingRequest, permit: EgressPermit, state: AttemptState): Promise<UpstreamAnswer> {
    const retryable = READ_METHODS.has(request.method) || request.readOnly === true;
    for (let attemptCount = 1; ; attemptCount++) {
      const hold = this.limiter.attempt(state.call);
      this.attemptStarted(state, hold instanceof Promise ? await hold : hold);
      let answer: RawAnswer | undefined;
      let error: unknown;
      try {
        answer = await sendAttempt(request, permit.dispatcher, state.call, this.policy.timeout_ms);
      } catch (failure) {
        error = failure;
      } finally {
        this.endAttempt(state);
      }
      // got's rule with redirects not followed: 2xx and 3xx are answers, the rest are failures.
      if (answer && answer.status < 400) return { status: answer.status, headers: answer.headers, text: answer.text, json: parseJson(answer.text) };
      const outcome: Outcome = answer ? { answer } : { error };
      const delayMs = retryable ? this.retryDelay(outcome, attemptCount, state) : 0;
      if (delayMs === 0) return this.finalFailure(outcome, request, state);
      this.stats.retries++;
      await this.clock.sleep(delayMs, state.call.signal);
    }
  }

  /**
   * The wait before the next attempt, or 0 for none. got's rules: at most max_retries retries; a
   * listed status or a socket failure; a Retry-After over the cap, or a 413 without one, is not
   * retried. Then ours: Retry-After honoured exactly, else full jitter up to the exponential
   * ceiling; a wait that would end after the deadline is not slept: the call stops at once
   * (`state.stop`) and fails with UPSTREAM_TIMEOUT.
   */
  private retryDelay(outcome: Outcome, attemptCount: number, state: AttemptState): number {
    const retry = this.policy.retry;
    const { answer } = outcome;
    if (attemptCount > retry.max_retries) return 0;
    if (answer ? !retry.statuses.includes(answer.status) : !RETRY_ERROR_CODES.has(String((outcome.error as { code?: unknown })?.code))) return 0;
    const retryAfter = answer ? retryAfterOf(answer.headers) : undefined;
    if (answer && retryAfter ? retryAfter > retry.retry_after_cap_ms : answer?.status === 413) return 0;
    if (answer) state.call.lastUpstream = this.upstreamInfo(answer);
    const honoured = retryAfter !== undefined && retryAfter > 0;
    const ceiling = Math.min(retry.max_delay_ms, retry.base_delay_ms * 2 ** (attemptCount - 1));
    const delay = honoured ? retryAfter : Math.max(1, Math.round(Math.random() * ceiling));
    const kind = honoured ? 'retry_after' : 'backoff';
    if (state.call.fits(kind, delay)) return delay;
    state.stop = { kind, neededMs: delay, ...(honoured ? { retryAfterMs: retryAfter } : {}) };
    return 0;
  }

  /** The end of a request that is not tried again: an "empty" answer the manifest names, or the error. */
  private finalFailure(outcome: Outcome, request: OutgoingRequest, state: AttemptState): UpstreamAnswer {
    const { answer } = outcome;
    if (!answer) throw outcome.error;
    if (request.emptyOn && matchesAny(request.emptyOn, answer.status, answer.text)) {
      return { status: answer.status, headers: answer.headers, text: '', json: undefined, empty: true };
    }
    if (state.stop) throw state.call.exceeded(state.stop.kind, state.stop.neededMs, state.stop.retryAfterMs);
    throw upstreamError(answer, this.policy, this.label, this.redact);
  }

  /** Before each attempt (retries too), once it holds its slot of the rolling window: the counters. */
  private attemptStarted(state: AttemptState, hold: SlotHold): void {
    const { call } = state;
    state.hold = hold;
    call.attemptStarted();
    this.stats.attempts++;
    this.stats.inFlight++;
    if (call.traffic === 'sync') this.stats.syncAttempts++;
    this.onRequest?.({ kind: 'api', retry: state.sent++ > 0 });
  }

  /** Releases the attempt's slot and books its time, once. */
  private endAttempt(state: AttemptState): void {
    if (!state.hold) return;
    state.hold.release();
    delete state.hold;
    this.stats.inFlight--;
    state.call.attemptEnded();
  }

  /** The UPSTREAM_TIMEOUT of a call that stopped because of its deadline, if that is why it stopped. */
  private deadlineError(error: unknown, call: UpstreamCall, state: AttemptState): EngineError | undefined {
    if (state.stop) return call.exceeded(state.stop.kind, state.stop.neededMs, state.stop.retryAfterMs);
    if (error instanceof EngineError && error.deadline) return error;
    if (call.deadlineError) return call.deadlineError;
    return undefined;
  }

  /** What a failed answer said, for the deadline error (redacted, like every upstream quote). */
  private upstreamInfo(answer: RawAnswer): UpstreamTimeoutError['upstream'] {
    return upstreamError(answer, this.policy, this.label, this.redact).upstream;
  }

  private toEngineError(error: unknown, request: OutgoingRequest): EngineError {
    if (error instanceof EngineError) return error;
    // A refusal at connect time (the guarded lookup) names the address; the policy names the request.
    const refused = this.egress.connectRefusal(error, request.url, API_PURPOSES);
    if (refused) return refused;
    if (error instanceof AttemptTimeout) {
      return new UpstreamTimeoutError(`${this.label} did not answer within ${this.policy.timeout_ms} ms`, { cause: error });
    }
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') {
      return new UpstreamError(this.redact(`${this.label} request failed: ${code} ${(error as Error).message}`.trim()), { retryable: true, cause: error });
    }
    return new UpstreamError(this.redact(`${this.label} request failed: ${(error as Error)?.message ?? String(error)}`));
  }
}

/**
 * Retry-After in ms as got read it: seconds, or an HTTP-date from now (1 ms when past); NaN or 0
 * when unreadable or zero, which then mean "back off" instead.
 */
function retryAfterOf(headers: RawAnswer['headers']): number | undefined {
  const header = headers['retry-after'];
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const ms = Date.parse(String(header)) - Date.now();
  return ms <= 0 ? 1 : ms;
}

function matchesAny(matchers: ReauthMatcher[], status: number, text: string): boolean {
  const body = parseJson(text);
  return matchers.some((m) => (m.status === undefined || m.status === status) && (m.path === undefined || readPath(body, m.path) === m.equals));
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

import got, { AbortError, HTTPError, RequestError, TimeoutError, type Got, type Method, type RetryOptions } from 'got';
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

/** One upstream request, fully rendered. */
export interface OutgoingRequest {
  method: Method;
  url: URL;
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

// Node socket failures that mean "try again" (got's defaults plus a premature close mid-body).
const RETRY_ERROR_CODES = [
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
];

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
  /** The wait before the next retry, slept on the clock (got itself waits 1 ms). */
  delayMs?: number;
}

/** Where got's hooks find the request's state (got copies `context` shallowly, so the object is shared). */
interface AttemptContext extends Record<string, unknown> {
  attempt: AttemptState;
}

function stateOf(context: Record<string, unknown>): AttemptState {
  return (context as AttemptContext).attempt;
}

/** Methods retried by default: reads. A read-only POST (a search) is added per request. */
const READ_METHODS: Method[] = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The one way the engine talks HTTP to an upstream: got with the connector's policy (retries on
 * 429, listed statuses, timeouts and resets with exponential backoff and full jitter, Retry-After
 * honoured exactly up to the cap), the client-side rate limit and concurrency, and typed errors.
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
    this.got = got.extend({
      responseType: 'text',
      throwHttpErrors: true,
      followRedirect: false,
      timeout: { request: policy.timeout_ms },
      retry: this.retryOptions(),
      hooks: {
        beforeRequest: [(options) => this.attemptStarting(stateOf(options.context))],
        afterResponse: [
          (response) => {
            this.endAttempt(stateOf(response.request.options.context));
            return response;
          },
        ],
        beforeRetry: [
          async (error) => {
            this.stats.retries++;
            const state = stateOf(error.options.context);
            await this.clock.sleep(state.delayMs ?? 0, state.call.signal);
          },
        ],
      },
    });
  }

  /** got with this connector's policy, built once: a request passes only what is its own. */
  private readonly got: Got;

  /**
   * Sends a request and returns the parsed answer, or throws the typed error for the failure. The
   * URL passes the egress policy first (HOST_NOT_ALLOWED otherwise), and every connection of every
   * attempt resolves its host through the policy's guarded lookup. Every wait and attempt ends
   * by the call's deadline (UPSTREAM_TIMEOUT naming what it waited for).
   */
  async send(request: OutgoingRequest, call: UpstreamCall): Promise<UpstreamAnswer> {
    const permit = this.egress.permit(request.url, API_PURPOSES);
    this.stats.requests++;
    return this.limiter.run(call, () => this.attemptAll(request, permit.dnsLookup, call));
  }

  /**
   * got's retry policy, the same for every request; a request's own state comes through its
   * context. A delay (Retry-After or back-off) that would end after the deadline is not slept:
   * the call stops at once (`state.stop`) and fails with UPSTREAM_TIMEOUT.
   */
  private retryOptions(): Partial<RetryOptions> {
    const retry = this.policy.retry;
    return {
      limit: retry.max_retries,
      methods: READ_METHODS,
      statusCodes: retry.statuses,
      errorCodes: RETRY_ERROR_CODES,
      maxRetryAfter: retry.retry_after_cap_ms,
      enforceRetryRules: true,
      calculateDelay: ({ attemptCount, computedValue, retryAfter, error }) => {
        const state = stateOf(error.options.context);
        this.endAttempt(state);
        if (computedValue === 0) return 0;
        if (error instanceof HTTPError) state.call.lastUpstream = this.upstreamInfo(error);
        const honoured = retryAfter !== undefined && retryAfter > 0;
        const ceiling = Math.min(retry.max_delay_ms, retry.base_delay_ms * 2 ** (attemptCount - 1));
        const delay = honoured ? retryAfter : Math.max(1, Math.round(Math.random() * ceiling));
        const kind = honoured ? 'retry_after' : 'backoff';
        if (state.call.fits(kind, delay)) {
          state.delayMs = delay;
          return 1;
        }
        state.stop = { kind, neededMs: delay, ...(honoured ? { retryAfterMs: retryAfter } : {}) };
        return 0;
      },
    } as Partial<RetryOptions>;
  }

  /** Before each attempt (retries too): a slot of the rolling window, then the counters. */
  private async attemptStarting(state: AttemptState): Promise<void> {
    const { call } = state;
    state.hold = await this.limiter.attempt(call);
    call.attemptStarted();
    this.stats.attempts++;
    this.stats.inFlight++;
    if (call.traffic === 'sync') this.stats.syncAttempts++;
    this.onRequest?.({ kind: 'api', retry: state.sent++ > 0 });
  }

  /** Releases the attempt's slot and books its time, once (got may report an attempt's end twice). */
  private endAttempt(state: AttemptState): void {
    if (!state.hold) return;
    state.hold.release();
    delete state.hold;
    this.stats.inFlight--;
    state.call.attemptEnded();
  }

  private async attemptAll(request: OutgoingRequest, dnsLookup: EgressPermit['dnsLookup'], call: UpstreamCall): Promise<UpstreamAnswer> {
    const state: AttemptState = { call, sent: 0 };
    try {
      const response = await this.got(request.url, {
        method: request.method,
        ...(dnsLookup ? { dnsLookup } : {}),
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        ...(request.readOnly && !READ_METHODS.includes(request.method) ? { retry: { methods: [request.method] } } : {}),
        signal: call.signal,
        context: { attempt: state },
      });
      return { status: response.statusCode, headers: response.headers, text: response.body, json: parseJson(response.body) };
    } catch (error) {
      this.endAttempt(state);
      if (error instanceof HTTPError && request.emptyOn && matchesAny(request.emptyOn, error.response.statusCode, String(error.response.body ?? ''))) {
        return { status: error.response.statusCode, headers: error.response.headers, text: '', json: undefined, empty: true };
      }
      throw this.deadlineError(error, call, state) ?? this.toEngineError(error);
    }
  }

  /** The UPSTREAM_TIMEOUT of a call that stopped because of its deadline, if that is why it stopped. */
  private deadlineError(error: unknown, call: UpstreamCall, state: AttemptState): EngineError | undefined {
    if (state.stop) return call.exceeded(state.stop.kind, state.stop.neededMs, state.stop.retryAfterMs);
    const cause = error instanceof RequestError ? error.cause : undefined;
    if (cause instanceof EngineError && cause.deadline) return cause;
    if (error instanceof AbortError && call.signal.aborted) return call.signal.reason as EngineError;
    return undefined;
  }

  /** What a failed answer said, for the deadline error (redacted, like every upstream quote). */
  private upstreamInfo(error: HTTPError): UpstreamTimeoutError['upstream'] {
    const response = error.response;
    return upstreamError({ status: response.statusCode, headers: response.headers, text: String(response.body ?? '') }, this.policy, this.label, this.redact)
      .upstream;
  }

  private toEngineError(error: unknown): EngineError {
    if (error instanceof HTTPError) {
      const response = error.response;
      return upstreamError({ status: response.statusCode, headers: response.headers, text: String(response.body ?? '') }, this.policy, this.label, this.redact);
    }
    // A refusal at connect time (the guarded lookup) arrives wrapped in got's RequestError.
    if (error instanceof RequestError && error.cause instanceof EngineError) return error.cause;
    if (error instanceof TimeoutError) {
      return new UpstreamTimeoutError(`${this.label} did not answer within ${this.policy.timeout_ms} ms`, { cause: error });
    }
    if (error instanceof RequestError) {
      return new UpstreamError(this.redact(`${this.label} request failed: ${error.code ?? ''} ${error.message}`.trim()), {
        retryable: true,
        cause: error,
      });
    }
    if (error instanceof EngineError) return error;
    return new UpstreamError(this.redact(`${this.label} request failed: ${(error as Error)?.message ?? String(error)}`));
  }
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

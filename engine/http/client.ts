import got, { HTTPError, RequestError, TimeoutError, type Method, type RetryOptions } from 'got';
import { EngineError, UpstreamError, UpstreamTimeoutError } from '../errors.js';
import type { HostPurpose, HttpPolicy, ReauthMatcher } from '../manifest/index.js';
import { readPath } from './body-path.js';
import type { EgressPermit, EgressPolicy } from './egress-policy.js';
import { RequestLimiter } from './limiter.js';
import type { Redactor } from './redact.js';
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
}

// Node socket failures that mean "try again" (got's defaults plus a premature close mid-body).
const RETRY_ERROR_CODES = [
  'ETIMEDOUT', 'ECONNRESET', 'EADDRINUSE', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'ENETUNREACH', 'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED',
];

/** API calls go to the manifest's API hosts, or to the account's own host that a token answer names. */
const API_PURPOSES: HostPurpose[] = ['api', 'account'];

/**
 * The one way the engine talks HTTP to an upstream: got with the connector's policy (retries on
 * 429, listed statuses, timeouts and resets with exponential backoff and full jitter, Retry-After
 * honoured exactly up to the cap), the client-side rate limit and concurrency, and typed errors.
 */
export class HttpClient {
  readonly stats: HttpStats = { requests: 0, attempts: 0, retries: 0 };
  private readonly limiter: RequestLimiter;

  constructor(
    private readonly policy: HttpPolicy,
    private readonly label: string,
    private readonly redact: Redactor,
    private readonly egress: EgressPolicy,
    private readonly onRequest?: UpstreamRequestListener,
  ) {
    this.limiter = new RequestLimiter({
      ...(policy.rate_limit ? { requests: policy.rate_limit.requests, perMs: policy.rate_limit.per_ms } : {}),
      ...(policy.concurrency ? { concurrency: policy.concurrency } : {}),
    });
  }

  /**
   * Sends a request and returns the parsed answer, or throws the typed error for the failure. The
   * URL passes the egress policy first (HOST_NOT_ALLOWED otherwise), and every connection of every
   * attempt resolves its host through the policy's guarded lookup.
   */
  async send(request: OutgoingRequest): Promise<UpstreamAnswer> {
    const permit = this.egress.permit(request.url, API_PURPOSES);
    this.stats.requests++;
    return this.limiter.run(() => this.attemptAll(request, permit.dnsLookup));
  }

  private retryOptions(request: OutgoingRequest): Partial<RetryOptions> {
    const retry = this.policy.retry;
    const methods: Method[] = request.readOnly ? [request.method] : ['GET', 'HEAD', 'OPTIONS'];
    return {
      limit: retry.max_retries,
      methods,
      statusCodes: retry.statuses,
      errorCodes: RETRY_ERROR_CODES,
      maxRetryAfter: retry.retry_after_cap_ms,
      enforceRetryRules: true,
      calculateDelay: ({ attemptCount, computedValue, retryAfter }) => {
        if (computedValue === 0) return 0;
        if (retryAfter !== undefined && retryAfter > 0) return retryAfter;
        const ceiling = Math.min(retry.max_delay_ms, retry.base_delay_ms * 2 ** (attemptCount - 1));
        return Math.max(1, Math.round(Math.random() * ceiling));
      },
    } as Partial<RetryOptions>;
  }

  private async attemptAll(request: OutgoingRequest, dnsLookup: EgressPermit['dnsLookup']): Promise<UpstreamAnswer> {
    let attempts = 0;
    try {
      const response = await got(request.url, {
        method: request.method,
        ...(dnsLookup ? { dnsLookup } : {}),
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        responseType: 'text',
        throwHttpErrors: true,
        followRedirect: false,
        timeout: { request: this.policy.timeout_ms },
        retry: this.retryOptions(request),
        hooks: {
          beforeRequest: [
            async () => {
              this.stats.attempts++;
              await this.limiter.attempt();
              this.onRequest?.({ kind: 'api', retry: attempts++ > 0 });
            },
          ],
          beforeRetry: [
            () => {
              this.stats.retries++;
            },
          ],
        },
      });
      return { status: response.statusCode, headers: response.headers, text: response.body, json: parseJson(response.body) };
    } catch (error) {
      if (error instanceof HTTPError && request.emptyOn && matchesAny(request.emptyOn, error.response.statusCode, String(error.response.body ?? ''))) {
        return { status: error.response.statusCode, headers: error.response.headers, text: '', json: undefined, empty: true };
      }
      throw this.toEngineError(error);
    }
  }

  private toEngineError(error: unknown): EngineError {
    if (error instanceof HTTPError) {
      const response = error.response;
      return upstreamError(
        { status: response.statusCode, headers: response.headers, text: String(response.body ?? '') },
        this.policy,
        this.label,
        this.redact,
      );
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
  return matchers.some(
    (m) => (m.status === undefined || m.status === status) && (m.path === undefined || readPath(body, m.path) === m.equals),
  );
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

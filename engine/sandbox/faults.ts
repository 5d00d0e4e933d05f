/**
 * Fault switches for reliability tests (DESIGN.md §8: latency, 5xx bursts, 429 storms, resets,
 * truncated bodies).
 */
import type { RouteKind } from './router.js';

/** How a fault-injected 429 states when to retry. */
export type RetryAfterStyle = 'seconds' | 'http-date' | 'none';

/** Where a fault applies: API routes always; the OAuth token endpoint only with `includeAuth`. */
export interface FaultScope {
  includeAuth?: boolean;
}

/** Options of {@link Faults.rateLimitNext}. */
export interface RateLimitFaultOptions extends FaultScope {
  /** `seconds` (default): `Retry-After: <n>`; `http-date`: an IMF date; `none`: no header. */
  retryAfter?: RetryAfterStyle;
  /** Seconds to wait (default 1). */
  seconds?: number;
}

/** The switches a test flips on a fake (`fake.faults`). */
export interface Faults {
  /** Delays every later matching request by `ms` until {@link Faults.reset}. */
  latency(ms: number, scope?: FaultScope): void;
  /** Answers the next `count` requests with `status` (default 500) and the upstream's error body, or `body` (a string is sent as text/plain, anything else as JSON). */
  failNext(count: number, status?: number, body?: unknown, scope?: FaultScope): void;
  /** Answers the next `count` requests with the upstream's real 429 body and headers. */
  rateLimitNext(count: number, options?: RateLimitFaultOptions): void;
  /** Destroys the connection of the next `count` requests without any response. */
  resetNext(count: number, scope?: FaultScope): void;
  /** Sends the full Content-Length then half of the body of the next `count` responses, then destroys the socket. */
  truncateNext(count: number, scope?: FaultScope): void;
  /**
   * Leaves API requests whose path matches `path` unanswered, after letting the first `skip` of them
   * through, until {@link Faults.reset}. Why: a test can stop a client at an exact request (a page
   * boundary) and act on it there, e.g. kill the process, instead of racing it with a timer.
   */
  hold(path: RegExp, skip?: number): void;
  /** How many requests {@link Faults.hold} is holding now. Why: a test waits for a request to be held instead of sleeping. */
  readonly heldRequests: number;
  /**
   * How many held requests lost their connection while held (the client gave up), since the last
   * {@link Faults.reset}. Why: a test sees that a client cancelled its call, as the upstream would.
   */
  readonly abandonedHolds: number;
  /**
   * The latencies the fake slept before answering, in order, since the last {@link Faults.reset}.
   * Why: a test asserts the delay that was scheduled, not the wall time it took (which a loaded
   * machine stretches).
   */
  readonly delays: readonly number[];
  /** Switches every fault off, answers every held request and clears {@link Faults.delays}. */
  reset(): void;
}

/** A fault that replaces the handler's answer. */
export type PreemptiveFault = { kind: 'reset' } | { kind: 'rate-limit'; retryAfter: string | undefined } | { kind: 'fail'; status: number; body: unknown };

interface Armed<T> {
  remaining: number;
  includeAuth: boolean;
  detail: T;
}

function applies(scope: { includeAuth: boolean }, kind: RouteKind): boolean {
  return kind === 'api' || scope.includeAuth;
}

function assertCount(count: number): void {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`fault count must be a non-negative integer, got ${count}`);
}

/**
 * The fault state of one fake server. Counted faults are consumed in the order they were armed.
 * The server consults them per request in this order: latency, reset, 429, 5xx, then truncation
 * of whatever response results.
 */
export class FaultSwitches implements Faults {
  private latencyMs = 0;
  private latencyIncludesAuth = false;
  private resets: Array<Armed<null>> = [];
  private rateLimits: Array<Armed<{ style: RetryAfterStyle; seconds: number }>> = [];
  private failures: Array<Armed<{ status: number; body: unknown }>> = [];
  private truncations: Array<Armed<null>> = [];
  private holding: { path: RegExp; skip: number } | undefined;
  private abandoned = 0;
  private held: Array<() => void> = [];
  private readonly slept: number[] = [];

  get delays(): readonly number[] {
    return [...this.slept];
  }

  latency(ms: number, scope: FaultScope = {}): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be a non-negative number, got ${ms}`);
    this.latencyMs = ms;
    this.latencyIncludesAuth = scope.includeAuth ?? false;
  }

  failNext(count: number, status = 500, body?: unknown, scope: FaultScope = {}): void {
    assertCount(count);
    if (!Number.isInteger(status) || status < 100 || status > 599) throw new RangeError(`invalid status ${status}`);
    this.failures.push({ remaining: count, includeAuth: scope.includeAuth ?? false, detail: { status, body } });
  }

  rateLimitNext(count: number, options: RateLimitFaultOptions = {}): void {
    assertCount(count);
    const seconds = options.seconds ?? 1;
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`retry seconds must be non-negative, got ${seconds}`);
    this.rateLimits.push({
      remaining: count,
      includeAuth: options.includeAuth ?? false,
      detail: { style: options.retryAfter ?? 'seconds', seconds },
    });
  }

  resetNext(count: number, scope: FaultScope = {}): void {
    assertCount(count);
    this.resets.push({ remaining: count, includeAuth: scope.includeAuth ?? false, detail: null });
  }

  truncateNext(count: number, scope: FaultScope = {}): void {
    assertCount(count);
    this.truncations.push({ remaining: count, includeAuth: scope.includeAuth ?? false, detail: null });
  }

  hold(path: RegExp, skip = 0): void {
    assertCount(skip);
    this.holding = { path, skip };
  }

  get heldRequests(): number {
    return this.held.length;
  }

  get abandonedHolds(): number {
    return this.abandoned;
  }

  reset(): void {
    this.holding = undefined;
    for (const release of this.held.splice(0)) release();
    this.abandoned = 0;
    this.latencyMs = 0;
    this.latencyIncludesAuth = false;
    this.slept.length = 0;
    this.resets = [];
    this.rateLimits = [];
    this.failures = [];
    this.truncations = [];
  }

  /**
   * Resolves at once, or when {@link reset} runs if this request is to be held.
   * Why: held requests wait inside the server, so the client sees an upstream that has not answered yet.
   * `connection` is the request's response: its close before the release counts in {@link abandonedHolds}.
   */
  waitIfHeld(kind: RouteKind, path: string, connection: { once(event: 'close', listener: () => void): unknown }): Promise<void> {
    const holding = this.holding;
    if (!holding || kind !== 'api' || !holding.path.test(path)) return Promise.resolve();
    if (holding.skip > 0) {
      holding.skip -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let answered = false;
      this.held.push(() => {
        answered = true;
        resolve();
      });
      connection.once('close', () => {
        if (!answered) this.abandoned += 1;
      });
    });
  }

  /**
   * The delay to apply to a request on a route of `kind`, recorded in {@link delays}.
   * Why: the server sleeps before answering so clients see slow responses, not slow connects.
   */
  delayFor(kind: RouteKind): number {
    const delay = applies({ includeAuth: this.latencyIncludesAuth }, kind) ? this.latencyMs : 0;
    if (delay > 0) this.slept.push(delay);
    return delay;
  }

  /**
   * Consumes the fault (if any) that replaces the answer to this request.
   * Why: one request consumes at most one preemptive fault, so `failNext(3)` fails exactly three requests.
   */
  takePreemptive(kind: RouteKind, now: number = Date.now()): PreemptiveFault | undefined {
    if (take(this.resets, kind) !== undefined) return { kind: 'reset' };
    const limited = take(this.rateLimits, kind);
    if (limited) return { kind: 'rate-limit', retryAfter: retryAfterValue(limited.style, limited.seconds, now) };
    const failure = take(this.failures, kind);
    if (failure) return { kind: 'fail', status: failure.status, body: failure.body };
    return undefined;
  }

  /**
   * Consumes a truncation for this request, if armed.
   * Why: truncation applies to whatever response the request produced, so it is asked last.
   */
  takeTruncation(kind: RouteKind): boolean {
    return take(this.truncations, kind) !== undefined;
  }
}

function take<T>(queue: Array<Armed<T>>, kind: RouteKind): T | undefined {
  const index = queue.findIndex((entry) => entry.remaining > 0 && applies(entry, kind));
  if (index < 0) return undefined;
  const entry = queue[index]!;
  entry.remaining -= 1;
  if (entry.remaining === 0) queue.splice(index, 1);
  return entry.detail;
}

/**
 * The Retry-After header value for a style, or undefined for `none`.
 * Why: RFC 9110 allows delay-seconds or an HTTP-date; clients must handle both and the absence.
 */
export function retryAfterValue(style: RetryAfterStyle, seconds: number, now: number = Date.now()): string | undefined {
  if (style === 'none') return undefined;
  if (style === 'http-date') return new Date(now + Math.ceil(seconds) * 1000).toUTCString();
  return String(Math.ceil(seconds));
}

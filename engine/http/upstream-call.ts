import { systemClock, type Clock } from '../clock/index.js';
import type { CancelSource } from './caller-gone.js';
import { deadlinesOf, type Deadline } from './deadline-list.js';
import { CancelledError, UpstreamTimeoutError, type DeadlineReport, type UpstreamInfo } from '../errors.js';

/**
 * Who a call serves. `interactive` calls have someone waiting on them (an execute); `sync` calls
 * fill a synchronized copy in the background and yield the rate-limit budget to interactive ones
 * beyond their share (see limiter.ts).
 */
export type Traffic = 'interactive' | 'sync';

/** What a call's time can go to (DeadlineReport.waiting_for). */
export type WaitKind = DeadlineReport['waiting_for'];

/** The default deadline of one call: an interactive caller rarely waits longer (issue 11). */
export const DEFAULT_DEADLINE_MS = 30_000;

/** The longest deadline a call may ask for: setTimeout's limit (2^31 - 1 ms, about 24.8 days). */
export const MAX_DEADLINE_MS = 2_147_483_647;

type Spent = Record<Exclude<WaitKind, 'attempt'>, number>;

/** What ends a call before it is done: its deadline (UPSTREAM_TIMEOUT) or its caller's signal (CANCELLED). */
export type CallEnd = UpstreamTimeoutError | CancelledError;

/** Told when a call's deadline passes or it is cancelled, with the error it fails with. */
export type DeadlineListener = (reason: CallEnd) => void;

/**
 * One call (an execute, a page of records(), a download up to its first byte) as the HTTP layer
 * sees it: its traffic class, its deadline, and the ledger of where its time went. Every wait on
 * the way (the rate limiter, Retry-After, back-off, a refresh) and every attempt is bounded by
 * the one deadline: its listeners (`onDeadline`) and `signal` hear it, and a wait that would end
 * after it fails at once through `exceeded`. The caller's own AbortSignal, when it passes one,
 * ends the call the same way, with CANCELLED instead of UPSTREAM_TIMEOUT. Why listeners beside the signal: an AbortSignal and
 * its EventTarget listeners cost several µs per call, and most calls end without a wait; the
 * signal is made only when something asks for it (a sleep, a download).
 */
export class UpstreamCall {
  readonly startedAt: number;
  readonly at: number;
  private controller: AbortController | undefined;
  /** The UPSTREAM_TIMEOUT once the deadline has passed, or the CANCELLED once the caller's signal aborted. */
  private passed: CallEnd | undefined;
  private readonly listeners: DeadlineListener[] = [];
  /** This call's place in its clock's deadline list (one timer for every call in flight). */
  private readonly deadline: Deadline;
  private readonly spent: Spent = { rate_limiter: 0, retry_after: 0, backoff: 0, refresh: 0 };
  private attemptsMs = 0;
  private attemptCount = 0;
  /** When the attempt in flight started. */
  private attemptSince: number | undefined;
  private current: WaitKind = 'attempt';
  /** The last upstream failure, quoted in the deadline error (it is why the call kept trying). */
  lastUpstream?: UpstreamInfo;

  constructor(
    readonly label: string,
    readonly deadlineMs: number,
    readonly traffic: Traffic = 'interactive',
    /** Where the call reads time and schedules its deadline. */
    readonly clock: Clock = systemClock,
    /** The caller's signal (or the service's CallerGone): its abort ends the call with CANCELLED. */
    private readonly cancelSignal?: CancelSource,
  ) {
    this.startedAt = clock.now();
    this.at = this.startedAt + deadlineMs;
    this.deadline = { at: this.at, pass: () => this.end(this.exceeded()) };
    deadlinesOf(clock).add(this.deadline);
    if (cancelSignal?.aborted) this.cancel();
    else cancelSignal?.addEventListener('abort', this.cancel, { once: true });
  }

  private readonly cancel = (): void => {
    this.end(new CancelledError(`${this.label} was cancelled by its caller's signal`, { cause: this.cancelSignal?.reason }));
  };

  /** Aborts at the deadline or on cancel, with the error the call fails with as its reason. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.passed) this.controller.abort(this.passed);
    }
    return this.controller.signal;
  }

  /** The UPSTREAM_TIMEOUT the deadline passed with (or the CANCELLED), or undefined while neither happened. */
  get deadlineError(): CallEnd | undefined {
    return this.passed;
  }

  /** Calls `listener` when the deadline passes (once; never if it has passed already: check {@link deadlineError} first). */
  onDeadline(listener: DeadlineListener): void {
    this.listeners.push(listener);
  }

  /** Stops telling `listener` (the wait or attempt it bounds has ended). */
  offDeadline(listener: DeadlineListener): void {
    const at = this.listeners.lastIndexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  private end(error: CallEnd): void {
    if (this.passed) return;
    this.passed = error;
    deadlinesOf(this.clock).remove(this.deadline);
    this.controller?.abort(error);
    for (const listener of this.listeners.splice(0)) listener(error);
  }

  /** Milliseconds left (0 once past the deadline). */
  remaining(): number {
    return Math.max(0, this.at - this.clock.now());
  }

  /** True once the deadline has passed or the call was cancelled. */
  expired(): boolean {
    return this.passed !== undefined || this.clock.now() >= this.at;
  }

  /** Notes what the call does now, so a deadline that passes meanwhile can say so. */
  doing(kind: WaitKind): void {
    this.current = kind;
  }

  /** Adds time to one kind of wait in the ledger. */
  spend(kind: Exclude<WaitKind, 'attempt'>, ms: number): void {
    this.spent[kind] += Math.max(0, ms);
  }

  /** Counts one attempt going out now; `attemptEnded` books its time. */
  attemptStarted(): void {
    this.attemptEnded();
    this.attemptCount++;
    this.attemptSince = this.clock.now();
    this.doing('attempt');
  }

  /** Books the time of the attempt in flight, if any. */
  attemptEnded(): void {
    if (this.attemptSince === undefined) return;
    this.attemptsMs += this.clock.now() - this.attemptSince;
    this.attemptSince = undefined;
  }

  /**
   * Starts a wait of `ms` for `kind` if it ends before the deadline, and books it; returns false
   * (booking nothing) when it would end after it, so the caller fails at once instead of sleeping.
   */
  fits(kind: Exclude<WaitKind, 'attempt' | 'refresh'>, ms: number): boolean {
    if (ms > this.remaining()) return false;
    this.spend(kind, ms);
    this.doing(kind);
    return true;
  }

  /** Where the time went so far. */
  report(waitingFor: WaitKind = this.current, neededMs?: number): DeadlineReport {
    return {
      deadline_ms: this.deadlineMs,
      elapsed_ms: this.clock.now() - this.startedAt,
      waiting_for: waitingFor,
      ...(neededMs !== undefined ? { needed_ms: Math.round(neededMs) } : {}),
      rate_limiter_ms: Math.round(this.spent.rate_limiter),
      retry_after_ms: Math.round(this.spent.retry_after),
      backoff_ms: Math.round(this.spent.backoff),
      refresh_ms: Math.round(this.spent.refresh),
      attempts: this.attemptCount,
      attempts_ms: Math.round(this.attemptsMs + (this.attemptSince === undefined ? 0 : this.clock.now() - this.attemptSince)),
    };
  }

  /** What a wait that cannot go on fails with: the CANCELLED if the call was cancelled, else its UPSTREAM_TIMEOUT (see {@link exceeded}). */
  failure(waitingFor: WaitKind = this.current, neededMs?: number): CallEnd {
    return this.passed instanceof CancelledError ? this.passed : this.exceeded(waitingFor, neededMs);
  }

  /**
   * The UPSTREAM_TIMEOUT of this call: the deadline passed while it was `waitingFor`, or a wait of
   * `neededMs` would have ended after it. `retryAfterMs` passes on an upstream's Retry-After.
   */
  exceeded(waitingFor: WaitKind = this.current, neededMs?: number, retryAfterMs?: number): UpstreamTimeoutError {
    const report = this.report(waitingFor, neededMs);
    const cause =
      neededMs !== undefined ? `waiting ${Math.round(neededMs)} ms more on ${DESCRIBE[waitingFor]} would pass it` : `it passed while ${DOING[waitingFor]}`;
    return new UpstreamTimeoutError(`${this.label} did not finish within its ${this.deadlineMs} ms deadline: ${cause} (${ledger(report)})`, {
      deadline: report,
      ...(this.lastUpstream ? { upstream: this.lastUpstream } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }

  /**
   * Settles with `work`, or rejects with this call's UPSTREAM_TIMEOUT when the deadline passes
   * first. `work` is not cancelled (a token refresh in flight must finish: its answer may hold the
   * only valid refresh token); its late outcome is ignored.
   */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.passed) return reject(this.passed);
      this.onDeadline(reject);
      work.then(
        (value) => {
          this.offDeadline(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.offDeadline(reject);
          reject(error);
        },
      );
    });
  }

  /** Ends the call: its deadline no longer fires, nor its signal (a download's stream outlives it). */
  finish(): void {
    deadlinesOf(this.clock).remove(this.deadline);
    this.cancelSignal?.removeEventListener('abort', this.cancel);
  }
}

const DESCRIBE: Record<WaitKind, string> = {
  rate_limiter: 'the rate limiter',
  retry_after: "the upstream's Retry-After",
  backoff: 'back-off before a retry',
  attempt: 'an attempt',
  refresh: 'a token refresh',
};

const DOING: Record<WaitKind, string> = {
  rate_limiter: 'waiting on the rate limiter',
  retry_after: "waiting on the upstream's Retry-After",
  backoff: 'backing off before a retry',
  attempt: 'waiting for an answer',
  refresh: 'waiting for a token refresh',
};

function ledger(report: DeadlineReport): string {
  return [
    `${report.rate_limiter_ms} ms on the rate limiter`,
    `${report.retry_after_ms} ms on Retry-After`,
    `${report.backoff_ms} ms on back-off`,
    `${report.attempts} attempt${report.attempts === 1 ? '' : 's'} in ${report.attempts_ms} ms`,
    ...(report.refresh_ms > 0 ? [`${report.refresh_ms} ms on token refresh`] : []),
  ].join(', ');
}

/**
 * Every failure the engine can raise, as one const table (code -> HTTP status, retryable) and one
 * typed error class per failure kind. The hosted API maps `status` straight to its response status,
 * so the table is the single place where codes meet statuses.
 */

export const ERROR_CODES = {
  INVALID_REQUEST: { status: 400, retryable: false },
  REQUEST_TOO_COMPLEX: { status: 400, retryable: false },
  UNKNOWN_CONNECTOR_TYPE: { status: 400, retryable: false },
  UNKNOWN_ENTITY: { status: 400, retryable: false },
  UNSUPPORTED_ACTION: { status: 400, retryable: false },
  INVALID_PARAMS: { status: 400, retryable: false },
  INVALID_CONFIG: { status: 400, retryable: false },
  INVALID_CREDENTIALS: { status: 400, retryable: false },
  SEARCH_UNAVAILABLE: { status: 400, retryable: false },
  UPSTREAM_REJECTED: { status: 400, retryable: false },
  AUTHORIZATION_FAILED: { status: 400, retryable: false },
  UNAUTHENTICATED: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  AUTHORIZATION_DENIED: { status: 403, retryable: false },
  CONNECTOR_NOT_FOUND: { status: 404, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false },
  REQUEST_TIMEOUT: { status: 408, retryable: true },
  REAUTH_REQUIRED: { status: 409, retryable: false },
  CONNECTOR_LIMIT_REACHED: { status: 409, retryable: false },
  AMBIGUOUS_CONNECTOR: { status: 409, retryable: false },
  SEARCH_NOT_READY: { status: 409, retryable: true },
  CONNECT_SESSION_EXPIRED: { status: 410, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  URI_TOO_LONG: { status: 414, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false },
  EXPECTATION_FAILED: { status: 417, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  HEADERS_TOO_LARGE: { status: 431, retryable: false },
  INTERNAL: { status: 500, retryable: false },
  MANIFEST_INVALID: { status: 500, retryable: false },
  UPSTREAM_ERROR: { status: 502, retryable: false },
  PAGINATION_LOOP: { status: 502, retryable: false },
  HOST_NOT_ALLOWED: { status: 502, retryable: false },
  SERVICE_UNAVAILABLE: { status: 503, retryable: true },
  UPSTREAM_TIMEOUT: { status: 504, retryable: true },
  CANCELLED: { status: 499, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem inside a request or a manifest, located by a JSON-pointer-like path. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * Where the time of a call that ran out of its deadline went (UPSTREAM_TIMEOUT), so the caller
 * sees what it waited for: the client-side rate limiter, the upstream's Retry-After, back-off
 * between retries, the attempts themselves, or a token refresh.
 */
export interface DeadlineReport {
  /** The call's deadline. */
  deadline_ms: number;
  /** Time from the start of the call until it stopped. */
  elapsed_ms: number;
  /** What the call was doing, or was about to wait for, when it stopped. */
  waiting_for: 'rate_limiter' | 'retry_after' | 'backoff' | 'attempt' | 'refresh';
  /** A wait that would have ended past the deadline, so the call stopped at once instead. */
  needed_ms?: number;
  rate_limiter_ms: number;
  retry_after_ms: number;
  backoff_ms: number;
  refresh_ms: number;
  /** Attempts sent to the upstream, and the time they took. */
  attempts: number;
  attempts_ms: number;
}

/** What the upstream said, already redacted and truncated. */
export interface UpstreamInfo {
  status: number;
  message: string;
  request_id?: string;
}

export interface EngineErrorOptions {
  details?: ErrorDetail[];
  /**
   * How many problems there were in all, when the caller collected only some of them (the search
   * parser keeps a bounded list); the error then reports the rest as a count.
   */
  detailsTotal?: number;
  /** The hosted API's id of the request that failed (an error rebuilt from a hosted answer). */
  requestId?: string;
  upstream?: UpstreamInfo;
  retryAfterMs?: number;
  retryable?: boolean;
  /** SEARCH_NOT_READY: the entity's sync state, so the caller sees how far the copy is. */
  sync?: Record<string, unknown>;
  /** UPSTREAM_TIMEOUT of a call past its deadline: where its time went. */
  deadline?: DeadlineReport;
  cause?: unknown;
}

/**
 * Bounds on what one error carries, so that a hostile request (80,000 unknown params, a key of a
 * megabyte) cannot make a huge answer or a huge log line: at most this many details, each path and
 * message clipped, the rest reported as `details_omitted`.
 */
export const ERROR_LIMITS = { maxDetails: 20, maxPathLength: 256, maxDetailMessageLength: 512, maxMessageLength: 1000 } as const;

/** Shortens text to `max` UTF-16 units with an ellipsis, never splitting a surrogate pair. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 3;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}...`;
}

/**
 * A one-line summary of problems for an error message: the first few, then how many more, so a
 * message stays short however many problems the details hold.
 */
export function summarizeDetails(details: readonly ErrorDetail[], shown = 3): string {
  const head = details
    .slice(0, shown)
    .map((d) => `${clipText(d.path, 80)} ${clipText(d.message, 160)}`)
    .join('; ');
  return details.length > shown ? `${head} (and ${details.length - shown} more)` : head;
}

function boundedDetails(details: readonly ErrorDetail[]): ErrorDetail[] {
  return details.slice(0, ERROR_LIMITS.maxDetails).map((d) => ({
    path: clipText(String(d.path), ERROR_LIMITS.maxPathLength),
    message: clipText(String(d.message), ERROR_LIMITS.maxDetailMessageLength),
  }));
}

/**
 * Base of every error the engine throws; callers switch on `code`, which never changes meaning,
 * rather than on the message, which may be reworded.
 */
export class EngineError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details?: ErrorDetail[];
  /** Problems left out of `details` (see ERROR_LIMITS). */
  readonly detailsOmitted?: number;
  readonly upstream?: UpstreamInfo;
  readonly retryAfterMs?: number;
  readonly sync?: Record<string, unknown>;
  readonly deadline?: DeadlineReport;
  readonly requestId?: string;

  constructor(code: ErrorCode, message: string, options: EngineErrorOptions = {}) {
    super(clipText(message, ERROR_LIMITS.maxMessageLength), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    if (options.details) {
      this.details = boundedDetails(options.details);
      const omitted = Math.max(options.detailsTotal ?? 0, options.details.length) - this.details.length;
      if (omitted > 0) this.detailsOmitted = omitted;
    }
    if (options.requestId) this.requestId = options.requestId;
    if (options.upstream) this.upstream = options.upstream;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.sync) this.sync = options.sync;
    if (options.deadline) this.deadline = options.deadline;
  }

  /** The body shape of DESIGN.md §6, so the library and the hosted API report errors alike. */
  toJSON(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
    };
    if (this.retryAfterMs !== undefined) error.retry_after_ms = this.retryAfterMs;
    if (this.details) error.details = this.details;
    if (this.detailsOmitted) error.details_omitted = this.detailsOmitted;
    if (this.upstream) error.upstream = this.upstream;
    if (this.sync) error.sync = this.sync;
    if (this.deadline) error.deadline = this.deadline;
    if (this.requestId) error.request_id = this.requestId;
    return { error };
  }
}

function kind<C extends ErrorCode>(code: C) {
  return class extends EngineError {
    declare readonly code: C;
    constructor(message: string, options: EngineErrorOptions = {}) {
      super(code, message, options);
    }
  };
}

/** The request itself is malformed (hosted API bodies). */
export class InvalidRequestError extends kind('INVALID_REQUEST') {}
/** A request body nests too deep or holds too many values (hosted API; see json-limits.ts). */
export class RequestTooComplexError extends kind('REQUEST_TOO_COMPLEX') {}
/** `connect()` was given a type no manifest declares. */
export class UnknownConnectorTypeError extends kind('UNKNOWN_CONNECTOR_TYPE') {}
/** The entity is not in the connector's manifest. */
export class UnknownEntityError extends kind('UNKNOWN_ENTITY') {}
/** The entity exists but does not offer that action. */
export class UnsupportedActionError extends kind('UNSUPPORTED_ACTION') {}
/** Params failed the action's schema or rules; `details` lists every problem. */
export class InvalidParamsError extends kind('INVALID_PARAMS') {}
/** Connector config failed the manifest's config schema. */
export class InvalidConfigError extends kind('INVALID_CONFIG') {}
/** Credentials match none of the manifest's auth schemes. */
export class InvalidCredentialsError extends kind('INVALID_CREDENTIALS') {}
/** `search` was asked for without a synchronized copy (no store). */
export class SearchUnavailableError extends kind('SEARCH_UNAVAILABLE') {}
/** The caller of the hosted API is not authenticated. */
export class UnauthenticatedError extends kind('UNAUTHENTICATED') {}
/** The upstream (or the hosted API) refused access with the credentials given. */
export class ForbiddenError extends kind('FORBIDDEN') {}
/** The user refused the app on the upstream's consent page (the callback said error=access_denied). */
export class AuthorizationDeniedError extends kind('AUTHORIZATION_DENIED') {}
/** No connector with that id for this user. */
export class ConnectorNotFoundError extends kind('CONNECTOR_NOT_FOUND') {}
/** The upstream has no such record. */
export class NotFoundError extends kind('NOT_FOUND') {}
/** The route exists but not with this HTTP method (the MCP endpoint takes POST only). */
export class MethodNotAllowedError extends kind('METHOD_NOT_ALLOWED') {}
/** The credentials can no longer be used or refreshed; the end user must authorize again. */
export class ReauthRequiredError extends kind('REAUTH_REQUIRED') {}
/** The end user already holds as many connectors as one tenant may; delete one first. */
export class ConnectorLimitReachedError extends kind('CONNECTOR_LIMIT_REACHED') {}
/** The user holds several connectors of the type and the hosted client was not told which one; `details` lists them. */
export class AmbiguousConnectorError extends kind('AMBIGUOUS_CONNECTOR') {}
/** The client sent its request too slowly (the HTTP server's request timeout). */
export class RequestTimeoutError extends kind('REQUEST_TIMEOUT') {}
/** The synchronized copy is not complete yet. */
export class SearchNotReadyError extends kind('SEARCH_NOT_READY') {}
/** A request body is over the limit. */
/** A Connect page link past its lifetime, or already used to create a connector: the platform creates a new session. */
export class ConnectSessionExpiredError extends kind('CONNECT_SESSION_EXPIRED') {}

export class PayloadTooLargeError extends kind('PAYLOAD_TOO_LARGE') {}
/** A path segment (a connector id) is longer than the router takes. */
export class UriTooLongError extends kind('URI_TOO_LONG') {}
/** A request body in a media type other than application/json. */
export class UnsupportedMediaTypeError extends kind('UNSUPPORTED_MEDIA_TYPE') {}
/** An `Expect` header other than 100-continue, which is the only expectation HTTP defines. */
export class ExpectationFailedError extends kind('EXPECTATION_FAILED') {}
/** The upstream kept answering 429, or asked for a wait longer than the cap. */
export class RateLimitedError extends kind('RATE_LIMITED') {}
/** The request line and headers (query string included) are larger than the HTTP server takes. */
export class HeadersTooLargeError extends kind('HEADERS_TOO_LARGE') {}
/** A bug or an unexpected condition inside the engine. */
export class InternalError extends kind('INTERNAL') {}
/** A manifest failed validation; `details` locates every problem as file:line:col. */
export class ManifestInvalidError extends kind('MANIFEST_INVALID') {}
/**
 * The upstream refused the request as invalid (400, 416, 422): a value it does not take (an id of
 * the wrong form, an expired page token, a range past the end). The caller changes the request;
 * `upstream.message` says what the upstream objected to.
 */
export class UpstreamRejectedError extends kind('UPSTREAM_REJECTED') {}
/**
 * An OAuth authorization could not be finished: the callback's state is not the one sent, it
 * carries no code, or the upstream refused the code (expired, already used, another redirect URI,
 * a PKCE verifier that does not match, a wrong client secret). The user starts over;
 * `upstream.message` says what the upstream objected to.
 */
export class AuthorizationFailedError extends kind('AUTHORIZATION_FAILED') {}
/** The upstream failed or answered something the manifest does not describe. */
export class UpstreamError extends kind('UPSTREAM_ERROR') {}
/** The upstream handed back a page token it had already given: following it would never end. */
export class PaginationLoopError extends kind('PAGINATION_LOOP') {}
/**
 * An outbound request was refused before it connected: its URL or the address its host resolved
 * to breaks the connector's egress rules (https, the manifest's hosts for that purpose, a public
 * unicast address). The message names the purpose, host, port and rule, never the query string.
 */
export class HostNotAllowedError extends kind('HOST_NOT_ALLOWED') {}
/**
 * The hosted service is shutting down (another instance, or this one restarted, will answer), or the
 * database session of the call ended under it (the next call gets a fresh one).
 */
export class ServiceUnavailableError extends kind('SERVICE_UNAVAILABLE') {}
/**
 * The upstream did not answer in time, even after retries, or the call's deadline would pass
 * before it could (`deadline` says what it waited for).
 */
export class UpstreamTimeoutError extends kind('UPSTREAM_TIMEOUT') {}
/**
 * The caller cancelled the call through its `signal` (or the sync runner did, stopping): every
 * wait ended and the attempt in flight was aborted. Retryable: the upstream refused nothing.
 * Status 499 as nginx and tRPC use it (the client closed the request).
 */
export class CancelledError extends kind('CANCELLED') {}

const CLASSES: Record<ErrorCode, new (message: string, options?: EngineErrorOptions) => EngineError> = {
  INVALID_REQUEST: InvalidRequestError,
  REQUEST_TOO_COMPLEX: RequestTooComplexError,
  UNKNOWN_CONNECTOR_TYPE: UnknownConnectorTypeError,
  UNKNOWN_ENTITY: UnknownEntityError,
  UNSUPPORTED_ACTION: UnsupportedActionError,
  INVALID_PARAMS: InvalidParamsError,
  INVALID_CONFIG: InvalidConfigError,
  INVALID_CREDENTIALS: InvalidCredentialsError,
  SEARCH_UNAVAILABLE: SearchUnavailableError,
  UPSTREAM_REJECTED: UpstreamRejectedError,
  AUTHORIZATION_FAILED: AuthorizationFailedError,
  UNAUTHENTICATED: UnauthenticatedError,
  FORBIDDEN: ForbiddenError,
  AUTHORIZATION_DENIED: AuthorizationDeniedError,
  CONNECTOR_NOT_FOUND: ConnectorNotFoundError,
  NOT_FOUND: NotFoundError,
  METHOD_NOT_ALLOWED: MethodNotAllowedError,
  REQUEST_TIMEOUT: RequestTimeoutError,
  REAUTH_REQUIRED: ReauthRequiredError,
  CONNECTOR_LIMIT_REACHED: ConnectorLimitReachedError,
  AMBIGUOUS_CONNECTOR: AmbiguousConnectorError,
  SEARCH_NOT_READY: SearchNotReadyError,
  CONNECT_SESSION_EXPIRED: ConnectSessionExpiredError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  URI_TOO_LONG: UriTooLongError,
  UNSUPPORTED_MEDIA_TYPE: UnsupportedMediaTypeError,
  EXPECTATION_FAILED: ExpectationFailedError,
  RATE_LIMITED: RateLimitedError,
  HEADERS_TOO_LARGE: HeadersTooLargeError,
  INTERNAL: InternalError,
  MANIFEST_INVALID: ManifestInvalidError,
  UPSTREAM_ERROR: UpstreamError,
  PAGINATION_LOOP: PaginationLoopError,
  HOST_NOT_ALLOWED: HostNotAllowedError,
  SERVICE_UNAVAILABLE: ServiceUnavailableError,
  UPSTREAM_TIMEOUT: UpstreamTimeoutError,
  CANCELLED: CancelledError,
};

/** Builds the typed error for a code chosen at run time (e.g. from a manifest's error map). */
export function errorFor(code: ErrorCode, message: string, options: EngineErrorOptions = {}): EngineError {
  return new CLASSES[code](message, options);
}

/** True for codes a manifest may name in its error map. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/**
 * Every failure the engine can raise, as one const table (code -> HTTP status, retryable) and one
 * typed error class per failure kind. The hosted API maps `status` straight to its response status,
 * so the table is the single place where codes meet statuses.
 */

export const ERROR_CODES = {
  INVALID_REQUEST: { status: 400, retryable: false },
  UNKNOWN_CONNECTOR_TYPE: { status: 400, retryable: false },
  UNKNOWN_ENTITY: { status: 400, retryable: false },
  UNSUPPORTED_ACTION: { status: 400, retryable: false },
  INVALID_PARAMS: { status: 400, retryable: false },
  INVALID_CONFIG: { status: 400, retryable: false },
  INVALID_CREDENTIALS: { status: 400, retryable: false },
  SEARCH_UNAVAILABLE: { status: 400, retryable: false },
  UNAUTHENTICATED: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  CONNECTOR_NOT_FOUND: { status: 404, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  REAUTH_REQUIRED: { status: 409, retryable: false },
  CONNECTOR_LIMIT_REACHED: { status: 409, retryable: false },
  SEARCH_NOT_READY: { status: 409, retryable: true },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  INTERNAL: { status: 500, retryable: false },
  MANIFEST_INVALID: { status: 500, retryable: false },
  UPSTREAM_ERROR: { status: 502, retryable: false },
  PAGINATION_LOOP: { status: 502, retryable: false },
  HOST_NOT_ALLOWED: { status: 502, retryable: false },
  UPSTREAM_TIMEOUT: { status: 504, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem inside a request or a manifest, located by a JSON-pointer-like path. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** What the upstream said, already redacted and truncated. */
export interface UpstreamInfo {
  status: number;
  message: string;
  request_id?: string;
}

export interface EngineErrorOptions {
  details?: ErrorDetail[];
  upstream?: UpstreamInfo;
  retryAfterMs?: number;
  retryable?: boolean;
  /** SEARCH_NOT_READY: the entity's sync state, so the caller sees how far the copy is. */
  sync?: Record<string, unknown>;
  cause?: unknown;
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
  readonly upstream?: UpstreamInfo;
  readonly retryAfterMs?: number;
  readonly sync?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: EngineErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    if (options.details) this.details = options.details;
    if (options.upstream) this.upstream = options.upstream;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.sync) this.sync = options.sync;
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
    if (this.upstream) error.upstream = this.upstream;
    if (this.sync) error.sync = this.sync;
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
/** No connector with that id for this user. */
export class ConnectorNotFoundError extends kind('CONNECTOR_NOT_FOUND') {}
/** The upstream has no such record. */
export class NotFoundError extends kind('NOT_FOUND') {}
/** The credentials can no longer be used or refreshed; the end user must authorize again. */
export class ReauthRequiredError extends kind('REAUTH_REQUIRED') {}
/** The end user already holds as many connectors as one tenant may; delete one first. */
export class ConnectorLimitReachedError extends kind('CONNECTOR_LIMIT_REACHED') {}
/** The synchronized copy is not complete yet. */
export class SearchNotReadyError extends kind('SEARCH_NOT_READY') {}
/** A request body is over the limit. */
export class PayloadTooLargeError extends kind('PAYLOAD_TOO_LARGE') {}
/** The upstream kept answering 429, or asked for a wait longer than the cap. */
export class RateLimitedError extends kind('RATE_LIMITED') {}
/** A bug or an unexpected condition inside the engine. */
export class InternalError extends kind('INTERNAL') {}
/** A manifest failed validation; `details` locates every problem as file:line:col. */
export class ManifestInvalidError extends kind('MANIFEST_INVALID') {}
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
/** The upstream did not answer in time, even after retries. */
export class UpstreamTimeoutError extends kind('UPSTREAM_TIMEOUT') {}

const CLASSES: Record<ErrorCode, new (message: string, options?: EngineErrorOptions) => EngineError> = {
  INVALID_REQUEST: InvalidRequestError,
  UNKNOWN_CONNECTOR_TYPE: UnknownConnectorTypeError,
  UNKNOWN_ENTITY: UnknownEntityError,
  UNSUPPORTED_ACTION: UnsupportedActionError,
  INVALID_PARAMS: InvalidParamsError,
  INVALID_CONFIG: InvalidConfigError,
  INVALID_CREDENTIALS: InvalidCredentialsError,
  SEARCH_UNAVAILABLE: SearchUnavailableError,
  UNAUTHENTICATED: UnauthenticatedError,
  FORBIDDEN: ForbiddenError,
  CONNECTOR_NOT_FOUND: ConnectorNotFoundError,
  NOT_FOUND: NotFoundError,
  REAUTH_REQUIRED: ReauthRequiredError,
  CONNECTOR_LIMIT_REACHED: ConnectorLimitReachedError,
  SEARCH_NOT_READY: SearchNotReadyError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  RATE_LIMITED: RateLimitedError,
  INTERNAL: InternalError,
  MANIFEST_INVALID: ManifestInvalidError,
  UPSTREAM_ERROR: UpstreamError,
  PAGINATION_LOOP: PaginationLoopError,
  HOST_NOT_ALLOWED: HostNotAllowedError,
  UPSTREAM_TIMEOUT: UpstreamTimeoutError,
};

/** Builds the typed error for a code chosen at run time (e.g. from a manifest's error map). */
export function errorFor(code: ErrorCode, message: string, options: EngineErrorOptions = {}): EngineError {
  return new CLASSES[code](message, options);
}

/** True for codes a manifest may name in its error map. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

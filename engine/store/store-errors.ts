import { EngineError, ServiceUnavailableError, type EngineErrorOptions } from '../errors.js';

/**
 * Encrypted data could not be decrypted: it was altered, is not in a known format, or was
 * encrypted under another key. Nothing a tenant can fix, hence INTERNAL; callers catch it by class
 * to tell a key or tampering problem apart from other failures.
 */
export class DecryptionError extends EngineError {
  constructor(message: string, options: EngineErrorOptions = {}) {
    super('INTERNAL', message, options);
  }
}

/**
 * The store cannot be opened as configured: an unsupported database URL, a schema newer than this
 * engine, or an unusable encryption key. Raised at start-up, so the operator sees it at once.
 */
export class StoreSetupError extends EngineError {
  constructor(message: string, options: EngineErrorOptions = {}) {
    super('INTERNAL', message, options);
  }
}

/**
 * A session the database could not open: PostgreSQL's SQLSTATE 57P03 (cannot connect now: starting
 * up, shutting down) and 08001/08004 (could not establish, refused), and the socket errors of a
 * connect. Codes from PostgreSQL's errcodes (Appendix A).
 */
const UNREACHABLE = /^(57P03|08001|08004|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
/**
 * A session that ended under its call: 57P01/57P02 (administrator or crash shutdown: a terminated
 * backend, a restart), any other 08 connection exception, and the socket errors an ended session
 * reaches the driver as when its last message is not read first.
 */
const SESSION_LOST = /^(57P01|57P02|08\w{3}|ECONNRESET|EPIPE)$/;

/**
 * The database could not serve the call: its session ended under it (terminated, a server
 * restart, a failover) or none could be opened. SERVICE_UNAVAILABLE, retryable: the next call gets
 * a fresh session. Undefined for any other failure. Why: the hosted API, the sync runner, the CLI
 * and MCP turn unknown failures into INTERNAL, which reads as a bug and tells a retry policy not to
 * retry. Upstream calls never fail with these raw: the HTTP client wraps them in its own errors.
 * The driver's message is not passed on (it can name the database host); it stays as the cause.
 */
export function storeUnavailable(error: unknown): EngineError | undefined {
  if (!(error instanceof Error) || error instanceof EngineError) return undefined;
  const code = (error as { code?: unknown }).code;
  const text = typeof code === 'string' ? code : '';
  if (UNREACHABLE.test(text)) return new ServiceUnavailableError('the database cannot be reached; retry the call once it is up', { cause: error });
  if (SESSION_LOST.test(text) || /^Connection terminated/.test(error.message)) {
    return new ServiceUnavailableError('the database session ended; retry the call', { cause: error });
  }
  return undefined;
}

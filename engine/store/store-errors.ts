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
 * SQLSTATE classes of a lost database session, from PostgreSQL's errcodes (Appendix A): 08
 * connection exception, 57P01-57P03 admin shutdown, crash shutdown, cannot connect now (a
 * terminated backend or a restart); and the socket errors a session's end reaches the driver as
 * when the server's last message is not read first. Upstream calls never fail with these raw: the
 * HTTP client wraps them in its own errors.
 */
const SESSION_LOST_STATE = /^(08|57P0[1-3]|ECONNRESET$|ECONNREFUSED$|EPIPE$)/;

/**
 * The call's database session ended under it (terminated, a server restart, a failover) or could
 * not be opened: SERVICE_UNAVAILABLE, retryable, as the next call gets a fresh session. Undefined
 * for any other failure. Why here: the hosted API and the sync runner turn unknown failures into
 * INTERNAL, which tells the caller nothing and a retry policy not to retry. The driver's message is
 * not passed on; it can name the database host.
 */
export function storeUnavailable(error: unknown): EngineError | undefined {
  if (!(error instanceof Error) || error instanceof EngineError) return undefined;
  const state = (error as { code?: unknown }).code;
  const lost = (typeof state === 'string' && SESSION_LOST_STATE.test(state)) || /^Connection terminated/.test(error.message);
  return lost ? new ServiceUnavailableError('the database session ended; retry the call', { cause: error }) : undefined;
}

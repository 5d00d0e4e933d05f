import { EngineError, type EngineErrorOptions } from '../errors.js';

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

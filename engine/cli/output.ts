import { EngineError, InvalidRequestError, ServiceUnavailableError } from '../errors.js';
import { storeUnavailable } from '../store/index.js';

/** Prints a value as JSON on stdout, the format every command uses for results. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/**
 * Prints an error as the same JSON body the hosted API uses, on stderr, and sets a non-zero exit
 * code, so scripts can branch on `error.code`.
 */
export function printError(error: unknown): void {
  const known = error instanceof EngineError ? error : operatorView(storeUnavailable(error), error);
  const body = known ? known.toJSON() : { error: { code: 'INTERNAL', message: (error as Error)?.message ?? String(error), retryable: false } };
  process.stderr.write(JSON.stringify(body, null, 2) + '\n');
  process.exitCode = known && known.code !== 'INTERNAL' ? 1 : 70;
}

/** A database failure as the operator at the terminal sees it: with the driver's reason, which names the database they gave. */
function operatorView(unavailable: EngineError | undefined, cause: unknown): EngineError | undefined {
  if (!unavailable) return undefined;
  return new ServiceUnavailableError(`${unavailable.message} (${(cause as Error).message})`, { cause });
}

/** Parses a JSON option, naming the option when it is not valid JSON. */
export function parseJsonOption(name: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError(`--${name} is not valid JSON: ${(error as Error).message}`, {
      details: [{ path: `--${name}`, message: 'must be a JSON object' }],
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidRequestError(`--${name} must be a JSON object`, { details: [{ path: `--${name}`, message: 'must be a JSON object' }] });
  }
  return value as Record<string, unknown>;
}

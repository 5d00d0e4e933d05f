import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../errors.js';
import { isStorableText } from '../store/index.js';

/** Whether a parsed URL value (a string, or the strings of a repeated query key) holds only storable text. */
function storableValue(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (Array.isArray(value)) return value.every((text) => typeof text !== 'string' || isStorableText(text));
  return true;
}

/**
 * The first key whose name or value holds unstorable text, or undefined. A plain loop over the
 * keys: this runs on every request, and most have one parameter and no query.
 */
function unstorableKey(values: unknown): string | undefined {
  if (!values || typeof values !== 'object') return undefined;
  for (const key of Object.keys(values)) {
    if (!isStorableText(key) || !storableValue((values as Record<string, unknown>)[key])) return key;
  }
  return undefined;
}

/**
 * Where unstorable text sits: `/<name>` for a path parameter (names come from the routes), just
 * `?` for the query string, whose keys are caller input and are not echoed.
 */
function unstorableAt(params: unknown, query: unknown): string | undefined {
  const param = unstorableKey(params);
  if (param !== undefined) return `/${param}`;
  return unstorableKey(query) === undefined ? undefined : '?';
}

/**
 * Refuses path parameters and query values holding text the stores cannot keep (`%00` decodes to
 * U+0000, which PostgreSQL refuses inside a query: a 500 before this check). Runs before the body
 * is read, so such a request costs nothing more. A callback hook: it runs on every request, where
 * an async one would cost a promise each time.
 */
export function registerUrlTextCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const at = unstorableAt(request.params, request.query);
    if (at !== undefined) {
      const message = 'contains U+0000 or an unpaired surrogate, which no stored text can hold';
      done(new InvalidRequestError(`the URL ${message}`, { details: [{ path: at, message }] }));
      return;
    }
    done();
  });
}

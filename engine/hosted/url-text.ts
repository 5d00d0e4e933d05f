import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../errors.js';
import { isStorableText } from '../store/index.js';

/**
 * Where unstorable text sits: `/<name>` for a path parameter (names come from the routes), just
 * `?` for the query string, whose keys are caller input and are not echoed.
 */
function unstorableIn(values: unknown, where: (key: string) => string): string | undefined {
  if (!values || typeof values !== 'object') return undefined;
  for (const [key, value] of Object.entries(values)) {
    const texts = Array.isArray(value) ? value : [value];
    if (!isStorableText(key) || texts.some((text) => typeof text === 'string' && !isStorableText(text))) return where(key);
  }
  return undefined;
}

/**
 * Refuses path parameters and query values holding text the stores cannot keep (`%00` decodes to
 * U+0000, which PostgreSQL refuses inside a query: a 500 before this check). Runs before the body
 * is read, so such a request costs nothing more.
 */
export function registerUrlTextCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const at = unstorableIn(request.params, (name) => `/${name}`) ?? unstorableIn(request.query, () => '?');
    if (at !== undefined) {
      const message = 'contains U+0000 or an unpaired surrogate, which no stored text can hold';
      throw new InvalidRequestError(`the URL ${message}`, { details: [{ path: at, message }] });
    }
  });
}

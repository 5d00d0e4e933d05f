import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/**
 * What the engine calls itself to upstreams, e.g. `connector-engine/0.1.0`. An API's operators see
 * which client sent a request, and some APIs refuse requests that name none; undici, unlike got
 * before it, sends no User-Agent of its own.
 */
export const USER_AGENT = `connector-engine/${(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version}`;

/**
 * The request's headers plus the client's own defaults the request does not set itself
 * (manifest header names are lower-cased at load; a caller's other spelling still wins).
 */
export function withClientHeaders(headers: Record<string, string>, defaults: Record<string, string>): Record<string, string> {
  let missing: Record<string, string> | undefined;
  for (const name in defaults) {
    if (headers[name] !== undefined || Object.keys(headers).some((key) => key.toLowerCase() === name)) continue;
    (missing ??= {})[name] = defaults[name]!;
  }
  return missing ? { ...missing, ...headers } : headers;
}

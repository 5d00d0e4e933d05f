import { InvalidConfigError } from '../errors.js';

function originOf(value: unknown, path: string, wholeUrl: boolean): string {
  let url: URL | undefined;
  try {
    url = new URL(String(value));
  } catch {
    url = undefined;
  }
  const problem = !url
    ? 'is not an absolute URL'
    : url.protocol !== 'http:' && url.protocol !== 'https:'
      ? 'must be http or https'
      : url.username !== '' || url.password !== ''
        ? 'may not carry a user name or password'
        : !wholeUrl && (url.pathname !== '/' || url.search !== '' || url.hash !== '')
          ? 'must be an origin (scheme://host[:port]) without a path'
          : undefined;
  if (problem || !url)
    throw new InvalidConfigError(`${path.slice(1)} ${problem}: ${String(value).slice(0, 200)}`, { details: [{ path, message: problem ?? 'is invalid' }] });
  return url.origin;
}

/**
 * The origins the caller (the operator) named: the base URL override and the extra origins such
 * as the sandbox's file host. They are trusted exactly as named (scheme, host and port; http and
 * loopback included) and nothing else is widened by them. Checked when connecting, so a typo
 * fails at once rather than as a refused request later.
 */
export function trustedOrigins(baseUrl: string | undefined, allowOrigins: unknown): string[] {
  const origins = baseUrl !== undefined ? [originOf(baseUrl, '/baseUrl', true)] : [];
  if (allowOrigins === undefined) return origins;
  if (!Array.isArray(allowOrigins)) {
    throw new InvalidConfigError('allowOrigins must be a list of origins', { details: [{ path: '/allowOrigins', message: 'must be an array' }] });
  }
  return [...origins, ...allowOrigins.map((value, index) => originOf(value, `/allowOrigins/${index}`, false))];
}

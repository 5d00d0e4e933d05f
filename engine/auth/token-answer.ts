/**
 * Reading a token endpoint's successful answer into the credential set to store, the same way for
 * a refresh and for a code exchange, so both yield credentials of one shape.
 */
import { UpstreamError } from '../errors.js';
import { readPath } from '../http/index.js';
import type { OAuth2Spec } from '../manifest/index.js';

/** A credential set: the scheme's fields (client id and secret, tokens, expiry, kept answer fields). */
export type Credentials = Record<string, unknown>;

/**
 * The credentials after a token answer: `previous` with the new access token, the refresh token
 * when the answer holds one (required when the scheme rotates them), `expires_at` from
 * `expires_in` on the given clock, and the fields the scheme keeps (e.g. an
 * account's own API base URL). Why: the answer's shape is the manifest's, never code's.
 */
export function credentialsFromAnswer(spec: OAuth2Spec, previous: Credentials, body: unknown, nowMs: number, label: string): Credentials {
  const { response } = spec;
  const accessToken = readPath(body, response.access_token);
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new UpstreamError(`${label}: the token endpoint answered without ${response.access_token}`);
  }
  const next: Credentials = { ...previous, access_token: accessToken };
  const refreshToken = response.refresh_token ? readPath(body, response.refresh_token) : undefined;
  if (typeof refreshToken === 'string' && refreshToken !== '') next.refresh_token = refreshToken;
  else if (spec.rotates_refresh_token) throw new UpstreamError(`${label}: refresh tokens rotate, but the answer held none`);
  const expiresIn = response.expires_in ? Number(readPath(body, response.expires_in)) : Number.NaN;
  if (Number.isFinite(expiresIn)) next.expires_at = new Date(nowMs + expiresIn * 1000).toISOString();
  for (const [field, path] of Object.entries(response.keep ?? {})) {
    const value = readPath(body, path);
    if (value !== undefined) next[field] = value;
  }
  return next;
}

/** What the upstream said in a refusal (OAuth `error_description`, a `message`, or the text), redacted. */
export function refusalMessage(body: unknown, text: string, redact: (text: string) => string): string {
  return redact(String(readPath(body, 'error_description') ?? readPath(body, 'message') ?? readPath(body, 'error') ?? text.slice(0, 200)));
}

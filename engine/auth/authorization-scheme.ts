/**
 * What both halves of an authorization need: the manifest, the scheme that declares the flow,
 * and checks of the caller's input that name the field and what was expected.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidConfigError, InvalidCredentialsError, InvalidRequestError } from '../errors.js';
import { schemaValidator } from './compiled-schemas.js';
import { findManifest, type AuthScheme, type AuthorizationSpec, type LoadedManifest, type Manifest, type OAuth2Spec } from '../manifest/index.js';

/** A scheme with its authorization flow and the token endpoint the flow's exchange goes to. */
export interface AuthorizingScheme {
  manifest: Manifest;
  scheme: AuthScheme;
  authorization: AuthorizationSpec;
  oauth2: OAuth2Spec;
}

/**
 * The scheme of `type` that declares an authorization flow: the one named, or the first.
 * Why: a connector type may have several schemes, and only OAuth ones can be authorized.
 */
export function authorizingScheme(type: string | LoadedManifest, name: string | undefined): AuthorizingScheme {
  const { manifest } = typeof type === 'string' ? findManifest(type) : type;
  const candidates = manifest.auth.filter((scheme) => scheme.authorization && scheme.oauth2);
  const scheme = name === undefined ? candidates[0] : candidates.find((s) => s.name === name);
  if (!scheme?.authorization || !scheme.oauth2) {
    const known = candidates.map((s) => s.name).join(', ') || 'none';
    throw new InvalidRequestError(
      `${manifest.type} has no OAuth authorization flow${name === undefined ? '' : ` named "${name}"`}; schemes that have one: ${known}`,
      {
        details: [{ path: name === undefined ? '/type' : '/scheme', message: `must name a scheme with an authorization flow (${known})` }],
      },
    );
  }
  return { manifest, scheme, authorization: scheme.authorization, oauth2: scheme.oauth2 };
}

/** An absolute http(s) URL, or INVALID_REQUEST naming the field. Why: the upstream matches redirect URIs exactly. */
export function checkedUrl(value: unknown, path: string): string {
  let url: URL | undefined;
  try {
    url = new URL(String(value));
  } catch {
    url = undefined;
  }
  if (typeof value !== 'string' || !url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hash !== '') {
    throw new InvalidRequestError(`${path.slice(1)} must be an absolute http(s) URL without a fragment`, {
      details: [{ path, message: 'must be an absolute http(s) URL without a fragment' }],
    });
  }
  return value;
}

/** The origin of an operator's base URL (the sandbox, a proxy), or INVALID_CONFIG. */
export function baseOrigin(baseUrl: unknown): string | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    const url = new URL(String(baseUrl));
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // Refused below.
  }
  throw new InvalidConfigError('baseUrl must be an absolute http(s) URL', { details: [{ path: '/baseUrl', message: 'must be an absolute http(s) URL' }] });
}

/**
 * The connector config with the manifest's defaults applied, or INVALID_CONFIG naming each
 * problem. Why: the authorize URL may depend on it (a regional consent host).
 */
export function checkedConfig(manifest: Manifest, config: unknown): Record<string, unknown> {
  const copy = structuredClone(config ?? {}) as Record<string, unknown>;
  const validate = schemaValidator(manifest.config);
  if (validate(copy)) return copy;
  const details = (validate.errors ?? []).map((e) => ({ path: `/config${e.instancePath}`, message: e.message ?? 'is invalid' }));
  throw new InvalidConfigError(`invalid config for ${manifest.type}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, { details });
}

/** The credentials object, or INVALID_CREDENTIALS. */
export function checkedCredentials(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new InvalidCredentialsError('credentials must be an object holding the OAuth app (client_id, client_secret)', {
    details: [{ path: '/credentials', message: 'must be an object' }],
  });
}

/** Refuses credentials lacking fields the flow's templates read (e.g. client_id), naming each. */
export function requireCredentialFields(credentials: Record<string, unknown>, names: readonly string[], label: string): void {
  const missing = names.filter((name) => typeof credentials[name] !== 'string' || credentials[name] === '');
  if (missing.length === 0) return;
  throw new InvalidCredentialsError(`${label} needs the OAuth app's ${missing.join(', ')} in credentials`, {
    details: missing.map((name) => ({ path: `/credentials/${name}`, message: 'is required (a non-empty string)' })),
  });
}

/** A non-empty string, or INVALID_REQUEST naming the field. */
export function checkedText(value: unknown, path: string): string {
  if (typeof value === 'string' && value !== '') return value;
  throw new InvalidRequestError(`${path.slice(1)} must be a non-empty string`, { details: [{ path, message: 'must be a non-empty string' }] });
}

/** A fresh state value (256 random bits). Why: RFC 6749 §10.12, a callback must prove it answers this request. */
export function createState(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares two states in constant time. */
export function sameState(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

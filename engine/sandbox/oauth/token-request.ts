/**
 * What a client sent to a token endpoint, and the readers the fakes build it with: where the
 * parameters travel (form body, query string) and how the client authenticates (body fields or
 * HTTP Basic) differ upstream by upstream.
 */
import type { FakeRequest } from '../fake-server.js';
import type { ParamMap } from '../param-map.js';

/** The parameters of a token request (refresh or code exchange), wherever the upstream reads them from. */
export interface TokenRequest {
  grantType?: string;
  refreshToken?: string;
  /** The authorization code (grant_type=authorization_code). */
  code?: string;
  redirectUri?: string;
  /** The PKCE verifier (RFC 7636 §4.5). */
  codeVerifier?: string;
  clientId?: string;
  clientSecret?: string;
  /** True when the client authenticated with HTTP Basic (Asana answers a 401 then). */
  basic: boolean;
}

/** Client credentials from an Authorization header. */
export interface BasicCredentials {
  id: string;
  secret: string;
}

/** How an upstream reads HTTP Basic client credentials. */
export interface BasicOptions {
  /** Decodes each half (RFC 6749 §2.3.1 says form-encoded; upstreams differ). */
  decode: (value: string) => string;
  /** Without a colon: the whole value is the client id with an empty secret, or there are no credentials. */
  withoutColon: 'id-only' | 'none';
}

/**
 * The form fields of a request, only when its body is `application/x-www-form-urlencoded`;
 * empty otherwise.
 * Why: token endpoints take forms, and a JSON body with the same names is not a form.
 */
export function formFields(req: FakeRequest): ParamMap {
  const header = req.headers['content-type'];
  const value = (Array.isArray(header) ? header[0] : header) ?? '';
  const isForm = value.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
  return isForm && req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as ParamMap) : {};
}

/**
 * Client credentials from `Authorization: Basic base64(id:secret)`, if the request used it.
 * Why: OAuth2 lets clients authenticate this way instead of with body fields.
 */
export function basicCredentials(req: FakeRequest, options: BasicOptions): BasicCredentials | undefined {
  const header = req.headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon >= 0) return { id: options.decode(decoded.slice(0, colon)), secret: options.decode(decoded.slice(colon + 1)) };
  return options.withoutColon === 'id-only' ? { id: options.decode(decoded), secret: '' } : undefined;
}

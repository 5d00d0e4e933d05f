/**
 * Load-time checks of an auth scheme's `authorization` block (the OAuth authorization-code flow),
 * so that a flow that could never finish, or that would put a secret in a browser URL, fails when
 * the manifest loads rather than when a user clicks Approve.
 */
import { literalUrls } from './host-checks.js';
import type { AuthScheme, AuthorizationSpec, JsonSchema } from './types.js';

type PathPart = string | number;

/** One problem, located by its path in the manifest data (as semantics.ts reports them). */
export interface AuthorizationProblem {
  path: PathPart[];
  message: string;
}

/** The roots a template may read, as semantics.ts's template check takes them. */
export type AuthorizationRoots = { params: Set<string>; config: Set<string>; credentials: Set<string> };

/** Checks a template against its roots and returns the variables it reads (semantics.ts's check). */
export type TemplateCheck = (source: string, path: PathPart[], roots: AuthorizationRoots | { config: Set<string> }) => string[][];

/** The params the engine sets for each half of the flow. */
const QUERY_PARAMS = ['redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method'];
const EXCHANGE_PARAMS = ['code', 'redirect_uri', 'code_verifier'];

function reads(variables: string[][], root: string): Set<string> {
  return new Set(variables.filter((parts) => parts[0] === root && parts[1] !== undefined).map((parts) => parts[1]!));
}

function templatesOf(map: Record<string, string>, path: PathPart[], roots: AuthorizationRoots, check: TemplateCheck): string[][] {
  return Object.entries(map).flatMap(([name, source]) => check(source, [...path, name], roots));
}

function secretNames(scheme: AuthScheme): Set<string> {
  const props = (scheme.credentials.properties ?? {}) as Record<string, JsonSchema>;
  return new Set(Object.keys(props).filter((name) => props[name]?.writeOnly === true));
}

/** The params each half must send, and the PKCE params that exist only with `pkce`. */
function paramRules(spec: AuthorizationSpec, query: Set<string>, exchange: Set<string>, path: PathPart[]): AuthorizationProblem[] {
  const problems: AuthorizationProblem[] = [];
  for (const name of ['redirect_uri', 'state'])
    if (!query.has(name)) problems.push({ path: [...path, 'query'], message: `the authorize URL must send params.${name}` });
  for (const name of ['code', 'redirect_uri'])
    if (!exchange.has(name)) problems.push({ path: [...path, 'exchange', 'body'], message: `the exchange must send params.${name}` });
  const pkce: Array<[Set<string>, string, PathPart]> = [
    [query, 'code_challenge', 'query'],
    [query, 'code_challenge_method', 'query'],
    [exchange, 'code_verifier', 'exchange'],
  ];
  for (const [used, name, where] of pkce) {
    const at = where === 'query' ? [...path, 'query'] : [...path, 'exchange', 'body'];
    if (spec.pkce && !used.has(name))
      problems.push({ path: at, message: `with pkce, the ${where === 'query' ? 'authorize URL' : 'exchange'} must send params.${name}` });
    if (!spec.pkce && used.has(name)) problems.push({ path: at, message: `params.${name} is only set with pkce; declare pkce or leave it out` });
  }
  return problems;
}

/**
 * Checks one scheme's authorization block: it needs oauth2 (whose token endpoint and answer the
 * exchange uses); its URL is an absolute https template over config; its templates read declared
 * names only, and the authorize URL no secret credential (the browser shows it); both halves send
 * what OAuth requires (redirect URI and state; code and redirect URI), PKCE params exactly when
 * pkce is declared; the exchange authenticates the client; and every required credential field is
 * either given by the caller (read by the flow) or stored from the token answer.
 * Why: semantics.ts runs this for each scheme, so a broken flow fails at load with its location.
 */
export function checkAuthorization(scheme: AuthScheme, path: PathPart[], configNames: Set<string>, check: TemplateCheck): AuthorizationProblem[] {
  const spec = scheme.authorization;
  if (!spec) return [];
  const at = [...path, 'authorization'];
  if (!scheme.oauth2) return [{ path: at, message: 'an authorization flow needs oauth2 on the same scheme (its token endpoint and answer)' }];
  const problems: AuthorizationProblem[] = [];
  check(spec.url, [...at, 'url'], { config: configNames });
  for (const text of literalUrls(spec.url)) {
    if (!/^https:\/\/[^/]+/i.test(text)) problems.push({ path: [...at, 'url'], message: `"${text}" must be an absolute https URL` });
  }
  const credentials = new Set(Object.keys(scheme.credentials.properties ?? {}));
  const queryVars = templatesOf(spec.query, [...at, 'query'], { params: new Set(QUERY_PARAMS), config: configNames, credentials }, check);
  const exchangeRoots = { params: new Set(EXCHANGE_PARAMS), config: configNames, credentials };
  const exchangeVars = templatesOf(spec.exchange.body, [...at, 'exchange', 'body'], exchangeRoots, check);
  templatesOf(spec.exchange.headers ?? {}, [...at, 'exchange', 'headers'], exchangeRoots, check);
  const secrets = secretNames(scheme);
  for (const name of reads(queryVars, 'credentials'))
    if (secrets.has(name))
      problems.push({
        path: [...at, 'query'],
        message: `the authorize URL reads credentials.${name}, a secret (writeOnly): the user's browser shows this URL`,
      });
  problems.push(...paramRules(spec, reads(queryVars, 'params'), reads(exchangeVars, 'params'), at));
  const exchangeCredentials = reads(exchangeVars, 'credentials');
  if (!scheme.oauth2.client_auth && ![...exchangeCredentials].some((name) => secrets.has(name)))
    problems.push({
      path: [...at, 'exchange', 'body'],
      message: 'the exchange must authenticate the client: oauth2.client_auth, or a field reading a secret credential (e.g. credentials.client_secret)',
    });
  problems.push(...producible(scheme, new Set([...reads(queryVars, 'credentials'), ...exchangeCredentials]), path));
  spec.scopes?.forEach((scope, i) => {
    if (/\s/.test(scope)) problems.push({ path: [...at, 'scopes', i], message: `"${scope}" holds a space; list each scope on its own` });
  });
  return problems;
}

/** Required credential fields the flow can neither take from the caller nor store from the answer. */
function producible(scheme: AuthScheme, given: Set<string>, path: PathPart[]): AuthorizationProblem[] {
  const oauth = scheme.oauth2!;
  const basic = oauth.client_auth ? [oauth.client_auth.username, oauth.client_auth.password].join(' ') : '';
  const stored = new Set([
    'access_token',
    ...(oauth.response.refresh_token ? ['refresh_token'] : []),
    ...(oauth.response.expires_in ? ['expires_at'] : []),
    ...Object.keys(oauth.response.keep ?? {}),
  ]);
  const required = (scheme.credentials.required as string[] | undefined) ?? [];
  return required
    .filter((name) => !given.has(name) && !stored.has(name) && !basic.includes(`credentials.${name}`))
    .map((name) => ({
      path: [...path, 'credentials', 'required'],
      message: `required credential "${name}" is neither read by the authorization flow (so the caller gives it) nor stored from the token answer: the flow could not yield usable credentials`,
    }));
}

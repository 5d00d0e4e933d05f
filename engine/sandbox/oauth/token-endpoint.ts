/**
 * A refresh-token endpoint over a grant: the checks every upstream makes, answered in the order
 * and with the bodies of the upstream at hand.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { IssuedTokens, OAuthGrant } from './grant.js';
import type { TokenRequest } from './token-request.js';

/** Everything that can be wrong with a refresh-token request. */
const TOKEN_PROBLEMS = [
  'grant_type_missing',
  'grant_type_authorization_code',
  'grant_type_unsupported',
  'client_id_missing',
  'client_id_unknown',
  'client_secret_missing',
  'client_secret_wrong',
  'refresh_token_missing',
  'refresh_token_unknown',
  'refresh_token_revoked',
  'refresh_token_rotated',
] as const;

/** One thing wrong with a refresh-token request. */
export type TokenProblem = (typeof TOKEN_PROBLEMS)[number];

/** A problem, or a group of them by prefix: `client` covers every client problem, `refresh_token` every refresh-token one. */
export type TokenCheck = TokenProblem | 'grant_type' | 'client' | 'client_id' | 'client_secret' | 'refresh_token';

/** Renders the answer to a problem. */
export type TokenRejection = (req: FakeRequest, request: TokenRequest) => FakeResponse;

/** What a fake's token endpoint does its upstream's way. */
export interface TokenEndpointSpec {
  /** Reads the parameters and client credentials from where the upstream takes them. */
  read: (req: FakeRequest) => TokenRequest;
  /**
   * The answers, in the upstream's order of checks (a string-keyed object keeps insertion order,
   * ES2015): the first entry that covers a problem of the request answers it. Every problem must
   * be covered.
   */
  rejections: Partial<Record<TokenCheck, TokenRejection>>;
  /** The success body and headers. */
  issued: (req: FakeRequest, tokens: IssuedTokens) => FakeResponse;
}

/**
 * Builds the route handler of a token endpoint; throws when a problem has no answer, so a gap
 * shows when the fake starts rather than as a request that passes.
 * Why: the fakes differ only in where they read the request and how they answer it; the checks
 * and the grant they refresh are one model.
 */
export function tokenEndpoint(grant: OAuthGrant, spec: TokenEndpointSpec): (req: FakeRequest) => FakeResponse {
  const checks = Object.keys(spec.rejections) as TokenCheck[];
  const unanswered = TOKEN_PROBLEMS.filter((problem) => !checks.some((check) => covers(check, problem)));
  if (unanswered.length > 0) throw new Error(`the token endpoint has no answer to ${unanswered.join(', ')}`);
  return (req) => {
    const request = spec.read(req);
    const problems = tokenProblems(grant, request);
    const first = checks.find((check) => problems.some((problem) => covers(check, problem)));
    if (first !== undefined) return spec.rejections[first]!(req, request);
    return spec.issued(req, grant.refresh(request.refreshToken!));
  };
}

function covers(check: TokenCheck, problem: TokenProblem): boolean {
  return problem === check || problem.startsWith(`${check}_`);
}

/**
 * Every problem of a request against the grant (an empty value counts as missing).
 * Why: upstreams check in different orders, so all are found before one is answered.
 */
function tokenProblems(grant: OAuthGrant, request: TokenRequest): TokenProblem[] {
  const problems: TokenProblem[] = [];
  const { grantType, clientId, clientSecret, refreshToken } = request;
  if (!grantType) problems.push('grant_type_missing');
  else if (grantType === 'authorization_code') problems.push('grant_type_authorization_code');
  else if (grantType !== 'refresh_token') problems.push('grant_type_unsupported');
  if (!clientId) problems.push('client_id_missing');
  else if (clientId !== grant.clientId) problems.push('client_id_unknown');
  if (!clientSecret) problems.push('client_secret_missing');
  else if (clientSecret !== grant.clientSecret) problems.push('client_secret_wrong');
  if (!refreshToken) problems.push('refresh_token_missing');
  else {
    const state = grant.refreshTokens.state(refreshToken);
    if (state !== 'valid') problems.push(`refresh_token_${state}`);
  }
  return problems;
}

/**
 * A token endpoint over a grant, for both grants the fakes serve (refresh_token and
 * authorization_code): the checks every upstream makes, answered in the order and with the bodies
 * of the upstream at hand.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { verifierMatches } from './authorization-codes.js';
import type { IssuedTokens, OAuthGrant } from './grant.js';
import type { TokenRequest } from './token-request.js';

/** Everything that can be wrong with a token request. */
const TOKEN_PROBLEMS = [
  'grant_type_missing',
  'grant_type_unsupported',
  'client_id_missing',
  'client_id_unknown',
  'client_secret_missing',
  'client_secret_wrong',
  'refresh_token_missing',
  'refresh_token_unknown',
  'refresh_token_revoked',
  'refresh_token_rotated',
  'code_missing',
  'code_unknown',
  'code_expired',
  'code_reused',
  'redirect_uri_missing',
  'redirect_uri_mismatch',
  'pkce_verifier_missing',
  'pkce_verifier_mismatch',
] as const;

/** One thing wrong with a token request. */
export type TokenProblem = (typeof TOKEN_PROBLEMS)[number];

/** A problem, or a group of them by prefix: `client` covers every client problem, `code` every code one, and so on. */
export type TokenCheck = TokenProblem | 'grant_type' | 'client' | 'client_id' | 'client_secret' | 'refresh_token' | 'code' | 'redirect_uri' | 'pkce';

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
  /** The success body and headers (a refresh's or an exchanged code's). */
  issued: (req: FakeRequest, tokens: IssuedTokens) => FakeResponse;
}

/**
 * Builds the route handler of a token endpoint; throws when a problem has no answer, so a gap
 * shows when the fake starts rather than as a request that passes. A reused code also revokes the
 * tokens issued from it once the client has authenticated (RFC 6749 §4.1.2 SHOULD; the upstreams
 * document nothing else, so every fake does this).
 * Why: the fakes differ only in where they read the request and how they answer it; the checks
 * and the grant they serve are one model.
 */
export function tokenEndpoint(grant: OAuthGrant, spec: TokenEndpointSpec): (req: FakeRequest) => FakeResponse {
  const checks = Object.keys(spec.rejections) as TokenCheck[];
  const unanswered = TOKEN_PROBLEMS.filter((problem) => !checks.some((check) => covers(check, problem)));
  if (unanswered.length > 0) throw new Error(`the token endpoint has no answer to ${unanswered.join(', ')}`);
  return (req) => {
    const request = spec.read(req);
    const problems = tokenProblems(grant, request);
    if (problems.includes('code_reused') && !problems.some((problem) => covers('client', problem))) grant.revokeCode(request.code!);
    const first = checks.find((check) => problems.some((problem) => covers(check, problem)));
    if (first !== undefined) return spec.rejections[first]!(req, request);
    if (request.grantType === 'authorization_code') return spec.issued(req, grant.exchange(grant.codes.find(request.code!)!));
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
  const { grantType, clientId, clientSecret } = request;
  if (!grantType) problems.push('grant_type_missing');
  else if (grantType !== 'refresh_token' && grantType !== 'authorization_code') problems.push('grant_type_unsupported');
  if (!clientId) problems.push('client_id_missing');
  else if (clientId !== grant.clientId) problems.push('client_id_unknown');
  if (!clientSecret) problems.push('client_secret_missing');
  else if (clientSecret !== grant.clientSecret) problems.push('client_secret_wrong');
  problems.push(...(grantType === 'authorization_code' ? codeProblems(grant, request) : refreshProblems(grant, request)));
  return problems;
}

function refreshProblems(grant: OAuthGrant, request: TokenRequest): TokenProblem[] {
  if (!request.refreshToken) return ['refresh_token_missing'];
  const state = grant.refreshTokenState(request.refreshToken);
  return state === 'valid' ? [] : [`refresh_token_${state}`];
}

/**
 * A code must be one the app issued, unexpired and never exchanged; the redirect URI must be the
 * one the authorization used (RFC 6749 §4.1.3), and a code issued with a PKCE challenge needs the
 * verifier that answers it (RFC 7636 §4.6).
 */
function codeProblems(grant: OAuthGrant, request: TokenRequest): TokenProblem[] {
  if (!request.code) return ['code_missing'];
  const record = grant.codes.find(request.code);
  if (!record) return ['code_unknown'];
  const problems: TokenProblem[] = [];
  if (record.redeemedAtMs !== undefined) problems.push('code_reused');
  else if (grant.codes.expired(record)) problems.push('code_expired');
  if (!request.redirectUri) problems.push('redirect_uri_missing');
  else if (request.redirectUri !== record.redirectUri) problems.push('redirect_uri_mismatch');
  if (record.challenge && !request.codeVerifier) problems.push('pkce_verifier_missing');
  else if (record.challenge && !verifierMatches(record.challenge, request.codeVerifier!)) problems.push('pkce_verifier_mismatch');
  return problems;
}

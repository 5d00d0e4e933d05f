/**
 * The OAuth grant model the fakes share (the folder's only door): client credentials and
 * registered redirect URIs, the consent page and its authorization codes, refresh tokens (stable
 * or rotating), access tokens expiring on the fake's clock, and the token endpoint over them. Each
 * fake passes its upstream's differences as data and renders its own answers.
 */
export { AccessTokenLedger, type AccessTokenOptions, type AccessTokenState } from './access-tokens.js';
export { AuthorizationCodes, verifierMatches, type CodeRequest, type IssuedCode, type PkceChallenge } from './authorization-codes.js';
export { authorizeEndpoint, type AuthorizeSpec } from './authorize-endpoint.js';
export { OAuthGrant, type GrantOptions, type IssuedTokens } from './grant.js';
export { RefreshTokenChain, type RefreshTokenRecord, type RefreshTokenState, type RefreshTokenStatus } from './refresh-tokens.js';
export { basicCredentials, formFields, type BasicCredentials, type BasicOptions, type TokenRequest } from './token-request.js';
export { tokenEndpoint, type TokenCheck, type TokenEndpointSpec, type TokenProblem, type TokenRejection } from './token-endpoint.js';

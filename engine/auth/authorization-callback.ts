/**
 * The query the upstream sent the browser back with: a code, or an error, and the state.
 */
import { AuthorizationDeniedError, AuthorizationFailedError, InvalidRequestError } from '../errors.js';
import type { Redactor } from '../http/index.js';
import { sameState } from './authorization-scheme.js';

/** Where the callback's parameters come from: the whole callback URL, its query string, or the parsed query. */
export type CallbackInput = string | URLSearchParams | Record<string, unknown>;

function callbackParams(input: CallbackInput): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  if (typeof input === 'string') {
    const query = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? new URL(input).search : input;
    return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  }
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const pairs = Object.entries(input).filter((pair): pair is [string, string] => typeof pair[1] === 'string');
    return new URLSearchParams(pairs);
  }
  throw new InvalidRequestError('callback must be the callback URL, its query string, or its parameters', {
    details: [{ path: '/callback', message: 'must be a URL, a query string or an object of strings' }],
  });
}

/**
 * The code of a callback that answers this authorization. The state is checked first (RFC 6749
 * §10.12), so a forged or replayed callback fails the same way whatever else it carries; then an
 * `error` is the upstream's refusal: `access_denied` (the user pressed Deny, §4.1.2.1) is
 * AUTHORIZATION_DENIED, any other AUTHORIZATION_FAILED.
 * Why: a callback is input from the user's browser, never to be trusted before its state matches.
 */
export function callbackCode(input: CallbackInput, expectedState: string, label: string, redact: Redactor): string {
  const params = callbackParams(input);
  const state = params.get('state');
  if (state === null || !sameState(state, expectedState)) {
    throw new AuthorizationFailedError(`${label}: the callback's state does not match the state this authorization was started with`, {
      details: [{ path: '/callback/state', message: state === null ? 'is missing' : 'does not match the state sent' }],
    });
  }
  const error = params.get('error');
  if (error !== null) {
    const description = redact(params.get('error_description') ?? error);
    if (error === 'access_denied') {
      throw new AuthorizationDeniedError(`${label}: the user denied access on the consent page (${description})`, {
        details: [{ path: '/callback/error', message: 'access_denied' }],
      });
    }
    throw new AuthorizationFailedError(`${label}: the upstream answered the authorization with ${redact(error)} (${description})`, {
      details: [{ path: '/callback/error', message: redact(error) }],
    });
  }
  const code = params.get('code');
  if (!code) throw new AuthorizationFailedError(`${label}: the callback carries no code`, { details: [{ path: '/callback/code', message: 'is missing' }] });
  return code;
}

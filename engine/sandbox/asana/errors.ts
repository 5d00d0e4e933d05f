/**
 * Asana error bodies (API-NOTES B6): `{"errors":[{"message", "help"?, "phrase"?}]}`.
 */
import { randomInt } from 'node:crypto';
import { jsonResponse, type FakeResponse, type HeaderValue } from '../responses.js';

/** B6 [doc]: the `help` text most errors carry. */
export const ERRORS_HELP = 'For more information on API status codes and how to handle them, read the docs on errors: https://developers.asana.com/docs/errors';

/** B7 [doc]: the 429 message, word for word. */
export const RATE_LIMIT_MESSAGE = "You've made too many requests and hit a rate limit. Please retry after the given amount of time.";

/** B4 [3p]: the 402 message of task search outside premium workspaces, word for word. */
export const SEARCH_PREMIUM_MESSAGE = 'Search is only available to premium users.';

/** B2 [3p]: the 400 message of an unpaginated list that is too long, word for word. */
export const TOO_LARGE_MESSAGE = 'The result is too large. You should use pagination (may require specifying a workspace)!';

/**
 * An error response with one entry; `help` is added unless `help: null`.
 * Why: every Asana error has this envelope, and clients read `errors[0].message`.
 */
export function asanaError(
  status: number,
  message: string,
  options: { help?: string | null; phrase?: string; headers?: Record<string, HeaderValue> } = {},
): FakeResponse {
  const entry: Record<string, string> = { message };
  const help = options.help === undefined ? ERRORS_HELP : options.help;
  if (help !== null) entry['help'] = help;
  if (options.phrase !== undefined) entry['phrase'] = options.phrase;
  return jsonResponse(status, { errors: [entry] }, options.headers ?? {});
}

/** 400 for a bad or missing parameter. Why: B6: "400: missing or malformed parameter". */
export function badRequest(message: string): FakeResponse {
  return asanaError(400, message);
}

/**
 * 401 `{"errors":[{"message":"Not Authorized"}]}` exactly (B6 [doc] example, no `help`), for a
 * missing, unknown or expired token alike.
 * Why: DESIGN.md §8: a token the fake did not issue gets the upstream's 401.
 */
export function notAuthorized(): FakeResponse {
  return asanaError(401, 'Not Authorized', { help: null });
}

/**
 * 404 `<name>: Unknown object: <gid>` for a well-formed gid that names nothing (of that type).
 * Why: clients (Airbyte, B6) skip 404s per record, so the message must say what was missing.
 */
export function unknownObject(name: string, gid: string): FakeResponse {
  return asanaError(404, `${name}: Unknown object: ${gid}`);
}

/**
 * 400 `<name>: Not a Long: <value>` for an id that is not a number. The wording follows the
 * errors Asana gives for non-numeric ids [unverified].
 * Why: gids are numeric strings; a client that sends a name or `undefined` must see a 400.
 */
export function notALong(name: string, value: string): FakeResponse {
  return asanaError(400, `${name}: Not a Long: ${value}`);
}

/** 400 `<name>: Missing input` (B3/B6 [doc] wording). Why: required parameters such as `parent` and `organization`. */
export function missingInput(name: string): FakeResponse {
  return asanaError(400, `${name}: Missing input`);
}

/**
 * The 429 of B7: its exact body, `Retry-After` in seconds when given (a fault may send none).
 * Why: the engine's retry must honour exactly this answer.
 */
export function rateLimited(retryAfter: string | undefined): FakeResponse {
  return asanaError(429, RATE_LIMIT_MESSAGE, { help: null, headers: retryAfter !== undefined ? { 'Retry-After': retryAfter } : {} });
}

/** 402 of task search outside premium (B4: exact body, with `help`). */
export function searchNotPremium(): FakeResponse {
  return asanaError(402, SEARCH_PREMIUM_MESSAGE);
}

/** 404 for a path no route serves; Asana's wording for it is [unverified]. */
export function noMatchingRoute(): FakeResponse {
  return asanaError(404, 'No matching route for request');
}

const PHRASE_ADJECTIVES = ['sad', 'happy', 'sleepy', 'brave', 'tiny', 'grumpy', 'fuzzy', 'quiet', 'eager', 'wobbly'];
const PHRASE_NOUNS = ['squid', 'pandas', 'otters', 'falcons', 'lemurs', 'geese', 'koalas', 'hedgehogs', 'walruses', 'moths'];
const PHRASE_VERBS = ['snuggle', 'dance', 'whisper', 'wander', 'giggle', 'sneeze', 'juggle', 'ponder', 'hop', 'sing'];
const PHRASE_ADVERBS = ['softly', 'loudly', 'quickly', 'calmly', 'boldly', 'gently', 'oddly', 'warmly', 'slowly', 'brightly'];

/**
 * An error phrase in the style of node-asana-phrase ("6 sad squid snuggle softly", B6).
 * Why: Asana's 500s carry a `phrase` support uses to find the incident; clients may log it.
 */
export function errorPhrase(): string {
  const pick = (words: string[]): string => words[randomInt(words.length)]!;
  return `${randomInt(2, 100)} ${pick(PHRASE_ADJECTIVES)} ${pick(PHRASE_NOUNS)} ${pick(PHRASE_VERBS)} ${pick(PHRASE_ADVERBS)}`;
}

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Invalid Request',
  401: 'Not Authorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  424: 'Failed Dependency',
  500: 'Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * The body `failNext(count, status)` injects and a crashed handler answers: 500 is B6's
 * `{"message":"Server Error","phrase":...}` (no `help`); other statuses get their reason phrase.
 * Why: B6: `phrase` appears on 500s only.
 */
export function statusError(status: number): FakeResponse {
  const message = STATUS_MESSAGES[status] ?? (status >= 500 ? 'Server Error' : 'Invalid Request');
  if (status === 500) return asanaError(500, message, { help: null, phrase: errorPhrase() });
  return asanaError(status, message);
}

import { InvalidRequestError } from '../errors.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../store/index.js';

/** Longest endpoint URL kept (a URL this long is a mistake or an attack, not an endpoint). */
const MAX_URL_LENGTH = 2048;

function invalid(path: string, expected: string, got: string): InvalidRequestError {
  return new InvalidRequestError(`${path} ${expected}, got ${JSON.stringify(got.slice(0, 200))}`, { details: [{ path, message: expected }] });
}

/**
 * An endpoint URL as the operator gave it, checked at registration: absolute http or https, no
 * user name or password (they would travel in every delivery's logs), no fragment, at most 2048
 * characters. Where a delivery may actually connect is decided per attempt by the egress policy.
 */
export function parseEndpointUrl(text: string, path = '--url'): URL {
  const expected = 'must be an absolute http or https URL without user info or fragment, at most 2048 characters';
  if (
    typeof text !== 'string' ||
    text.length === 0 ||
    text.length > MAX_URL_LENGTH ||
    [...text].some((char) => char.trim() === '' || char.charCodeAt(0) < 0x20)
  )
    throw invalid(path, expected, String(text));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(path, expected, text);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || url.hash !== '' || url.hostname === '') {
    throw invalid(path, expected, text);
  }
  return url;
}

/** `--events a,b`: known event types, at least one (a repeat counts once); undefined (the flag left out) means every event. */
export function parseEventList(text: string | undefined, path = '--events'): WebhookEventType[] | null {
  if (text === undefined) return null;
  const names = text.split(',').map((name) => name.trim());
  const expected = `must be event types separated by commas, each one of ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  if (names.some((name) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name))) throw invalid(path, expected, text);
  return [...new Set(names)] as WebhookEventType[];
}

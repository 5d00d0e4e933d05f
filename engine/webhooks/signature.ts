import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The Standard Webhooks signing scheme (https://www.standardwebhooks.com/, spec 1.0; summarized in
 * https://developers.make.com/event-subscription/implementation/verify-signatures): the secret is
 * "whsec_" + base64 of the key bytes; the signed content is "<webhook-id>.<webhook-timestamp>.<body>"
 * with the timestamp in Unix seconds; `webhook-signature` holds space-separated "v1,<base64 HMAC-SHA256>".
 */
const SECRET_PREFIX = 'whsec_';

/** The default tolerance of the spec's replay check: five minutes either way. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A new signing secret for an endpoint (24 random bytes), shown to the operator once. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The HMAC key of a secret: base64 after "whsec_"; a secret without the prefix is used as its bytes, as the spec's libraries do. */
function keyOf(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` value of one delivery attempt: why a function, so sender and verifier share one definition. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/** Headers as Node's `IncomingMessage.headers`, fetch's `Headers`, or a plain object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the timestamp may be from `now` (default 300 s, the spec's advice). */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch to check the timestamp against (default Date.now()). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a request really is a delivery signed with `secret`, so integrators do not hand-roll the
 * check: the three headers must be present, the timestamp within the tolerance (replays of old
 * deliveries fail), and one of the signatures must match the raw body, compared in constant time.
 * `body` must be the raw bytes received: parsing and serializing JSON again changes them.
 */
export function verifyWebhookSignature(secret: string, headers: WebhookHeaders, body: string | Buffer, options: VerifyOptions = {}): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^[0-9]{1,12}$/.test(timestamp)) return false;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signWebhook(secret, id, Number(timestamp), typeof body === 'string' ? body : body.toString('utf8')).slice(3), 'base64');
  return signatures.split(' ').some((entry) => {
    if (!entry.startsWith('v1,')) return false;
    const given = Buffer.from(entry.slice(3), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

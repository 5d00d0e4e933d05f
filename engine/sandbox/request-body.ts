/**
 * Reading and decoding request bodies for the fakes.
 */
import type { IncomingMessage } from 'node:http';
import { parseParamMap } from './param-map.js';

/** A request body after decoding by its Content-Type. */
export interface DecodedBody {
  /** Parsed JSON, a form map, the raw text, or undefined when the body is empty. */
  value: unknown;
  /** Set when the Content-Type promised JSON but the bytes did not parse. */
  parseError?: string;
}

/**
 * Collects the whole request body.
 * Why: the fakes answer only after seeing the full request (they record it and may validate it),
 * and bodies here are small JSON or form documents.
 */
export async function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * True for `application/json` and structured `+json` media types (e.g. `application/vnd.x.v3+json`).
 * Why: several upstreams (Amazon Ads) use vendor JSON media types that must be treated as JSON.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * Decodes a body as JSON, as a URL-encoded form, or as text, following its Content-Type.
 * Why: OAuth token endpoints take forms while APIs take JSON; the request log stores the decoded
 * value so tests can assert on what a client sent.
 */
export function decodeRequestBody(raw: Buffer, contentType: string | undefined): DecodedBody {
  if (raw.length === 0) return { value: undefined };
  const text = raw.toString('utf8');
  if (isJsonMediaType(contentType)) {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch (error) {
      return { value: text, parseError: (error as Error).message };
    }
  }
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') return { value: parseParamMap(text) };
  return { value: text };
}

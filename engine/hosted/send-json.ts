import type { FastifyReply } from 'fastify';

/** What fastify sets for an object it serializes itself. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers `value` as JSON, the same bytes and headers fastify sends for a returned object, with
 * less work on the way: the text is made once with JSON.stringify (what fastify does without a
 * response schema) and handed over as UTF-8 bytes with its content type set, so fastify's
 * serialization hooks are skipped, its Content-Length is the buffer's length instead of another
 * scan of the text, and Node writes the headers and the bytes as they are instead of first
 * joining them into one string (two bytes a character when the text holds any beyond Latin-1,
 * which answers with names in most scripts do).
 */
export function sendJson(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.header('content-type', JSON_TYPE).send(Buffer.from(JSON.stringify(value)));
}

import type { FastifyInstance } from 'fastify';
import { clipText, InvalidRequestError, RequestTooComplexError } from '../errors.js';
import { findJsonLimitProblem } from './json-limits.js';
import { findUnstorableText } from './unstorable-text.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Makes application/json the only body type the server reads, through a parser of our own: the
 * bytes must be UTF-8 (RFC 8259 §8.1), the text's shape must stay inside JSON_BODY_LIMITS (checked
 * before JSON.parse, so deep or wide input costs one linear scan), fastify's own parser then
 * parses it (refusing `__proto__` and `constructor.prototype` keys), and no key or string may hold
 * text the stores cannot keep (U+0000, lone surrogates). Any other media type answers 415.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new InvalidRequestError('the request body is not valid UTF-8'), undefined);
      return;
    }
    const problem = findJsonLimitProblem(text);
    if (problem) {
      const where = clipText(problem.path, 120);
      done(new RequestTooComplexError(`the request body is over a limit: ${where} ${problem.message}`, { details: [problem] }), undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const at = findUnstorableText(value);
      if (at !== undefined) {
        const message = 'contains U+0000 or an unpaired surrogate, which no stored text can hold';
        done(new InvalidRequestError(`the request body ${message}`, { details: [{ path: at, message }] }), undefined);
        return;
      }
      done(null, value);
    });
  });
}

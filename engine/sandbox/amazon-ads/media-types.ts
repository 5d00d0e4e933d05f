/**
 * Content negotiation of the v3 list operations (API-NOTES A.2, A.4, A.5): a vendor media type
 * such as `application/vnd.spCampaign.v3+json` in, the same type out.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { header } from './context.js';
import { v3Error } from './errors.js';

/** A.5: the Sponsored Products campaign media type. */
export const SP_CAMPAIGN_MEDIA_TYPE = 'application/vnd.spCampaign.v3+json';
/** A.4: the Portfolios v3 media type. */
export const SP_PORTFOLIO_MEDIA_TYPE = 'application/vnd.spPortfolio.v3+json';

function mediaTypeOf(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * 415 UNSUPPORTED_MEDIA_TYPE unless `Content-Type` is the operation's vendor type (media types
 * compare case-insensitively, parameters such as charset are ignored); then 406 unless `Accept`
 * is absent or lists the vendor type, `application/json` (A.5: the spec allows it), or a wildcard
 * (`*\/*`, `application/*`; Amazon: "empty or wildcard accept headers also are valid"). An entry
 * with `q=0` is a refusal, not a match. Undefined when the request may proceed.
 * Why: A.2: "A wrong media type → 406 Not Acceptable (Accept) or 415 Unsupported Media Type".
 */
export function checkMediaTypes(req: FakeRequest, vendorType: string): FakeResponse | undefined {
  const wanted = vendorType.toLowerCase();
  const contentType = header(req, 'content-type');
  if (!contentType || mediaTypeOf(contentType) !== wanted) {
    return v3Error(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type ${contentType ? `'${mediaTypeOf(contentType)}'` : '(none)'} is not supported; send ${vendorType}`,
    );
  }
  const accept = header(req, 'accept');
  if (accept === undefined) return undefined;
  const acceptable = new Set([wanted, 'application/json', 'application/*', '*/*']);
  const ok = accept.split(',').some((entry) => {
    const [type, ...params] = entry.split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(param));
    return !refused && acceptable.has((type ?? '').trim().toLowerCase());
  });
  return ok ? undefined : v3Error(406, 'NOT_ACCEPTABLE', 'No match for accept header');
}

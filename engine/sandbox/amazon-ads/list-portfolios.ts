/**
 * `POST /portfolios/list` (Portfolios 3.0; API-NOTES A.4).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AdsContext } from './context.js';
import { nameMatches, pageOf } from './list-page.js';
import { parseListBody } from './list-request.js';
import { checkMediaTypes, SP_PORTFOLIO_MEDIA_TYPE } from './media-types.js';
import type { AdsProfile } from './model.js';
import { portfolioV3 } from './render-v3.js';

/**
 * Lists the scoped profile's portfolios, 100 a page (the operation has no `maxResults`; a sent one
 * is ignored), filtered by `stateFilter`, `portfolioIdFilter` and `nameFilter`; answers
 * `{portfolios, nextToken?, totalResults}` as `application/vnd.spPortfolio.v3+json`, with
 * `extendedData` when `includeExtendedDataFields` is true (or "true").
 */
export function listPortfolios(ctx: AdsContext, req: FakeRequest, profile: AdsProfile): FakeResponse {
  const unsupported = checkMediaTypes(req, SP_PORTFOLIO_MEDIA_TYPE);
  if (unsupported) return unsupported;
  const parsed = parseListBody(req, 'portfolios');
  if (!parsed.ok) return parsed.response;
  const { query } = parsed;
  const matching = ctx.data
    .portfolios(profile.profileId)
    .filter((record) => !query.states || query.states.includes(record.state))
    .filter((record) => !query.ids || query.ids.includes(String(record.portfolioId)))
    .filter((record) => nameMatches(query, record.name));
  const paged = pageOf(ctx, 'portfolios', profile.profileId, query, matching);
  if (!paged.ok) return paged.response;
  const { page } = paged;
  return {
    status: 200,
    headers: { 'content-type': SP_PORTFOLIO_MEDIA_TYPE },
    body: {
      portfolios: page.items.map((record) => portfolioV3(record, query.extended)),
      ...(page.nextToken !== undefined ? { nextToken: page.nextToken } : {}),
      totalResults: page.totalResults,
    },
  };
}

/**
 * `POST /sp/campaigns/list` (Sponsored Products 3.0; API-NOTES A.5).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AdsContext } from './context.js';
import { nameMatches, pageOf } from './list-page.js';
import { parseListBody } from './list-request.js';
import { checkMediaTypes, SP_CAMPAIGN_MEDIA_TYPE } from './media-types.js';
import type { AdsProfile } from './model.js';
import { campaignV3 } from './render-v3.js';

/**
 * Lists the scoped profile's campaigns, `maxResults` a page (1..5000, default 100), filtered by
 * `stateFilter` (uppercase ENABLED/PAUSED/ARCHIVED), `campaignIdFilter`, `portfolioIdFilter` and
 * `nameFilter`; answers `{campaigns, nextToken?, totalResults}` as
 * `application/vnd.spCampaign.v3+json`, with `extendedData` when `includeExtendedDataFields`.
 */
export function listCampaigns(ctx: AdsContext, req: FakeRequest, profile: AdsProfile): FakeResponse {
  const unsupported = checkMediaTypes(req, SP_CAMPAIGN_MEDIA_TYPE);
  if (unsupported) return unsupported;
  const parsed = parseListBody(req, 'campaigns');
  if (!parsed.ok) return parsed.response;
  const { query } = parsed;
  const matching = ctx.data
    .campaigns(profile.profileId)
    .filter((record) => !query.states || query.states.includes(record.state))
    .filter((record) => !query.ids || query.ids.includes(String(record.campaignId)))
    .filter((record) => !query.portfolioIds || (record.portfolioId !== undefined && query.portfolioIds.includes(String(record.portfolioId))))
    .filter((record) => nameMatches(query, record.name));
  const paged = pageOf(ctx, 'campaigns', profile.profileId, query, matching);
  if (!paged.ok) return paged.response;
  const { page } = paged;
  return {
    status: 200,
    headers: { 'content-type': SP_CAMPAIGN_MEDIA_TYPE },
    body: {
      campaigns: page.items.map((record) => campaignV3(record, query.extended)),
      ...(page.nextToken !== undefined ? { nextToken: page.nextToken } : {}),
      totalResults: page.totalResults,
    },
  };
}

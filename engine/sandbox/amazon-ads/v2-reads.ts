/**
 * The retired v2 single reads the product still uses (SPEC: portfolio get and campaign get use
 * v2; API-NOTES A.4, A.5 give the shapes): `GET /v2/portfolios[/extended]/{portfolioId}` and
 * `GET /v2/sp/campaigns[/extended]/{campaignId}`. Scope required, legacy error bodies.
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { AdsContext } from './context.js';
import { legacyError } from './errors.js';
import type { AdsProfile } from './model.js';
import { campaignV2, portfolioV2 } from './render-v2.js';

/**
 * One portfolio of the scoped profile in the v2 shape (extended: with creationDate,
 * lastUpdatedDate, servingStatus); 404 NOT_FOUND when the profile has no such portfolio, 400 for
 * an id that is not a number.
 */
export function getPortfolioV2(ctx: AdsContext, req: FakeRequest, profile: AdsProfile, extended: boolean): FakeResponse {
  const id = numericId(req.params['portfolioId']);
  if (id === undefined) return legacyError(400, 'INVALID_ARGUMENT', `Invalid portfolioId: ${req.params['portfolioId'] ?? ''}`);
  const record = ctx.data.findPortfolio(profile.profileId, id);
  if (!record) return legacyError(404, 'NOT_FOUND', `Portfolio not found: ${id}`);
  return jsonResponse(200, portfolioV2(record, extended));
}

/**
 * One Sponsored Products campaign of the scoped profile in the v2 shape (extended: with
 * creationDate, lastUpdatedDate, servingStatus); 404 NOT_FOUND when the profile has no such
 * campaign, 400 for an id that is not a number.
 */
export function getCampaignV2(ctx: AdsContext, req: FakeRequest, profile: AdsProfile, extended: boolean): FakeResponse {
  const id = numericId(req.params['campaignId']);
  if (id === undefined) return legacyError(400, 'INVALID_ARGUMENT', `Invalid campaignId: ${req.params['campaignId'] ?? ''}`);
  const record = ctx.data.findCampaign(profile.profileId, id);
  if (!record) return legacyError(404, 'NOT_FOUND', `Campaign not found: ${id}`);
  return jsonResponse(200, campaignV2(record, extended));
}

function numericId(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined;
}

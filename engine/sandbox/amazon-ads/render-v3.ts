/**
 * Records as the v3 list operations serve them: `POST /portfolios/list` (spec `Portfolio`) and
 * `POST /sp/campaigns/list` (spec `SponsoredProductsCampaign`), API-NOTES A.4, A.5.
 */
import type { CampaignRecord, CampaignServingStatus, PortfolioRecord } from './model.js';

/**
 * A v3 portfolio: `portfolioId` a string, ISO dates, `extendedData` only when asked for (A.4).
 * Why: the v3 list must validate against the Portfolios 3.0 document.
 */
export function portfolioV3(record: PortfolioRecord, extended: boolean): Record<string, unknown> {
  const budget: Record<string, unknown> = {};
  if (record.budget.amount !== undefined) budget['amount'] = record.budget.amount;
  budget['currencyCode'] = record.budget.currencyCode;
  budget['policy'] = record.budget.policy;
  if (record.budget.startDate !== undefined) budget['startDate'] = record.budget.startDate;
  if (record.budget.endDate !== undefined) budget['endDate'] = record.budget.endDate;
  const out: Record<string, unknown> = {
    portfolioId: String(record.portfolioId),
    name: record.name,
    budget,
    inBudget: record.inBudget,
    state: record.state,
  };
  if (extended) {
    out['extendedData'] = {
      creationDateTime: new Date(record.createdAt).toISOString(),
      lastUpdateDateTime: new Date(record.updatedAt).toISOString(),
      servingStatus: record.servingStatus,
      // A.4: reasons are the status values with a `_DETAIL` suffix.
      statusReasons: [`${record.servingStatus}_DETAIL`],
    };
  }
  return out;
}

const SERVING_STATUS_MESSAGES: Record<CampaignServingStatus, string> = {
  CAMPAIGN_STATUS_ENABLED: 'The campaign is enabled and delivering.',
  CAMPAIGN_PAUSED: 'The campaign has been paused.',
  CAMPAIGN_ARCHIVED: 'The campaign has been archived.',
  CAMPAIGN_OUT_OF_BUDGET: 'The campaign has run out of its daily budget.',
  PENDING_START_DATE: 'The campaign start date is in the future.',
  ENDED: 'The campaign end date has passed.',
  PORTFOLIO_OUT_OF_BUDGET: 'The portfolio of this campaign is out of budget.',
  PORTFOLIO_ENDED: 'The portfolio budget end date of this campaign has passed.',
  PORTFOLIO_PENDING_START_DATE: 'The portfolio budget start date of this campaign is in the future.',
};

/**
 * A v3 Sponsored Products campaign: string ids, `YYYY-MM-DD` dates, a DAILY budget,
 * `dynamicBidding`, `tags` when set, `extendedData` only when asked for (A.5).
 * Why: the v3 list must validate against the Sponsored Products 3.0 document.
 */
export function campaignV3(record: CampaignRecord, extended: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { campaignId: String(record.campaignId) };
  if (record.portfolioId !== undefined) out['portfolioId'] = String(record.portfolioId);
  out['name'] = record.name;
  out['state'] = record.state;
  out['targetingType'] = record.targetingType;
  out['startDate'] = record.startDate;
  if (record.endDate !== undefined) out['endDate'] = record.endDate;
  out['budget'] = { budgetType: 'DAILY', budget: record.dailyBudget, effectiveBudget: record.effectiveBudget };
  out['dynamicBidding'] = { strategy: record.strategy, placementBidding: record.placementBidding.map((entry) => ({ ...entry })) };
  if (Object.keys(record.tags).length > 0) out['tags'] = { ...record.tags };
  if (extended) {
    out['extendedData'] = {
      creationDateTime: new Date(record.createdAt).toISOString(),
      lastUpdateDateTime: new Date(record.updatedAt).toISOString(),
      servingStatus: record.servingStatus,
      servingStatusDetails: [
        {
          name: `${record.servingStatus}_DETAIL`,
          helpUrl: 'https://advertising.amazon.com/help',
          message: SERVING_STATUS_MESSAGES[record.servingStatus],
        },
      ],
    };
  }
  return out;
}

/**
 * Records as the retired v2 single reads served them (API-NOTES A.4, A.5 "v2 shape, for legacy
 * fakes only"): numeric ids, lowercase states, `YYYYMMDD` dates, epoch-ms extended dates.
 * The same records as the v3 lists, so ids and names agree across both generations.
 */
import type { BiddingStrategy, CampaignRecord, PortfolioRecord } from './model.js';

/** `YYYY-MM-DD` to v2's `YYYYMMDD`. */
function compactDate(isoDate: string): string {
  return isoDate.replace(/-/g, '');
}

/**
 * `GET /v2/portfolios[/extended]/{id}`: `portfolioId` a number, `state` "enabled", budget policy
 * `dateRange` or `MonthlyRecurring` (v2 had no NO_CAP: such portfolios carry no budget);
 * extended adds `creationDate`, `lastUpdatedDate` (epoch ms) and `servingStatus`.
 */
export function portfolioV2(record: PortfolioRecord, extended: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { portfolioId: record.portfolioId, name: record.name };
  if (record.budget.policy !== 'NO_CAP') {
    const budget: Record<string, unknown> = {
      amount: record.budget.amount,
      currencyCode: record.budget.currencyCode,
      policy: record.budget.policy === 'DATE_RANGE' ? 'dateRange' : 'MonthlyRecurring',
    };
    if (record.budget.startDate !== undefined) budget['startDate'] = compactDate(record.budget.startDate);
    if (record.budget.endDate !== undefined) budget['endDate'] = compactDate(record.budget.endDate);
    out['budget'] = budget;
  }
  out['inBudget'] = record.inBudget;
  out['state'] = record.state.toLowerCase();
  if (extended) {
    out['creationDate'] = record.createdAt;
    out['lastUpdatedDate'] = record.updatedAt;
    out['servingStatus'] = record.servingStatus;
  }
  return out;
}

const V2_STRATEGIES: Record<BiddingStrategy, string> = {
  LEGACY_FOR_SALES: 'legacyForSales',
  AUTO_FOR_SALES: 'autoForSales',
  MANUAL: 'manual',
  RULE_BASED: 'ruleBased',
};

/** v2 bid-adjustment predicates; rest-of-search placements had no v2 predicate and are left out. */
const V2_PREDICATES: Record<string, string> = {
  PLACEMENT_TOP: 'placementTop',
  PLACEMENT_PRODUCT_PAGE: 'placementProductPage',
};

/**
 * `GET /v2/sp/campaigns[/extended]/{id}`: `campaignId` a number, `campaignType`
 * "sponsoredProducts", lowercase `targetingType` and `state`, `dailyBudget`, `YYYYMMDD` dates,
 * numeric `portfolioId`, `premiumBidAdjustment`, `bidding {strategy, adjustments}`; extended adds
 * `creationDate`, `lastUpdatedDate` (epoch ms) and `servingStatus`.
 */
export function campaignV2(record: CampaignRecord, extended: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    campaignId: record.campaignId,
    name: record.name,
    campaignType: 'sponsoredProducts',
    targetingType: record.targetingType.toLowerCase(),
    state: record.state.toLowerCase(),
    dailyBudget: record.dailyBudget,
    startDate: compactDate(record.startDate),
  };
  if (record.endDate !== undefined) out['endDate'] = compactDate(record.endDate);
  if (record.portfolioId !== undefined) out['portfolioId'] = record.portfolioId;
  out['premiumBidAdjustment'] = record.placementBidding.some((entry) => entry.placement === 'PLACEMENT_TOP');
  out['bidding'] = {
    strategy: V2_STRATEGIES[record.strategy],
    adjustments: record.placementBidding
      .filter((entry) => V2_PREDICATES[entry.placement] !== undefined)
      .map((entry) => ({ predicate: V2_PREDICATES[entry.placement], percentage: entry.percentage })),
  };
  if (extended) {
    out['creationDate'] = record.createdAt;
    out['lastUpdatedDate'] = record.updatedAt;
    out['servingStatus'] = record.servingStatus;
  }
  return out;
}

/**
 * The Amazon Ads fake's internal records: advertising profiles, portfolios and Sponsored Products
 * campaigns (API-NOTES A.3-A.5). One record feeds both the v3 and the retired v2 renderings, so
 * the two API generations always show the same ids and names.
 */

/** A.1: the three advertising regions; each API host serves only its own region's profiles. */
export type AdsRegion = 'NA' | 'EU' | 'FE';

/** The region this fake plays (`https://advertising-api.amazon.com`, A.1). */
export const HOST_REGION: AdsRegion = 'NA';

/** A.3: `accountInfo.type` values, also the values of `profileTypeFilter`. */
export const ACCOUNT_TYPES = ['seller', 'vendor', 'agency'] as const;
/** One of {@link ACCOUNT_TYPES}. */
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** A.3 profile record, exactly as `GET /v2/profiles` serves it. */
export interface AdsProfile {
  /** A.3: an integer (kept below 2^53 so JSON clients read it exactly). */
  profileId: number;
  countryCode: string;
  currencyCode: string;
  /** A.3: optional; absent on vendor and agency profiles here. */
  dailyBudget?: number;
  timezone: string;
  accountInfo: {
    marketplaceStringId: string;
    id: string;
    type: AccountType;
    name: string;
    validPaymentMethod: boolean;
    subType?: 'KDP_AUTHOR' | 'AMAZON_ATTRIBUTION';
  };
}

/** A profile and the region whose host lists it. */
export interface ProfileEntry {
  region: AdsRegion;
  profile: AdsProfile;
}

/** A.4 portfolio budget policies of v3 (`PolicyType`, OTHER is never seeded). */
export type PortfolioPolicy = 'DATE_RANGE' | 'MONTHLY_RECURRING' | 'NO_CAP';

/** A.4 / spec `PortfolioServingStatus` values the seed uses. */
export type PortfolioServingStatus = 'PORTFOLIO_STATUS_ENABLED' | 'PORTFOLIO_OUT_OF_BUDGET' | 'PORTFOLIO_ENDED' | 'PORTFOLIO_PENDING_START_DATE';

/** One portfolio of one profile. */
export interface PortfolioRecord {
  /** A.4: served as a string by v3 and as a number by v2. */
  portfolioId: number;
  profileId: number;
  name: string;
  /**
   * Always ENABLED: the Portfolios 3.0 document's `EntityState` enum is `["ENABLED"]` and the v2
   * `PortfolioState` is the literal `enabled` (A.4 [ScaleLeap]), so neither API can show another state.
   */
  state: 'ENABLED';
  inBudget: boolean;
  budget: {
    policy: PortfolioPolicy;
    currencyCode: string;
    /** Absent with NO_CAP. */
    amount?: number;
    /** `YYYY-MM-DD`; absent with NO_CAP. */
    startDate?: string;
    /** `YYYY-MM-DD`; only some budgets end. */
    endDate?: string;
  };
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms, never before `createdAt`. */
  updatedAt: number;
  servingStatus: PortfolioServingStatus;
}

/** A.5: states a live campaign can be in (the only ones the list's stateFilter accepts). */
export const CAMPAIGN_STATES = ['ENABLED', 'PAUSED', 'ARCHIVED'] as const;
/** One of {@link CAMPAIGN_STATES} (v3 spelling; v2 lower-cases it). */
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

/** A.5 `dynamicBidding.strategy` values the seed uses. */
export type BiddingStrategy = 'LEGACY_FOR_SALES' | 'AUTO_FOR_SALES' | 'MANUAL' | 'RULE_BASED';

/** A.5 placements of `dynamicBidding.placementBidding`. */
export type Placement = 'PLACEMENT_TOP' | 'PLACEMENT_PRODUCT_PAGE' | 'PLACEMENT_REST_OF_SEARCH';

/** A.5 `servingStatus` values the seed uses. */
export type CampaignServingStatus =
  | 'CAMPAIGN_STATUS_ENABLED'
  | 'CAMPAIGN_PAUSED'
  | 'CAMPAIGN_ARCHIVED'
  | 'CAMPAIGN_OUT_OF_BUDGET'
  | 'PENDING_START_DATE'
  | 'ENDED'
  | 'PORTFOLIO_OUT_OF_BUDGET'
  | 'PORTFOLIO_ENDED'
  | 'PORTFOLIO_PENDING_START_DATE';

/** One Sponsored Products campaign of one profile. */
export interface CampaignRecord {
  /** A.5: a string in v3, a number in v2. */
  campaignId: number;
  profileId: number;
  portfolioId?: number;
  name: string;
  targetingType: 'AUTO' | 'MANUAL';
  state: CampaignState;
  /** `YYYY-MM-DD`. */
  startDate: string;
  /** `YYYY-MM-DD`; most campaigns run open-ended. */
  endDate?: string;
  /** The DAILY budget (v3 `budget.budget`, v2 `dailyBudget`). */
  dailyBudget: number;
  /** v3 `budget.effectiveBudget`: higher than `dailyBudget` while a budget rule applies. */
  effectiveBudget: number;
  strategy: BiddingStrategy;
  placementBidding: Array<{ placement: Placement; percentage: number }>;
  /** A.5 `tags` (at most 50); empty for most campaigns. */
  tags: Record<string, string>;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms. */
  updatedAt: number;
  servingStatus: CampaignServingStatus;
}

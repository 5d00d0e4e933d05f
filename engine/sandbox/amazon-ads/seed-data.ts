/**
 * Deterministic seed of the Amazon Ads fake: nine profiles in three regions, and portfolios and
 * Sponsored Products campaigns for the NA profiles (API-NOTES A.3-A.5). The main seller profile's
 * collections scale with `records`; everything comes from the sandbox seed and a fixed clock.
 */
import { createPrng, type Prng } from '../prng.js';
import { AdsDataset } from './dataset.js';
import type {
  AdsProfile,
  BiddingStrategy,
  CampaignRecord,
  CampaignServingStatus,
  CampaignState,
  Placement,
  PortfolioPolicy,
  PortfolioRecord,
  PortfolioServingStatus,
} from './model.js';
import { MANUAL_LABELS, PORTFOLIO_BRANDS, PORTFOLIO_THEMES, PRODUCTS, PROFILE_TEMPLATES, TAG_VALUES, type ProfileTemplate } from './seed-values.js';

const DAY = 86_400_000;
/** The seed's "today": serving statuses (ENDED, PENDING_START_DATE) are relative to it, not to the wall clock. */
export const SEED_NOW = Date.UTC(2026, 10, 1, 12);
const TIMELINE_START = Date.UTC(2023, 0, 1);

/** Collection sizes of the main profile for a given `records`. */
export interface AdsSeedPlan {
  portfolios: number;
  campaigns: number;
}

/**
 * Main-profile volumes: portfolios = records/8, campaigns = records*5/24 (150 and 250 at the
 * sandbox default of 1200, so portfolio paging has 2 pages of 100 and campaigns 3).
 * Why: `--records N` sets the size of the largest collections (DESIGN.md §8).
 */
export function adsSeedPlan(records: number): AdsSeedPlan {
  if (!Number.isInteger(records) || records < 1) throw new RangeError(`records must be a positive integer, got ${records}`);
  return { portfolios: Math.max(1, Math.round(records / 8)), campaigns: Math.max(1, Math.round((records * 5) / 24)) };
}

/**
 * Builds the dataset for `records` and `seed`.
 * Why: the same seed must give the same ids, names and values on every machine (DESIGN.md §8).
 */
export function seedAmazonAdsData(records: number, seed: number): AdsDataset {
  const plan = adsSeedPlan(records);
  const rng = createPrng(seed ^ 0x0ad5ad5);
  const data = new AdsDataset();
  const ids = new UniqueIds(rng);
  const accountIds = { seller: sellerId(rng), vendor: entityId(rng), agency: entityId(rng), author: sellerId(rng) };
  for (const [index, template] of PROFILE_TEMPLATES.entries()) {
    const profile = buildProfile(template, ids.profileId(), accountIds[template.account]);
    data.addProfile({ region: template.region, profile });
    if (template.region !== 'NA') continue;
    const portfolioCount = index === 0 ? plan.portfolios : template.portfolios;
    const campaignCount = index === 0 ? plan.campaigns : template.campaigns;
    const portfolios = seedPortfolios(rng, ids, profile, portfolioCount);
    for (const portfolio of portfolios) data.addPortfolio(portfolio);
    for (const campaign of seedCampaigns(rng, ids, profile, portfolios, campaignCount)) data.addCampaign(campaign);
  }
  data.seal();
  return data;
}

function buildProfile(template: ProfileTemplate, profileId: number, accountId: string): AdsProfile {
  return {
    profileId,
    countryCode: template.countryCode,
    currencyCode: template.currencyCode,
    ...(template.dailyBudget !== undefined ? { dailyBudget: template.dailyBudget } : {}),
    timezone: template.timezone,
    accountInfo: {
      marketplaceStringId: template.marketplaceStringId,
      id: accountId,
      type: template.type,
      name: template.name,
      validPaymentMethod: template.validPaymentMethod,
      ...(template.subType ? { subType: template.subType } : {}),
    },
  };
}

function seedPortfolios(rng: Prng, ids: UniqueIds, profile: AdsProfile, count: number): PortfolioRecord[] {
  const out: PortfolioRecord[] = [];
  const names = PORTFOLIO_BRANDS.flatMap((brand) => PORTFOLIO_THEMES.map((theme) => `${brand} - ${theme}`));
  const offset = rng.int(0, names.length - 1);
  for (let i = 0; i < count; i += 1) {
    const round = Math.floor(i / names.length);
    const base = names[(offset + i * 7) % names.length]!;
    const name = round === 0 ? base : `${base} ${round + 1}`;
    const createdAt = rng.int(TIMELINE_START, SEED_NOW - 10 * DAY);
    const updatedAt = rng.int(createdAt, SEED_NOW);
    const policy: PortfolioPolicy = rng.chance(0.45) ? 'DATE_RANGE' : rng.chance(0.55) ? 'MONTHLY_RECURRING' : 'NO_CAP';
    const budget: PortfolioRecord['budget'] = { policy, currencyCode: profile.currencyCode };
    let servingStatus: PortfolioServingStatus = 'PORTFOLIO_STATUS_ENABLED';
    let inBudget = true;
    if (policy !== 'NO_CAP') {
      budget.amount = policy === 'DATE_RANGE' ? rng.int(10, 400) * 50 : rng.int(20, 1000) * 5;
      const futureStart = rng.chance(0.08);
      const start = futureStart ? SEED_NOW + rng.int(1, 60) * DAY : createdAt + rng.int(0, 20) * DAY;
      budget.startDate = isoDate(start);
      if (policy === 'DATE_RANGE' || rng.chance(0.3)) budget.endDate = isoDate(start + rng.int(30, 400) * DAY);
      if (futureStart) servingStatus = 'PORTFOLIO_PENDING_START_DATE';
      else if (budget.endDate !== undefined && budget.endDate < isoDate(SEED_NOW)) servingStatus = 'PORTFOLIO_ENDED';
      else if (rng.chance(0.15)) {
        servingStatus = 'PORTFOLIO_OUT_OF_BUDGET';
        inBudget = false;
      }
    }
    out.push({ portfolioId: ids.portfolioId(), profileId: profile.profileId, name, state: 'ENABLED', inBudget, budget, createdAt, updatedAt, servingStatus });
  }
  return out;
}

function seedCampaigns(rng: Prng, ids: UniqueIds, profile: AdsProfile, portfolios: PortfolioRecord[], count: number): CampaignRecord[] {
  const out: CampaignRecord[] = [];
  const today = isoDate(SEED_NOW);
  for (let i = 0; i < count; i += 1) {
    const auto = rng.chance(0.4);
    const product = rng.pick(PRODUCTS);
    const label = auto ? 'Auto' : rng.pick(MANUAL_LABELS);
    const name = `SP - ${product} - ${label} - ${String(i + 1).padStart(3, '0')}`;
    const roll = rng.next();
    const state: CampaignState = roll < 0.6 ? 'ENABLED' : roll < 0.85 ? 'PAUSED' : 'ARCHIVED';
    const portfolio = portfolios.length > 0 && rng.chance(0.6) ? rng.pick(portfolios) : undefined;
    const createdAt = rng.int(TIMELINE_START, SEED_NOW - 2 * DAY);
    const updatedAt = rng.int(createdAt, SEED_NOW);
    const futureStart = state === 'ENABLED' && rng.chance(0.05);
    const start = futureStart ? SEED_NOW + rng.int(1, 45) * DAY : createdAt + rng.int(0, 3) * DAY;
    const startDate = isoDate(start);
    const endDate = rng.chance(0.2) ? isoDate(start + rng.int(14, 400) * DAY) : undefined;
    const dailyBudget = rng.int(100, 50_000) / 100;
    const effectiveBudget = rng.chance(0.15) ? Math.round(dailyBudget * (1 + rng.int(20, 100) / 100) * 100) / 100 : dailyBudget;
    const strategy: BiddingStrategy = auto
      ? rng.pick(['LEGACY_FOR_SALES', 'AUTO_FOR_SALES'] as const)
      : rng.chance(0.05)
        ? 'RULE_BASED'
        : rng.pick(['LEGACY_FOR_SALES', 'AUTO_FOR_SALES', 'MANUAL'] as const);
    const placements: Placement[] = ['PLACEMENT_TOP', 'PLACEMENT_PRODUCT_PAGE', 'PLACEMENT_REST_OF_SEARCH'];
    const placementBidding = placements.filter(() => rng.chance(0.35)).map((placement) => ({ placement, percentage: rng.int(1, 30) * 5 }));
    const tags: Record<string, string> = {};
    if (rng.chance(0.2)) {
      for (const [key, values] of Object.entries(TAG_VALUES)) if (rng.chance(0.6)) tags[key] = rng.pick(values);
    }
    let servingStatus: CampaignServingStatus;
    if (state === 'PAUSED') servingStatus = 'CAMPAIGN_PAUSED';
    else if (state === 'ARCHIVED') servingStatus = 'CAMPAIGN_ARCHIVED';
    else if (futureStart) servingStatus = 'PENDING_START_DATE';
    else if (endDate !== undefined && endDate < today) servingStatus = 'ENDED';
    else if (portfolio && portfolio.servingStatus !== 'PORTFOLIO_STATUS_ENABLED') servingStatus = portfolio.servingStatus;
    else servingStatus = rng.chance(0.1) ? 'CAMPAIGN_OUT_OF_BUDGET' : 'CAMPAIGN_STATUS_ENABLED';
    out.push({
      campaignId: ids.campaignId(),
      profileId: profile.profileId,
      ...(portfolio ? { portfolioId: portfolio.portfolioId } : {}),
      name,
      targetingType: auto ? 'AUTO' : 'MANUAL',
      state,
      startDate,
      ...(endDate !== undefined ? { endDate } : {}),
      dailyBudget,
      effectiveBudget,
      strategy,
      placementBidding,
      tags,
      createdAt,
      updatedAt,
      servingStatus,
    });
  }
  return out;
}

/** Draws ids that look like Amazon's and never repeat within the account. */
class UniqueIds {
  private readonly used = new Set<number>();

  constructor(private readonly rng: Prng) {}

  /** 16 digits, like real profile ids, but below 2^53. */
  profileId(): number {
    return this.draw(() => this.rng.int(1_000, 4_400) * 1e12 + this.rng.int(0, 999_999) * 1e6 + this.rng.int(0, 999_999));
  }

  /** 14 digits (A.4 example `69616386521924`). */
  portfolioId(): number {
    return this.draw(() => this.rng.int(10_000, 99_999) * 1e9 + this.rng.int(0, 999_999_999));
  }

  /** 15 digits, like SP campaign ids. */
  campaignId(): number {
    return this.draw(() => this.rng.int(100_000, 999_999) * 1e9 + this.rng.int(0, 999_999_999));
  }

  private draw(make: () => number): number {
    for (;;) {
      const id = make();
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function alnum(rng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALNUM[rng.int(0, ALNUM.length - 1)];
  return out;
}

/** A merchant id, `A` + 13 characters (sellers, A.3). */
function sellerId(rng: Prng): string {
  return `A${alnum(rng, 13)}`;
}

/** An entity id, `ENTITY` + 13 characters (vendors and agencies, A.3 example `ENTITYZIbbbbbrrr`). */
function entityId(rng: Prng): string {
  return `ENTITY${alnum(rng, 13)}`;
}

/** `YYYY-MM-DD` of an epoch-ms instant (UTC). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

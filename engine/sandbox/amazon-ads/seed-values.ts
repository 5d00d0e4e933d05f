/**
 * Fixed vocabularies of the Amazon Ads seed: the account's profiles (one a marketplace, A.3) and
 * words for portfolio and campaign names.
 */
import type { AccountType, AdsRegion } from './model.js';

/** What a seeded profile looks like before ids are drawn. */
export interface ProfileTemplate {
  region: AdsRegion;
  countryCode: string;
  currencyCode: string;
  timezone: string;
  /** A.3: Amazon's marketplace ids (`ATVPDKIKX0DER` is amazon.com). */
  marketplaceStringId: string;
  type: AccountType;
  /** Profiles of one seller account share its `accountInfo.id` (a merchant id `A...`). */
  account: 'seller' | 'vendor' | 'agency' | 'author';
  name: string;
  dailyBudget?: number;
  validPaymentMethod: boolean;
  subType?: 'KDP_AUTHOR';
  /** Portfolios and campaigns seeded for a secondary profile (the first profile scales with `records`). */
  portfolios: number;
  campaigns: number;
}

/**
 * The account's nine profiles: six in NA (the host this fake plays; the first is the main seller
 * profile), two in EU and one in FE, which the NA host never lists (A.1).
 */
export const PROFILE_TEMPLATES: readonly ProfileTemplate[] = [
  {
    region: 'NA',
    countryCode: 'US',
    currencyCode: 'USD',
    timezone: 'America/Los_Angeles',
    marketplaceStringId: 'ATVPDKIKX0DER',
    type: 'seller',
    account: 'seller',
    name: 'Northwind Outdoor',
    dailyBudget: 999999999.0,
    validPaymentMethod: true,
    portfolios: 0,
    campaigns: 0,
  },
  {
    region: 'NA',
    countryCode: 'CA',
    currencyCode: 'CAD',
    timezone: 'America/Los_Angeles',
    marketplaceStringId: 'A2EUQ1WTGCTBG2',
    type: 'seller',
    account: 'seller',
    name: 'Northwind Outdoor',
    dailyBudget: 999999999.0,
    validPaymentMethod: true,
    portfolios: 4,
    campaigns: 12,
  },
  {
    region: 'NA',
    countryCode: 'MX',
    currencyCode: 'MXN',
    timezone: 'America/Los_Angeles',
    marketplaceStringId: 'A1AM78C64UM0Y8',
    type: 'seller',
    account: 'seller',
    name: 'Northwind Outdoor',
    validPaymentMethod: false,
    portfolios: 0,
    campaigns: 3,
  },
  {
    region: 'NA',
    countryCode: 'US',
    currencyCode: 'USD',
    timezone: 'America/Los_Angeles',
    marketplaceStringId: 'ATVPDKIKX0DER',
    type: 'vendor',
    account: 'vendor',
    name: 'Northwind Brands Vendor',
    validPaymentMethod: true,
    portfolios: 2,
    campaigns: 6,
  },
  {
    region: 'NA',
    countryCode: 'US',
    currencyCode: 'USD',
    timezone: 'America/Los_Angeles',
    marketplaceStringId: 'ATVPDKIKX0DER',
    type: 'agency',
    account: 'agency',
    name: 'Harbor Lane Media',
    validPaymentMethod: true,
    portfolios: 1,
    campaigns: 4,
  },
  {
    region: 'NA',
    countryCode: 'US',
    currencyCode: 'USD',
    timezone: 'America/Los_Angeles',
    marketplaceStringId: 'ATVPDKIKX0DER',
    type: 'seller',
    account: 'author',
    name: 'J. R. Ellery',
    dailyBudget: 500.0,
    validPaymentMethod: true,
    subType: 'KDP_AUTHOR',
    portfolios: 0,
    campaigns: 0,
  },
  {
    region: 'EU',
    countryCode: 'UK',
    currencyCode: 'GBP',
    timezone: 'Europe/London',
    marketplaceStringId: 'A1F83G8C2ARO7P',
    type: 'seller',
    account: 'seller',
    name: 'Northwind Outdoor',
    dailyBudget: 999999999.0,
    validPaymentMethod: true,
    portfolios: 0,
    campaigns: 0,
  },
  {
    region: 'EU',
    countryCode: 'DE',
    currencyCode: 'EUR',
    timezone: 'Europe/Paris',
    marketplaceStringId: 'A1PA6795UKMFR9',
    type: 'vendor',
    account: 'vendor',
    name: 'Northwind Brands Vendor',
    validPaymentMethod: true,
    portfolios: 0,
    campaigns: 0,
  },
  {
    region: 'FE',
    countryCode: 'JP',
    currencyCode: 'JPY',
    timezone: 'Asia/Tokyo',
    marketplaceStringId: 'A1VC38T7YXB528',
    type: 'seller',
    account: 'seller',
    name: 'Northwind Outdoor',
    dailyBudget: 999999999.0,
    validPaymentMethod: true,
    portfolios: 0,
    campaigns: 0,
  },
];

/** Brand lines; with {@link PORTFOLIO_THEMES} they name portfolios ("Trailhead - Prime Day"). */
export const PORTFOLIO_BRANDS = ['Trailhead', 'Northwind', 'Summit Co', 'Basecamp', 'Ridgeline', 'Campfire'] as const;

/** Campaign themes; with {@link PORTFOLIO_BRANDS} they name portfolios (150 distinct names). */
export const PORTFOLIO_THEMES = [
  'Always On',
  'Prime Day',
  'Black Friday',
  'Holiday Gifting',
  'Back to School',
  'Spring Launch',
  'Summer Sale',
  'Brand Defense',
  'Competitor Conquest',
  'New Releases',
  'Clearance',
  'Hero ASINs',
  'Long Tail',
  'Bundles',
  'Accessories',
  'Q1 Test',
  'Q2 Test',
  'Q3 Test',
  'Q4 Push',
  'Evergreen',
  'Retargeting',
  'Launch Support',
  'Category Leaders',
  'Seasonal',
  'Experiments',
] as const;

/** Products advertised by campaigns. */
export const PRODUCTS = [
  'Trail Backpack 30L',
  'Ultralight Tent 2P',
  'Down Sleeping Bag',
  'Camping Stove',
  'Hiking Poles',
  'Water Filter',
  'Headlamp 400lm',
  'Insulated Bottle',
  'Camp Chair',
  'Rain Jacket',
  'Merino Socks',
  'Trekking Boots',
  'Dry Bag Set',
  'Hammock',
  'Solar Charger',
  'First Aid Kit',
  'Cooler 45qt',
  'Picnic Blanket',
  'Multi-tool',
  'Compass',
] as const;

/** Targeting labels of manual campaigns (auto campaigns are labelled "Auto"). */
export const MANUAL_LABELS = ['Exact', 'Phrase', 'Broad', 'Product Targeting', 'Category', 'Brand Defense'] as const;

/** Keys and values of campaign tags. */
export const TAG_VALUES: Readonly<Record<string, readonly string[]>> = {
  team: ['growth', 'brand', 'performance'],
  channel: ['search', 'detail-page'],
  owner: ['maria', 'kenji', 'oluwaseun', 'ines'],
};

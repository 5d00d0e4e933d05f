/**
 * The Amazon Advertising API fake (the folder's only door).
 */
export { startAmazonAdsFake } from './amazon-ads-fake.js';
export type { AmazonAdsData, AmazonAdsFake, AmazonAdsFakeOptions, AmazonAdsStats } from './amazon-ads-fake.js';
export type { ProfileCounts } from './dataset.js';
export type { AccountType, AdsProfile, AdsRegion, CampaignRecord, CampaignState, PortfolioRecord } from './model.js';
export { SP_CAMPAIGN_MEDIA_TYPE, SP_PORTFOLIO_MEDIA_TYPE } from './media-types.js';
export { DEFAULT_RATE_LIMIT, EXTENDED_DATA_WEIGHT } from './rate-limits.js';

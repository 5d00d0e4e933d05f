/**
 * The Shopify Admin API fake upstream (the folder's only door).
 */
export { startShopifyFake, DEFAULT_STORE } from './shopify-fake.js';
export type { ShopifyFake, ShopifyFakeOptions, ShopifyStats } from './shopify-fake.js';
export type { ShopifyCounts, ShopifyData } from './dataset.js';
export type {
  ShopifyCollection,
  ShopifyCustomer,
  ShopifyDraftOrder,
  ShopifyFulfillment,
  ShopifyLocation,
  ShopifyOrder,
  ShopifyProduct,
  ShopifyRecord,
  ShopifyShop,
  ShopifyTransaction,
} from './model.js';
export type { FakeClock } from '../fake-clock.js';
export { SUPPORTED_API_VERSIONS, LATEST_API_VERSION } from './api-versions.js';

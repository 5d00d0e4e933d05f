/**
 * The REST resources the fake serves and the list parameters each accepts (API-NOTES B.6).
 */
import type { ShopifyDataset } from './dataset.js';
import {
  acceptedFilter,
  anyOfFilter,
  choiceFilter,
  containsFilter,
  equalsFilter,
  idsFilter,
  memberOfFilter,
  publishedStatusFilter,
  sinceIdFilter,
  timeFilter,
  type FilterParser,
} from './filters.js';
import type {
  ShopifyCollection,
  ShopifyCustomer,
  ShopifyDraftOrder,
  ShopifyFulfillment,
  ShopifyLocation,
  ShopifyOrder,
  ShopifyProduct,
  ShopifyRecord,
  ShopifyTransaction,
} from './model.js';

/** How one REST resource lists, counts and gets. */
export interface ResourceDef<R extends ShopifyRecord> {
  /** Names the resource inside `page_info` cursors. */
  name: string;
  /** Lists wrap records in the plural key, gets in the singular key (B.6). */
  plural: string;
  singular: string;
  /** Paged lists take `limit` and `page_info` and send `Link`; unpaged ones return everything. */
  paged: boolean;
  /** Accepted filters by query parameter name. */
  filters: Readonly<Record<string, FilterParser<R>>>;
  /** Filters that apply when the request does not set them (orders: `status=open`). */
  defaults: Readonly<Record<string, string>>;
  /** Timestamp fields the `order` parameter may sort on, besides `id`. */
  sortFields: readonly string[];
}

/** The API client the fake's tokens belong to; no seeded order was created by it (`attribution_app_id=current`). */
export const FAKE_API_CLIENT_ID = 3_000_001;

function timeRange<R extends ShopifyRecord>(...fields: string[]): Record<string, FilterParser<R>> {
  const out: Record<string, FilterParser<R>> = {};
  for (const name of fields) {
    out[`${name}_min`] = timeFilter<R>(name, 'min');
    out[`${name}_max`] = timeFilter<R>(name, 'max');
  }
  return out;
}

/**
 * `orders.json`: B.6 params; `status` defaults to `open` (B.6, checklist "Orders default to
 * `status=open`"): open = neither closed nor cancelled, closed = `closed_at` set, cancelled =
 * `cancelled_at` set (cancelled orders are closed too, so they also count as closed).
 */
export function ordersResource(): ResourceDef<ShopifyOrder> {
  return {
    name: 'orders',
    plural: 'orders',
    singular: 'order',
    paged: true,
    defaults: { status: 'open' },
    sortFields: ['created_at', 'updated_at', 'processed_at'],
    filters: {
      ids: idsFilter(),
      since_id: sinceIdFilter(),
      ...timeRange<ShopifyOrder>('created_at', 'updated_at', 'processed_at'),
      name: (value) => {
        const wanted = value.trim().replace(/^#?/, '#');
        return { ok: true, test: (order) => order.name === wanted };
      },
      status: choiceFilter<ShopifyOrder>({
        open: (order) => order.closed_at === null && order.cancelled_at === null,
        closed: (order) => order.closed_at !== null,
        cancelled: (order) => order.cancelled_at !== null,
        any: () => true,
      }),
      // Shopify's documented values; `unpaid` is authorized or partially paid.
      financial_status: choiceFilter<ShopifyOrder>({
        authorized: (order) => order.financial_status === 'authorized',
        pending: (order) => order.financial_status === 'pending',
        paid: (order) => order.financial_status === 'paid',
        partially_paid: (order) => order.financial_status === 'partially_paid',
        refunded: (order) => order.financial_status === 'refunded',
        voided: (order) => order.financial_status === 'voided',
        partially_refunded: (order) => order.financial_status === 'partially_refunded',
        unpaid: (order) => order.financial_status === 'authorized' || order.financial_status === 'partially_paid',
        any: () => true,
      }),
      // `shipped` = fulfilled, `unshipped` = none shipped, `unfulfilled` = none or some shipped.
      fulfillment_status: choiceFilter<ShopifyOrder>({
        shipped: (order) => order.fulfillment_status === 'fulfilled',
        partial: (order) => order.fulfillment_status === 'partial',
        unshipped: (order) => order.fulfillment_status === null,
        unfulfilled: (order) => order.fulfillment_status !== 'fulfilled',
        any: () => true,
      }),
      attribution_app_id: (value) => {
        const text = value.trim();
        if (text === 'current') return { ok: true, test: (order) => order.app_id === FAKE_API_CLIENT_ID };
        if (!/^\d{1,16}$/.test(text)) return { ok: false, message: 'must be an app id or current' };
        return { ok: true, test: (order) => order.app_id === Number(text) };
      },
    },
  };
}

/** `products.json`: B.6 params; `presentment_currencies` is accepted and changes nothing. */
export function productsResource(data: ShopifyDataset): ResourceDef<ShopifyProduct> {
  return {
    name: 'products',
    plural: 'products',
    singular: 'product',
    paged: true,
    defaults: {},
    sortFields: ['created_at', 'updated_at'],
    filters: {
      ids: idsFilter(),
      since_id: sinceIdFilter(),
      title: containsFilter('title'),
      vendor: equalsFilter('vendor'),
      handle: anyOfFilter('handle'),
      product_type: equalsFilter('product_type'),
      status: anyOfFilter('status', ['active', 'archived', 'draft']),
      collection_id: memberOfFilter((id) => new Set(data.collectionProductIds(id))),
      ...timeRange<ShopifyProduct>('created_at', 'updated_at', 'published_at'),
      published_status: publishedStatusFilter(),
      presentment_currencies: acceptedFilter(/^[A-Z]{3}(,[A-Z]{3})*$/, 'must be a comma-separated list of ISO 4217 codes'),
    },
  };
}

/** `customers.json`: B.6 params. */
export function customersResource(): ResourceDef<ShopifyCustomer> {
  return {
    name: 'customers',
    plural: 'customers',
    singular: 'customer',
    paged: true,
    defaults: {},
    sortFields: ['created_at', 'updated_at'],
    filters: { ids: idsFilter(), since_id: sinceIdFilter(), ...timeRange<ShopifyCustomer>('created_at', 'updated_at') },
  };
}

/** `draft_orders.json`: `status` (open, invoice_sent, completed; all when absent), ids, since_id, updated_at range. */
export function draftOrdersResource(): ResourceDef<ShopifyDraftOrder> {
  return {
    name: 'draft_orders',
    plural: 'draft_orders',
    singular: 'draft_order',
    paged: true,
    defaults: {},
    sortFields: ['created_at', 'updated_at'],
    filters: {
      ids: idsFilter(),
      since_id: sinceIdFilter(),
      status: anyOfFilter('status', ['open', 'invoice_sent', 'completed']),
      ...timeRange<ShopifyDraftOrder>('updated_at'),
    },
  };
}

/** `locations.json`: every location, unpaged, no filters. */
export function locationsResource(): ResourceDef<ShopifyLocation> {
  return { name: 'locations', plural: 'locations', singular: 'location', paged: false, defaults: {}, sortFields: [], filters: {} };
}

/** `custom_collections.json` / `smart_collections.json`: ids, since_id, title, handle, product_id, dates, published_status. */
export function collectionsResource(data: ShopifyDataset, type: 'custom' | 'smart'): ResourceDef<ShopifyCollection> {
  return {
    name: `${type}_collections`,
    plural: `${type}_collections`,
    singular: `${type}_collection`,
    paged: true,
    defaults: {},
    sortFields: ['updated_at'],
    filters: {
      ids: idsFilter(),
      since_id: sinceIdFilter(),
      title: containsFilter('title'),
      handle: anyOfFilter('handle'),
      product_id: memberOfFilter((id) => new Set(data.collectionIdsOfProduct(id))),
      ...timeRange<ShopifyCollection>('updated_at', 'published_at'),
      published_status: publishedStatusFilter(),
    },
  };
}

/** `orders/{order_id}/transactions.json`: unpaged (`{transactions: [...]}`), `since_id`; `in_shop_currency` changes nothing here. */
export function transactionsResource(): ResourceDef<ShopifyTransaction> {
  return {
    name: 'transactions',
    plural: 'transactions',
    singular: 'transaction',
    paged: false,
    defaults: {},
    sortFields: [],
    filters: { since_id: sinceIdFilter(), in_shop_currency: acceptedFilter(/^(true|false)$/, 'must be true or false') },
  };
}

/** `orders/{order_id}/fulfillments.json`: paged; since_id and the created/updated ranges. */
export function fulfillmentsResource(): ResourceDef<ShopifyFulfillment> {
  return {
    name: 'fulfillments',
    plural: 'fulfillments',
    singular: 'fulfillment',
    paged: true,
    defaults: {},
    sortFields: ['created_at', 'updated_at'],
    filters: { since_id: sinceIdFilter(), ...timeRange<ShopifyFulfillment>('created_at', 'updated_at') },
  };
}

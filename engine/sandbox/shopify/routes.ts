/**
 * The Admin REST routes of the Shopify fake (API-NOTES B.6), all `GET /admin/api/{version}/…`.
 */
import type { FakeRequest, FakeServer } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { guarded, type GuardedHandler, type ShopifyContext } from './context.js';
import { countRecords } from './count-records.js';
import { notFound } from './errors.js';
import { getRecord, idOfSegment } from './get-record.js';
import { listRecords } from './list-records.js';
import type { ShopifyCollection, ShopifyOrder, ShopifyRecord } from './model.js';
import {
  collectionsResource,
  customersResource,
  draftOrdersResource,
  fulfillmentsResource,
  locationsResource,
  ordersResource,
  productsResource,
  transactionsResource,
  type ResourceDef,
} from './resources.js';

/**
 * Registers every route on `server`:
 * `shop.json`; `orders`, `products`, `customers`, `draft_orders`, `locations`,
 * `custom_collections`, `smart_collections` as `X.json`, `X/count.json` and `X/{id}.json`;
 * `collections/{id}.json` (custom or smart); `orders/{order_id}/transactions.json`,
 * `orders/{order_id}/fulfillments.json` and `orders/{order_id}/fulfillments/count.json`.
 * Why: the connector's entities (DESIGN.md §4: shop, orders, products, customers, draft_orders,
 * locations, collections, order_transactions, order_fulfillments) and their counts.
 */
export function registerRoutes(server: FakeServer, ctx: ShopifyContext): void {
  const { data } = ctx;
  const api = (path: string, handler: GuardedHandler): void => server.route('GET', `/admin/api/:version${path}`, guarded(ctx, handler));
  const collection = (type: 'custom' | 'smart') => (id: number) => {
    const found = data.collection(id);
    return found?.type === type ? withProductsCount(found.collection, data.collectionProductIds(id).length) : undefined;
  };

  api('/shop.json', (req) => getRecord('shop', data.shop, req));
  resource(api, 'orders', ordersResource(), data.orders, (id) => data.order(id));
  resource(api, 'products', productsResource(data), data.products, (id) => data.product(id));
  resource(api, 'customers', customersResource(), data.customers, (id) => data.customer(id));
  resource(api, 'draft_orders', draftOrdersResource(), data.draftOrders, (id) => data.draftOrder(id));
  resource(api, 'locations', locationsResource(), data.locations, (id) => data.location(id));
  resource(api, 'custom_collections', collectionsResource(data, 'custom'), data.customCollections, collection('custom'));
  resource(api, 'smart_collections', collectionsResource(data, 'smart'), data.smartCollections, collection('smart'));
  api('/collections/:file', (req) => {
    const id = idOfSegment(req.params['file']);
    const found = id === undefined ? undefined : data.collection(id);
    return getRecord(
      'collection',
      found ? genericCollection(found.collection, found.type, data.collectionProductIds(found.collection.id).length) : undefined,
      req,
    );
  });

  const transactions = transactionsResource();
  const fulfillments = fulfillmentsResource();
  const ofOrder = (req: FakeRequest, answer: (order: ShopifyOrder) => FakeResponse): FakeResponse => {
    const raw = req.params['orderId'] ?? '';
    const order = /^\d{1,16}$/.test(raw) ? data.order(Number(raw)) : undefined;
    return order ? answer(order) : notFound();
  };
  api('/orders/:orderId/transactions.json', (req) => ofOrder(req, (order) => listRecords(transactions, data.transactions(order.id), req)));
  api('/orders/:orderId/fulfillments.json', (req) => ofOrder(req, (order) => listRecords(fulfillments, data.fulfillments(order.id), req)));
  api('/orders/:orderId/fulfillments/count.json', (req) => ofOrder(req, (order) => countRecords(fulfillments, data.fulfillments(order.id), req)));
}

/** `X.json`, `X/count.json`, `X/{id}.json` of one top-level resource. */
function resource<R extends ShopifyRecord>(
  api: (path: string, handler: GuardedHandler) => void,
  path: string,
  def: ResourceDef<R>,
  records: readonly R[],
  find: (id: number) => Record<string, unknown> | undefined,
): void {
  api(`/${path}.json`, (req) => listRecords(def, records, req));
  api(`/${path}/count.json`, (req) => countRecords(def, records, req));
  api(`/${path}/:file`, (req) => {
    const id = idOfSegment(req.params['file']);
    return getRecord(def.singular, id === undefined ? undefined : find(id), req);
  });
}

/**
 * A custom or smart collection as its own `…/{id}.json` shows it: with `products_count` after
 * `template_suffix` (2025-01 fixture; lists omit it).
 */
function withProductsCount(collection: ShopifyCollection, count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(collection)) {
    out[name] = value;
    if (name === 'template_suffix') out['products_count'] = count;
  }
  return out;
}

/**
 * `collections/{id}.json`: the fields both kinds share, with `products_count` and
 * `collection_type` (`custom` or `smart`), without smart rules (2025-01 fixture).
 */
function genericCollection(collection: ShopifyCollection, type: 'custom' | 'smart', count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(collection)) {
    if (name === 'rules' || name === 'disjunctive') continue;
    out[name] = value;
    if (name === 'template_suffix') {
      out['products_count'] = count;
      out['collection_type'] = type;
    }
  }
  return out;
}

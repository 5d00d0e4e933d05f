/**
 * Deterministic seed of the Shopify fake: one store with locations, products, collections,
 * customers, orders (with transactions and fulfillments) and draft orders.
 */
import { createPrng } from '../prng.js';
import { money } from './money.js';
import type { EmbeddedCustomer, ShopifyCustomer } from './model.js';
import { ShopifyDataset } from './dataset.js';
import { seedCollections } from './seed-collections.js';
import { seedCustomers } from './seed-customers.js';
import { seedDraftOrders } from './seed-drafts.js';
import { seedLocations } from './seed-locations.js';
import { seedOrders } from './seed-orders.js';
import { seedProducts } from './seed-products.js';
import { seedShop } from './seed-shop.js';
import { HOUR, notAfterNow } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** Record volumes for a given `records` (the number of orders, the largest collection). */
export interface ShopifySeedPlan {
  orders: number;
  products: number;
  customers: number;
  draftOrders: number;
}

/**
 * Orders = `records`; products ≈ records/4; customers ≈ records/3; draft orders ≈ records/20
 * (at least 3).
 * Why: `--records N` sets the largest collection (DESIGN.md §8); the others keep store-like ratios.
 */
export function shopifySeedPlan(records: number): ShopifySeedPlan {
  if (!Number.isInteger(records) || records < 1) throw new RangeError(`records must be a positive integer, got ${records}`);
  return {
    orders: records,
    products: Math.max(1, Math.round(records / 4)),
    customers: Math.max(1, Math.round(records / 3)),
    draftOrders: Math.max(3, Math.round(records / 20)),
  };
}

/**
 * Builds the dataset of store `store` for `records` and `seed`.
 * Why: every request to the fake reads this one deterministic store.
 */
export function seedShopifyData(records: number, seed: number, store: string): ShopifyDataset {
  const plan = shopifySeedPlan(records);
  const rng = createPrng(seed ^ 0x5a0b1f7);
  const locations = seedLocations(rng);
  const shop = seedShop(rng, store, locations[0]!.id);
  const { products, createdMs: productCreatedMs } = seedProducts(rng, plan.products);
  const collections = seedCollections(rng, products);
  const { customers, createdMs: customerCreatedMs } = seedCustomers(rng, plan.customers);
  const seeded = seedOrders(rng, {
    count: plan.orders,
    products,
    productCreatedMs,
    customers,
    customerCreatedMs,
    locations,
    shopId: shop.id,
    shopDomain: shop.myshopify_domain,
  });
  const draftOrders = seedDraftOrders(rng, {
    count: plan.draftOrders,
    products,
    customers,
    orders: seeded.orders,
    buyers: seeded.buyers,
    shopId: shop.id,
    shopDomain: shop.myshopify_domain,
  });
  summariseCustomers(seeded.orders, seeded.buyers, rng.int(1, 90));
  for (const order of seeded.orders) {
    const buyer = seeded.buyers.get(order.id);
    if (buyer) order.customer = embedCustomer(buyer);
    else delete order.customer;
  }
  return new ShopifyDataset({
    shop,
    orders: seeded.orders,
    products,
    customers,
    draftOrders,
    locations,
    customCollections: collections.custom,
    smartCollections: collections.smart,
    transactions: seeded.transactions,
    fulfillments: seeded.fulfillments,
    members: collections.members,
  });
}

/**
 * Sets `orders_count`, `total_spent` (the current totals of the orders not cancelled),
 * `last_order_id`/`last_order_name`, and moves `updated_at` past the last order.
 * Why: B.6: customer lists carry these order summaries, and they must agree with the orders.
 */
function summariseCustomers(
  orders: ReadonlyArray<{ id: number; name: string; created_at: string; cancelled_at: string | null; current_total_price: string }>,
  buyers: ReadonlyMap<number, ShopifyCustomer>,
  lagMinutes: number,
): void {
  const spent = new Map<number, number>();
  for (const order of orders) {
    const customer = buyers.get(order.id);
    if (!customer) continue;
    customer.orders_count += 1;
    if (order.cancelled_at === null) spent.set(customer.id, (spent.get(customer.id) ?? 0) + Math.round(Number(order.current_total_price) * 100));
    customer.last_order_id = order.id;
    customer.last_order_name = order.name;
    const after = notAfterNow(Date.parse(order.created_at) + lagMinutes * 60_000 + HOUR);
    if (after > Date.parse(customer.updated_at)) customer.updated_at = shopTime(after);
  }
  for (const customer of new Set(buyers.values())) customer.total_spent = money(spent.get(customer.id) ?? 0);
}

/** The customer as orders embed it (2025-01 fixture): no counts, totals or address book. */
function embedCustomer(customer: ShopifyCustomer): EmbeddedCustomer {
  const { orders_count: _count, total_spent: _spent, last_order_id: _lastId, last_order_name: _lastName, addresses: _addresses, ...embedded } = customer;
  return embedded;
}

/**
 * The in-memory store of the seeded Shopify records (read-only: the fake serves the read side).
 */
import type {
  ShopifyCollection,
  ShopifyCustomer,
  ShopifyDraftOrder,
  ShopifyFulfillment,
  ShopifyLocation,
  ShopifyOrder,
  ShopifyProduct,
  ShopifyShop,
  ShopifyTransaction,
} from './model.js';

/** Seeded volumes; orders by `status` filter value (cancelled orders are also closed). */
export interface ShopifyCounts {
  orders: { open: number; closed: number; cancelled: number; any: number };
  products: number;
  customers: number;
  draftOrders: number;
  locations: number;
  customCollections: number;
  smartCollections: number;
  transactions: number;
  fulfillments: number;
}

/** Read access to the seeded store, for tests. Every list is in ascending id order. */
export interface ShopifyData {
  readonly shop: ShopifyShop;
  readonly orders: readonly ShopifyOrder[];
  readonly products: readonly ShopifyProduct[];
  readonly customers: readonly ShopifyCustomer[];
  readonly draftOrders: readonly ShopifyDraftOrder[];
  readonly locations: readonly ShopifyLocation[];
  readonly customCollections: readonly ShopifyCollection[];
  readonly smartCollections: readonly ShopifyCollection[];
  counts(): ShopifyCounts;
  order(id: number): ShopifyOrder | undefined;
  product(id: number): ShopifyProduct | undefined;
  customer(id: number): ShopifyCustomer | undefined;
  draftOrder(id: number): ShopifyDraftOrder | undefined;
  location(id: number): ShopifyLocation | undefined;
  /** A custom or smart collection. */
  collection(id: number): { collection: ShopifyCollection; type: 'custom' | 'smart' } | undefined;
  /** Transactions of an order, by id (empty for an unknown order). */
  transactions(orderId: number): readonly ShopifyTransaction[];
  /** Fulfillments of an order, by id (empty for an unknown order). */
  fulfillments(orderId: number): readonly ShopifyFulfillment[];
  /** Product ids in a collection, ascending (empty for an unknown collection). */
  collectionProductIds(collectionId: number): readonly number[];
}

/** Everything the seed produced. */
export interface ShopifySeed {
  shop: ShopifyShop;
  orders: ShopifyOrder[];
  products: ShopifyProduct[];
  customers: ShopifyCustomer[];
  draftOrders: ShopifyDraftOrder[];
  locations: ShopifyLocation[];
  customCollections: ShopifyCollection[];
  smartCollections: ShopifyCollection[];
  transactions: Map<number, ShopifyTransaction[]>;
  fulfillments: Map<number, ShopifyFulfillment[]>;
  members: Map<number, number[]>;
}

/**
 * Indexed, read-only view of the seed.
 * Why: the route handlers and the tests read the same records; lookups by id are O(1).
 */
export class ShopifyDataset implements ShopifyData {
  readonly shop: ShopifyShop;
  readonly orders: readonly ShopifyOrder[];
  readonly products: readonly ShopifyProduct[];
  readonly customers: readonly ShopifyCustomer[];
  readonly draftOrders: readonly ShopifyDraftOrder[];
  readonly locations: readonly ShopifyLocation[];
  readonly customCollections: readonly ShopifyCollection[];
  readonly smartCollections: readonly ShopifyCollection[];
  private readonly seed: ShopifySeed;
  private readonly orderIndex: Map<number, ShopifyOrder>;
  private readonly productIndex: Map<number, ShopifyProduct>;
  private readonly customerIndex: Map<number, ShopifyCustomer>;
  private readonly draftIndex: Map<number, ShopifyDraftOrder>;
  private readonly locationIndex: Map<number, ShopifyLocation>;
  private readonly collectionIndex = new Map<number, { collection: ShopifyCollection; type: 'custom' | 'smart' }>();
  private readonly productCollections = new Map<number, number[]>();

  constructor(seed: ShopifySeed) {
    this.seed = seed;
    this.shop = seed.shop;
    this.orders = seed.orders;
    this.products = seed.products;
    this.customers = seed.customers;
    this.draftOrders = seed.draftOrders;
    this.locations = seed.locations;
    this.customCollections = seed.customCollections;
    this.smartCollections = seed.smartCollections;
    this.orderIndex = indexById(seed.orders);
    this.productIndex = indexById(seed.products);
    this.customerIndex = indexById(seed.customers);
    this.draftIndex = indexById(seed.draftOrders);
    this.locationIndex = indexById(seed.locations);
    for (const collection of seed.customCollections) this.collectionIndex.set(collection.id, { collection, type: 'custom' });
    for (const collection of seed.smartCollections) this.collectionIndex.set(collection.id, { collection, type: 'smart' });
    for (const [collectionId, productIds] of seed.members) {
      for (const productId of productIds) {
        const list = this.productCollections.get(productId);
        if (list) list.push(collectionId);
        else this.productCollections.set(productId, [collectionId]);
      }
    }
  }

  counts(): ShopifyCounts {
    const closed = this.orders.filter((order) => order.closed_at !== null).length;
    const cancelled = this.orders.filter((order) => order.cancelled_at !== null).length;
    const open = this.orders.filter((order) => order.closed_at === null && order.cancelled_at === null).length;
    let transactions = 0;
    for (const list of this.seed.transactions.values()) transactions += list.length;
    let fulfillments = 0;
    for (const list of this.seed.fulfillments.values()) fulfillments += list.length;
    return {
      orders: { open, closed, cancelled, any: this.orders.length },
      products: this.products.length,
      customers: this.customers.length,
      draftOrders: this.draftOrders.length,
      locations: this.locations.length,
      customCollections: this.customCollections.length,
      smartCollections: this.smartCollections.length,
      transactions,
      fulfillments,
    };
  }

  order(id: number): ShopifyOrder | undefined {
    return this.orderIndex.get(id);
  }

  product(id: number): ShopifyProduct | undefined {
    return this.productIndex.get(id);
  }

  customer(id: number): ShopifyCustomer | undefined {
    return this.customerIndex.get(id);
  }

  draftOrder(id: number): ShopifyDraftOrder | undefined {
    return this.draftIndex.get(id);
  }

  location(id: number): ShopifyLocation | undefined {
    return this.locationIndex.get(id);
  }

  collection(id: number): { collection: ShopifyCollection; type: 'custom' | 'smart' } | undefined {
    return this.collectionIndex.get(id);
  }

  transactions(orderId: number): readonly ShopifyTransaction[] {
    return this.seed.transactions.get(orderId) ?? [];
  }

  fulfillments(orderId: number): readonly ShopifyFulfillment[] {
    return this.seed.fulfillments.get(orderId) ?? [];
  }

  collectionProductIds(collectionId: number): readonly number[] {
    return this.seed.members.get(collectionId) ?? [];
  }

  /** Collection ids holding a product. Why: the collections' `product_id` filter. */
  collectionIdsOfProduct(productId: number): readonly number[] {
    return this.productCollections.get(productId) ?? [];
  }
}

function indexById<T extends { id: number }>(records: readonly T[]): Map<number, T> {
  const index = new Map<number, T>();
  let last = -Infinity;
  for (const record of records) {
    if (record.id <= last) throw new Error('seeded ids must ascend');
    last = record.id;
    index.set(record.id, record);
  }
  return index;
}

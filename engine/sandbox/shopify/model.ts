/**
 * The record shapes the Shopify fake serves (API-NOTES B.6 and the Shopify Ruby library's
 * 2025-01 REST fixtures). Field names and JSON types are Shopify's; money is always a string.
 */
import type { MoneyBag, MoneySet } from './money.js';

/** Every stored record: a numeric id (JSON number) plus Shopify's fields. */
export interface ShopifyRecord {
  id: number;
  [field: string]: unknown;
}

/** `shop.json` (B.6 `shop`). */
export interface ShopifyShop extends ShopifyRecord {
  name: string;
  email: string;
  domain: string;
  myshopify_domain: string;
  currency: string;
  iana_timezone: string;
  primary_location_id: number;
  created_at: string;
  updated_at: string;
}

/** `locations.json` entries. */
export interface ShopifyLocation extends ShopifyRecord {
  name: string;
  address1: string | null;
  city: string | null;
  country_code: string;
  active: boolean;
  legacy: boolean;
  created_at: string;
  updated_at: string;
  admin_graphql_api_id: string;
}

/** A product variant (B.6 `variants[]`). */
export interface ShopifyVariant extends ShopifyRecord {
  product_id: number;
  title: string;
  price: string;
  compare_at_price: string | null;
  position: number;
  sku: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  inventory_item_id: number;
  inventory_quantity: number;
  grams: number;
  created_at: string;
  updated_at: string;
  admin_graphql_api_id: string;
}

/** A product image (B.6 `images[]`). */
export interface ShopifyImage extends ShopifyRecord {
  product_id: number;
  position: number;
  src: string;
  variant_ids: number[];
}

/** `products.json` entries (B.6 product record). */
export interface ShopifyProduct extends ShopifyRecord {
  title: string;
  body_html: string;
  vendor: string;
  product_type: string;
  handle: string;
  status: 'active' | 'archived' | 'draft';
  tags: string;
  published_at: string | null;
  published_scope: string;
  created_at: string;
  updated_at: string;
  variants: ShopifyVariant[];
  options: Array<{ id: number; product_id: number; name: string; position: number; values: string[] }>;
  images: ShopifyImage[];
  image: ShopifyImage | null;
  admin_graphql_api_id: string;
}

/** A customer's stored address (B.6 `default_address`, `addresses[]`). */
export interface ShopifyCustomerAddress extends ShopifyRecord {
  customer_id: number;
  first_name: string;
  last_name: string;
  company: string | null;
  address1: string;
  address2: string;
  city: string;
  province: string | null;
  country: string;
  zip: string;
  phone: string | null;
  name: string;
  province_code: string | null;
  country_code: string;
  country_name: string;
  default: boolean;
}

/** Marketing consent of a customer (B.6 `email_marketing_consent`, `sms_marketing_consent`). */
export interface MarketingConsent {
  state: string;
  opt_in_level: string | null;
  consent_updated_at: string | null;
  consent_collected_from?: string;
}

/** The named fields of a customer (no index signature, so that `Omit` keeps them). */
export interface CustomerFields {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  state: 'disabled' | 'invited' | 'enabled' | 'declined';
  verified_email: boolean;
  tags: string;
  note: string | null;
  currency: string;
  orders_count: number;
  total_spent: string;
  last_order_id: number | null;
  last_order_name: string | null;
  tax_exempt: boolean;
  created_at: string;
  updated_at: string;
  email_marketing_consent: MarketingConsent;
  sms_marketing_consent: MarketingConsent | null;
  default_address: ShopifyCustomerAddress;
  addresses: ShopifyCustomerAddress[];
  admin_graphql_api_id: string;
}

/** `customers.json` entries (B.6 customer record). */
export interface ShopifyCustomer extends ShopifyRecord, CustomerFields {}

/** A billing or shipping address on an order or a draft order. */
export interface OrderAddress {
  first_name: string;
  address1: string;
  phone: string | null;
  city: string;
  zip: string;
  province: string | null;
  country: string;
  last_name: string;
  address2: string;
  company: string | null;
  latitude: number | null;
  longitude: number | null;
  name: string;
  country_code: string;
  province_code: string | null;
}

/** A tax line (`{price, rate, title, price_set}`). */
export interface TaxLine {
  price: string;
  rate: number;
  title: string;
  price_set: MoneySet;
  channel_liable: boolean | null;
}

/** An order line item (B.6 line_item keys). */
export interface ShopifyLineItem extends ShopifyRecord {
  product_id: number;
  variant_id: number;
  title: string;
  variant_title: string | null;
  name: string;
  sku: string;
  vendor: string;
  quantity: number;
  current_quantity: number;
  fulfillable_quantity: number;
  fulfillment_status: 'fulfilled' | null;
  grams: number;
  price: string;
  price_set: MoneySet;
  tax_lines: TaxLine[];
  admin_graphql_api_id: string;
}

/** `orders/{order_id}/fulfillments.json` entries, also embedded in `order.fulfillments`. */
export interface ShopifyFulfillment extends ShopifyRecord {
  order_id: number;
  name: string;
  status: string;
  location_id: number;
  tracking_company: string | null;
  tracking_number: string | null;
  created_at: string;
  updated_at: string;
  line_items: ShopifyLineItem[];
  admin_graphql_api_id: string;
}

/** `orders/{order_id}/transactions.json` entries. */
export interface ShopifyTransaction extends ShopifyRecord {
  order_id: number;
  kind: 'authorization' | 'capture' | 'sale' | 'void' | 'refund';
  gateway: string;
  status: 'pending' | 'failure' | 'success' | 'error';
  amount: string;
  currency: string;
  parent_id: number | null;
  created_at: string;
  processed_at: string;
  /** Shopify writes this set with `currency`, not `currency_code` (2025-01 fixture). */
  total_unsettled_set: { presentment_money: { amount: string; currency: string }; shop_money: { amount: string; currency: string } };
  admin_graphql_api_id: string;
}

/** A refund embedded in `order.refunds`. */
export interface ShopifyRefund extends ShopifyRecord {
  order_id: number;
  created_at: string;
  processed_at: string;
  transactions: ShopifyTransaction[];
  admin_graphql_api_id: string;
}

/** The customer as embedded in an order: no counts, totals or address book (2025-01 fixture). */
export type EmbeddedCustomer = ShopifyRecord & Omit<CustomerFields, 'orders_count' | 'total_spent' | 'last_order_id' | 'last_order_name' | 'addresses'>;

/** `orders.json` entries (B.6 order record). */
export interface ShopifyOrder extends ShopifyRecord {
  name: string;
  number: number;
  order_number: number;
  email: string | null;
  created_at: string;
  updated_at: string;
  processed_at: string;
  closed_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  currency: string;
  presentment_currency: string;
  financial_status: 'pending' | 'authorized' | 'partially_paid' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';
  fulfillment_status: 'fulfilled' | 'partial' | null;
  total_price: string;
  total_price_set: MoneySet;
  subtotal_price: string;
  total_tax: string;
  total_discounts: string;
  total_line_items_price: string;
  current_total_price: string;
  tags: string;
  source_name: string;
  app_id: number | null;
  location_id: number | null;
  line_items: ShopifyLineItem[];
  fulfillments: ShopifyFulfillment[];
  refunds: ShopifyRefund[];
  customer?: EmbeddedCustomer;
  billing_address?: OrderAddress;
  shipping_address?: OrderAddress;
  admin_graphql_api_id: string;
}

/** `draft_orders.json` entries. */
export interface ShopifyDraftOrder extends ShopifyRecord {
  name: string;
  status: 'open' | 'invoice_sent' | 'completed';
  email: string | null;
  order_id: number | null;
  completed_at: string | null;
  invoice_sent_at: string | null;
  created_at: string;
  updated_at: string;
  total_price: string;
  line_items: ShopifyRecord[];
  customer?: ShopifyCustomer;
  admin_graphql_api_id: string;
}

/** A collection image (`{created_at, alt, width, height, src}`). */
export interface CollectionImage {
  created_at: string;
  alt: string | null;
  width: number;
  height: number;
  src: string;
}

/** A smart collection rule (`{column, relation, condition}`). */
export interface SmartRule {
  column: 'vendor' | 'type' | 'tag' | 'title' | 'variant_price';
  relation: 'equals' | 'starts_with' | 'contains' | 'greater_than' | 'less_than';
  condition: string;
}

/** `custom_collections.json` and `smart_collections.json` entries (no `products_count` in lists). */
export interface ShopifyCollection extends ShopifyRecord {
  handle: string;
  title: string;
  updated_at: string;
  body_html: string | null;
  published_at: string | null;
  sort_order: string;
  template_suffix: string | null;
  published_scope: string;
  admin_graphql_api_id: string;
  image?: CollectionImage;
  /** Smart collections only. */
  disjunctive?: boolean;
  rules?: SmartRule[];
}

/** The money shapes, re-exported for callers of the record types. */
export type { MoneyBag, MoneySet };

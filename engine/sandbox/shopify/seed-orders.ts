/**
 * Seeded orders with their transactions and fulfillments (B.6 order record).
 */
import type { Prng } from '../prng.js';
import { money, moneySet } from './money.js';
import type { OrderAddress, ShopifyCustomer, ShopifyFulfillment, ShopifyLocation, ShopifyOrder, ShopifyProduct, ShopifyTransaction } from './model.js';
import { priceOrder, type OrderPricing } from './order-pricing.js';
import { seedFulfillments, type FulfillmentOutcome } from './order-fulfillments.js';
import { seedPayments, type FinancialStatus, type PaymentOutcome } from './order-payments.js';
import { CANCEL_REASONS, CITIES, FIRST_NAMES, LAST_NAMES, ORDER_TAGS, STREETS } from './seed-values.js';
import { ascendingTimes, IdSequence, upperBound, weighted } from './seed-tools.js';
import { DAY, HOUR, notAfterNow, ORDERS_START, SEED_NOW } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** Apps that create orders: the Online Store, Point of Sale and Draft Orders (`app_id`). */
export const ONLINE_STORE_APP_ID = 580111;
/** `app_id` of point-of-sale orders (`attribution_app_id=129785` lists them). */
export const POS_APP_ID = 129785;
/** `app_id` of orders completed from draft orders. */
export const DRAFT_ORDERS_APP_ID = 1354745;
/** The staff member who rings up point-of-sale orders (`user_id`). */
const POS_STAFF_ID = 98_765_001;

/** What orders are built from. */
export interface OrderSeedInput {
  count: number;
  products: readonly ShopifyProduct[];
  productCreatedMs: readonly number[];
  customers: readonly ShopifyCustomer[];
  customerCreatedMs: readonly number[];
  locations: readonly ShopifyLocation[];
  shopId: number;
  shopDomain: string;
}

/** The seeded orders and their child records by order id. */
export interface SeededOrders {
  orders: ShopifyOrder[];
  transactions: Map<number, ShopifyTransaction[]>;
  fulfillments: Map<number, ShopifyFulfillment[]>;
  /** Order id -> the customer who placed it (guests are absent). */
  buyers: Map<number, ShopifyCustomer>;
}

/** The id sequences of orders and their child records. */
interface OrderIds {
  orders: IdSequence;
  lines: IdSequence;
  checkouts: IdSequence;
  children: { transactions: IdSequence; refunds: IdSequence; fulfillments: IdSequence };
}

/** What every order of one seed run draws from: the input plus the catalog and times derived from it. */
interface OrderRun {
  rng: Prng;
  input: OrderSeedInput;
  ids: OrderIds;
  active: ShopifyProduct[];
  activeCreated: number[];
  times: number[];
}

/**
 * Builds `count` orders in id order, placed over 2025-01 .. 2026-11 by customers who existed then
 * (7% guest checkouts without a customer), buying active products that existed then.
 * About 6% are cancelled (and closed), settled fulfilled orders older than a month are often
 * closed, the rest stay open; see {@link seedPayments} and {@link seedFulfillments} for the rest.
 * Why: orders are the largest collection (`--records`) and the default `status=open` filter, the
 * status filters and the child lists all need a realistic mix.
 */
export function seedOrders(rng: Prng, input: OrderSeedInput): SeededOrders {
  const run = startOrderRun(rng, input);
  const result: SeededOrders = { orders: [], transactions: new Map(), fulfillments: new Map(), buyers: new Map() };
  for (let index = 0; index < input.count; index += 1) {
    const facts = orderFacts(run, index);
    const order = buildOrder(run, facts);
    result.orders.push(order);
    result.transactions.set(facts.id, facts.payments.transactions);
    result.fulfillments.set(facts.id, facts.shipping.fulfillments);
    if (facts.customer) result.buyers.set(facts.id, facts.customer);
  }
  return result;
}

/** The id sequences, active catalog and creation times shared by every order of the run. */
function startOrderRun(rng: Prng, input: OrderSeedInput): OrderRun {
  const ids: OrderIds = {
    orders: new IdSequence(5_610_000_000_000, rng, 400_000),
    lines: new IdSequence(14_020_000_000_000, rng, 90_000),
    checkouts: new IdSequence(30_400_000_000_000, rng, 400_000),
    children: {
      transactions: new IdSequence(6_930_000_000_000, rng, 200_000),
      refunds: new IdSequence(912_000_000_000, rng, 200_000),
      fulfillments: new IdSequence(4_870_000_000_000, rng, 200_000),
    },
  };
  const active = input.products.filter((product) => product.status === 'active');
  const activeCreated = input.products.flatMap((product, i) => (product.status === 'active' ? [input.productCreatedMs[i]!] : []));
  const times = ascendingTimes(rng, input.count, ORDERS_START, SEED_NOW - 2 * HOUR);
  return { rng, input, ids, active, activeCreated, times };
}

/** Who ordered, what and when, and what happened since: every draw of one order before its record. */
interface OrderFacts {
  id: number;
  number: number;
  name: string;
  createdMs: number;
  customer: ShopifyCustomer | undefined;
  address: OrderAddress;
  email: string;
  inStore: boolean;
  pricing: OrderPricing;
  processedMs: number;
  cancelled: boolean;
  cancelledMs: number | undefined;
  financial: FinancialStatus;
  payments: PaymentOutcome;
  location: ShopifyLocation;
  shipping: FulfillmentOutcome;
  closedMs: number | undefined;
  updatedMs: number;
}

/**
 * Draws one order's buyer, basket, payment and fulfilment story in the seed's fixed draw order.
 * Why: the order record itself only formats these facts (plus its own tokens).
 */
function orderFacts(run: OrderRun, index: number): OrderFacts {
  const { rng, input } = run;
  const id = run.ids.orders.next();
  const createdMs = run.times[index]!;
  const number = index + 1;
  const name = `#${1000 + number}`;
  const known = upperBound(input.customerCreatedMs as number[], createdMs);
  const customer = known > 0 && rng.chance(0.93) ? input.customers[rng.int(0, known - 1)] : undefined;
  const address = customer ? orderAddress(customer.default_address) : guestAddress(rng);
  const email = customer ? customer.email : `guest.${number}@example.com`;
  const inStore = rng.chance(0.08);
  const catalog = run.active.slice(0, Math.max(1, upperBound(run.activeCreated, createdMs)));
  const pricing = priceOrder(rng, run.ids.lines, catalog, address.country_code, !inStore);
  const processedMs = rng.chance(0.05) ? createdMs - rng.int(1, 72) * HOUR : createdMs;
  const cancelled = !inStore && rng.chance(0.06);
  const cancelledMs = cancelled ? notAfterNow(processedMs + rng.int(1, 48) * HOUR) : undefined;
  const financial = financialStatus(rng, cancelled, inStore);
  const settled = financial === 'paid' || financial === 'partially_refunded' || financial === 'refunded';
  const wanted = wantedFulfilment(rng, cancelled || !settled, inStore, processedMs);
  const buyerName = `${address.first_name} ${address.last_name}`;
  const payments = seedPayments(rng, run.ids.children, {
    orderId: id,
    orderName: name,
    totalCents: pricing.totalCents,
    processedMs,
    financial,
    cancelledMs,
    buyerName,
  });
  const [warehouse, shop, fulfilmentCentre] = input.locations;
  const location = inStore ? shop! : address.country_code === 'CA' ? fulfilmentCentre! : warehouse!;
  const shipping = seedFulfillments(rng, run.ids.children.fulfillments, {
    orderId: id,
    orderName: name,
    lines: pricing.lines,
    processedMs,
    wanted,
    locationId: location.id,
    inStore,
  });
  const { closedMs, updatedMs } = orderClosing(rng, { cancelled, cancelledMs, settled, payments, shipping });
  if (cancelled) for (const line of pricing.lines) Object.assign(line, { current_quantity: 0, fulfillable_quantity: 0 });
  return {
    id,
    number,
    name,
    createdMs,
    customer,
    address,
    email,
    inStore,
    pricing,
    processedMs,
    cancelled,
    cancelledMs,
    financial,
    payments,
    location,
    shipping,
    closedMs,
    updatedMs,
  };
}

/** Cancelled orders are voided or refunded, in-store sales paid, online orders mostly paid. */
function financialStatus(rng: Prng, cancelled: boolean, inStore: boolean): FinancialStatus {
  if (cancelled) return rng.chance(0.5) ? 'voided' : 'refunded';
  if (inStore) return 'paid';
  return weighted(rng, [
    ['paid', 78],
    ['pending', 4],
    ['authorized', 5],
    ['partially_paid', 2],
    ['partially_refunded', 7],
    ['refunded', 4],
  ] as const);
}

/** Unsettled orders ship nothing; in-store sales are handed over; older online orders mostly shipped. */
function wantedFulfilment(rng: Prng, unshippable: boolean, inStore: boolean, processedMs: number): 'fulfilled' | 'partial' | null {
  if (unshippable) return null;
  if (inStore) return 'fulfilled';
  const ageDays = (SEED_NOW - processedMs) / DAY;
  return ageDays > 14
    ? weighted(rng, [
        ['fulfilled', 85],
        ['partial', 5],
        [null, 10],
      ] as const)
    : weighted(rng, [
        ['fulfilled', 40],
        ['partial', 15],
        [null, 45],
      ] as const);
}

/** What decides when an order closes and was last updated. */
interface ClosingInput {
  cancelled: boolean;
  cancelledMs: number | undefined;
  settled: boolean;
  payments: PaymentOutcome;
  shipping: FulfillmentOutcome;
}

/** Settled, fulfilled orders quiet for a month are often closed; `updated_at` follows the last event. */
function orderClosing(rng: Prng, at: ClosingInput): { closedMs: number | undefined; updatedMs: number } {
  let closedMs = at.cancelledMs;
  const lastEventMs = Math.max(at.payments.lastEventMs, at.shipping.lastEventMs);
  if (!at.cancelled && at.shipping.status === 'fulfilled' && at.settled && SEED_NOW - lastEventMs > 30 * DAY && rng.chance(0.6)) {
    closedMs = notAfterNow(lastEventMs + rng.int(2, 20) * DAY);
  }
  const updatedMs = notAfterNow(Math.max(lastEventMs, closedMs ?? 0, at.cancelledMs ?? 0) + rng.int(0, 120) * 60_000);
  return { closedMs, updatedMs };
}

/** The order's own tokens and marks, drawn after its facts and before its record. */
interface OrderExtras {
  set: (cents: number) => ShopifyOrder['total_price_set'];
  currentTotal: number;
  subtotal: number;
  currentSubtotal: number;
  currentTax: number;
  currentDiscounts: number;
  token: string;
  browserIp: string | null;
  tags: string;
}

/**
 * The B.6 order record of `facts`. The record is built in parts whose keys follow one another, so
 * the keys keep Shopify's order and the parts' draws keep the seed's draw order.
 */
function buildOrder(run: OrderRun, facts: OrderFacts): ShopifyOrder {
  const extras = orderExtras(run.rng, facts);
  const order: ShopifyOrder = {
    ...checkoutFields(run, facts, extras),
    ...currentTotalFields(facts, extras),
    ...statusFields(run, facts, extras),
    ...totalFields(facts, extras),
    ...childFields(run, facts, extras),
  };
  if (facts.inStore) delete order.shipping_address;
  return order;
}

/** Money after refunds, the order token, browser IP and tags (in this draw order). */
function orderExtras(rng: Prng, facts: OrderFacts): OrderExtras {
  const { pricing, payments } = facts;
  const set = (cents: number) => moneySet(cents, pricing.presentment);
  const currentTotal = facts.cancelled ? 0 : pricing.totalCents - payments.refundedCents;
  const share = pricing.totalCents > 0 ? currentTotal / pricing.totalCents : 0;
  const subtotal = pricing.lineItemsCents - pricing.discountCents;
  const currentSubtotal = Math.round(subtotal * share);
  const currentTax = Math.round(pricing.taxCents * share);
  const currentDiscounts = Math.round(pricing.discountCents * share);
  const token = rng.hex(32);
  const browserIp = facts.inStore ? null : `203.0.113.${rng.int(1, 254)}`;
  const tags = rng.chance(0.2) ? [...new Set([rng.pick(ORDER_TAGS), rng.pick(ORDER_TAGS)])].sort().join(', ') : '';
  return { set, currentTotal, subtotal, currentSubtotal, currentTax, currentDiscounts, token, browserIp, tags };
}

/** Keys `id` .. `client_details`: identity, app, cancellation and checkout. */
function checkoutFields(run: OrderRun, facts: OrderFacts, extras: OrderExtras) {
  const { rng } = run;
  const { id, inStore, cancelled, cancelledMs, customer } = facts;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    app_id: inStore ? POS_APP_ID : ONLINE_STORE_APP_ID,
    browser_ip: extras.browserIp,
    buyer_accepts_marketing: customer?.email_marketing_consent.state === 'subscribed',
    cancel_reason: cancelled ? rng.pick(CANCEL_REASONS) : null,
    cancelled_at: cancelledMs === undefined ? null : shopTime(cancelledMs),
    cart_token: inStore ? null : rng.hex(32),
    checkout_id: inStore ? null : run.ids.checkouts.next(),
    checkout_token: inStore ? null : rng.hex(32),
    client_details: inStore
      ? null
      : {
          accept_language: 'en-US,en;q=0.9',
          browser_height: null,
          browser_ip: extras.browserIp,
          browser_width: null,
          session_hash: null,
          user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        },
  } satisfies Partial<ShopifyOrder>;
}

/** Keys `closed_at` .. `customer_locale`: closing, contact and the money left after refunds. */
function currentTotalFields(facts: OrderFacts, extras: OrderExtras) {
  const { set } = extras;
  return {
    closed_at: facts.closedMs === undefined ? null : shopTime(facts.closedMs),
    confirmation_number: extras.token.slice(0, 9).toUpperCase(),
    confirmed: true,
    contact_email: facts.email,
    created_at: shopTime(facts.createdMs),
    currency: 'USD',
    current_subtotal_price: money(extras.currentSubtotal),
    current_subtotal_price_set: set(extras.currentSubtotal),
    current_total_additional_fees_set: null,
    current_total_discounts: money(extras.currentDiscounts),
    current_total_discounts_set: set(extras.currentDiscounts),
    current_total_duties_set: null,
    current_total_price: money(extras.currentTotal),
    current_total_price_set: set(extras.currentTotal),
    current_total_tax: money(extras.currentTax),
    current_total_tax_set: set(extras.currentTax),
    customer_locale: facts.address.country_code === 'CA' && facts.address.province_code === 'QC' ? 'fr-CA' : 'en',
  } satisfies Partial<ShopifyOrder>;
}

/** Keys `device_id` .. `tags`: discounts, statuses, notes, numbers, payment and source. */
function statusFields(run: OrderRun, facts: OrderFacts, extras: OrderExtras) {
  const { rng, input } = run;
  const { pricing, inStore, customer } = facts;
  return {
    device_id: null,
    discount_codes: pricing.discount ? [{ code: pricing.discount.code, amount: money(pricing.discountCents), type: pricing.discount.type }] : [],
    duties_included: false,
    email: facts.email,
    estimated_taxes: false,
    financial_status: facts.financial,
    fulfillment_status: facts.shipping.status,
    landing_site: inStore ? null : rng.pick(['/', '/collections/staff-picks', '/products?utm_source=newsletter']),
    landing_site_ref: null,
    location_id: inStore ? facts.location.id : null,
    merchant_business_entity_id: 'MTYxMDAwMDAwMDA',
    merchant_of_record_app_id: null,
    name: facts.name,
    note: rng.chance(0.05) ? 'Please leave the parcel with the neighbour — merci !' : null,
    note_attributes: rng.chance(0.05) ? [{ name: 'gift_wrap', value: 'yes' }] : [],
    number: facts.number,
    order_number: 1000 + facts.number,
    order_status_url: `https://${input.shopDomain}/${input.shopId}/orders/${extras.token}/authenticate?key=${rng.hex(32)}`,
    original_total_additional_fees_set: null,
    original_total_duties_set: null,
    payment_gateway_names: facts.payments.gatewayNames,
    phone: customer?.phone ?? null,
    po_number: null,
    presentment_currency: pricing.presentment.currency,
    processed_at: shopTime(facts.processedMs),
    reference: null,
    referring_site: inStore ? null : rng.pick(['https://www.google.com/', 'https://www.instagram.com/', '']),
    source_identifier: null,
    source_name: inStore ? 'pos' : 'web',
    source_url: null,
    subtotal_price: money(extras.subtotal),
    subtotal_price_set: extras.set(extras.subtotal),
    tags: extras.tags,
  } satisfies Partial<ShopifyOrder>;
}

/** Keys `tax_exempt` .. `billing_address`: taxes and the order's totals. */
function totalFields(facts: OrderFacts, extras: OrderExtras) {
  const { pricing } = facts;
  const { set } = extras;
  return {
    tax_exempt: facts.customer?.tax_exempt ?? false,
    tax_lines:
      pricing.tax.rate > 0
        ? [{ price: money(pricing.taxCents), rate: pricing.tax.rate, title: pricing.tax.title, price_set: set(pricing.taxCents), channel_liable: false }]
        : [],
    taxes_included: false,
    test: false,
    token: extras.token,
    total_cash_rounding_payment_adjustment_set: set(0),
    total_cash_rounding_refund_adjustment_set: set(0),
    total_discounts: money(pricing.discountCents),
    total_discounts_set: set(pricing.discountCents),
    total_line_items_price: money(pricing.lineItemsCents),
    total_line_items_price_set: set(pricing.lineItemsCents),
    total_outstanding: money(facts.payments.outstandingCents),
    total_price: money(pricing.totalCents),
    total_price_set: set(pricing.totalCents),
    total_shipping_price_set: set(pricing.shippingCents),
    total_tax: money(pricing.taxCents),
    total_tax_set: set(pricing.taxCents),
    total_tip_received: '0.00',
    total_weight: pricing.grams,
    updated_at: shopTime(facts.updatedMs),
    user_id: facts.inStore ? POS_STAFF_ID : null,
    billing_address: facts.address,
  } satisfies Partial<ShopifyOrder>;
}

/** Keys `customer` .. `shipping_lines`: the embedded lists and addresses. */
function childFields(run: OrderRun, facts: OrderFacts, extras: OrderExtras) {
  const { pricing, inStore } = facts;
  return {
    // The embedded customer is filled in once every order exists (it shows the final customer).
    customer: undefined,
    discount_applications: discountApplications(pricing.discount),
    fulfillments: facts.shipping.fulfillments,
    line_items: pricing.lines,
    payment_terms: null,
    refunds: facts.payments.refunds,
    shipping_address: inStore ? undefined : facts.address,
    shipping_lines: inStore ? [] : [shippingLine(run.ids.lines.next(), pricing, extras.set)],
  } satisfies Partial<ShopifyOrder>;
}

/** The order's one discount application, when a code was used. */
function discountApplications(discount: OrderPricing['discount']): Record<string, unknown>[] {
  if (!discount) return [];
  const value = discount.type === 'percentage' ? `${discount.value}.0` : money(discount.value);
  return [
    {
      target_type: 'line_item',
      type: 'discount_code',
      value,
      value_type: discount.type,
      allocation_method: 'across',
      target_selection: 'all',
      code: discount.code,
    },
  ];
}

/** The shipping line of a shipped order. */
function shippingLine(id: number, pricing: OrderPricing, set: OrderExtras['set']): Record<string, unknown> {
  return {
    id,
    carrier_identifier: null,
    code: pricing.shippingTitle,
    discounted_price: money(pricing.shippingCents),
    discounted_price_set: set(pricing.shippingCents),
    is_removed: false,
    phone: null,
    price: money(pricing.shippingCents),
    price_set: set(pricing.shippingCents),
    requested_fulfillment_service_id: null,
    source: 'shopify',
    title: pricing.shippingTitle,
    tax_lines: [],
    discount_allocations: [],
  };
}

/** An order's copy of a customer address (no ids, plus coordinates). */
function orderAddress(address: ShopifyCustomer['default_address']): OrderAddress {
  return {
    first_name: address.first_name,
    address1: address.address1,
    phone: address.phone,
    city: address.city,
    zip: address.zip,
    province: address.province,
    country: address.country,
    last_name: address.last_name,
    address2: address.address2,
    company: address.company,
    latitude: null,
    longitude: null,
    name: address.name,
    country_code: address.country_code,
    province_code: address.province_code,
  };
}

function guestAddress(rng: Prng): OrderAddress {
  const [city, province, provinceCode, zipPrefix, country, countryCode] = rng.pick(CITIES);
  const firstName = rng.pick(FIRST_NAMES);
  const lastName = rng.pick(LAST_NAMES);
  return {
    first_name: firstName,
    address1: `${rng.int(1, 4800)} ${rng.pick(STREETS)}`,
    phone: null,
    city,
    zip: /^\d+$/.test(zipPrefix) ? `${zipPrefix}${String(rng.int(0, 99)).padStart(2, '0')}` : `${zipPrefix} ${rng.int(1, 9)}B${rng.int(1, 9)}`,
    province,
    country,
    last_name: lastName,
    address2: '',
    company: null,
    latitude: null,
    longitude: null,
    name: `${firstName} ${lastName}`,
    country_code: countryCode,
    province_code: provinceCode,
  };
}

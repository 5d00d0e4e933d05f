/**
 * Seeded draft orders: open, invoiced and completed (the completed ones became real orders).
 */
import type { Prng } from '../prng.js';
import { money, moneySet } from './money.js';
import type { ShopifyCustomer, ShopifyDraftOrder, ShopifyLineItem, ShopifyOrder, ShopifyProduct, ShopifyRecord } from './model.js';
import { DRAFT_ORDERS_APP_ID } from './seed-orders.js';
import { ascendingTimes, IdSequence, weighted } from './seed-tools.js';
import { DAY, DRAFTS_START, HOUR, notAfterNow, SEED_NOW } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** What draft orders are built from. */
export interface DraftSeedInput {
  count: number;
  products: readonly ShopifyProduct[];
  customers: readonly ShopifyCustomer[];
  orders: ShopifyOrder[];
  buyers: ReadonlyMap<number, ShopifyCustomer>;
  shopId: number;
  shopDomain: string;
}

const STAFF_APP_CLIENT_ID = 755357713;

/** What every draft of one seed run draws from. */
interface DraftRun {
  rng: Prng;
  input: DraftSeedInput;
  lineIds: IdSequence;
  usedOrders: Set<number>;
  active: ShopifyProduct[];
}

/** Who the draft is for, what it holds and, when completed, when its order was placed. */
interface DraftContents {
  customer: ShopifyCustomer | undefined;
  lines: ShopifyRecord[];
  completedMs: number | undefined;
}

/**
 * Builds `count` draft orders in id order over 2026: half open, a fifth invoiced, the rest
 * completed. A completed draft points at (`order_id`) a web order placed after it, whose
 * `source_name` becomes `shopify_draft_order`, and carries that order's lines and customer.
 * Why: `draft_orders.json` filters by `status` and the drafts must link to real orders.
 */
export function seedDraftOrders(rng: Prng, input: DraftSeedInput): ShopifyDraftOrder[] {
  const ids = new IdSequence(1_120_000_000_000, rng, 500_000);
  const lineIds = new IdSequence(58_300_000_000_000, rng, 90_000);
  const times = ascendingTimes(rng, input.count, DRAFTS_START, SEED_NOW - 3 * DAY);
  const active = input.products.filter((product) => product.status === 'active');
  const run: DraftRun = { rng, input, lineIds, usedOrders: new Set<number>(), active };
  const drafts: ShopifyDraftOrder[] = [];
  for (let index = 0; index < input.count; index += 1) {
    const id = ids.next();
    const createdMs = times[index]!;
    const { status, order } = draftStatus(run, createdMs);
    const contents = order ? completedContents(run, order) : openContents(run);
    drafts.push(draftRecord(run, { id, index, createdMs, status, order, ...contents }));
  }
  return drafts;
}

/** A weighted status; a draft to complete takes one of the next 40 unused web orders placed after it, or stays open. */
function draftStatus(run: DraftRun, createdMs: number): { status: ShopifyDraftOrder['status']; order: ShopifyOrder | undefined } {
  const status = weighted(run.rng, [
    ['open', 50],
    ['invoice_sent', 20],
    ['completed', 30],
  ] as const);
  if (status !== 'completed') return { status, order: undefined };
  const candidates = run.input.orders.filter(
    (candidate) =>
      !run.usedOrders.has(candidate.id) && candidate.source_name === 'web' && candidate.cancelled_at === null && Date.parse(candidate.created_at) > createdMs,
  );
  const order = candidates.length > 0 ? candidates[run.rng.int(0, Math.min(candidates.length, 40) - 1)] : undefined;
  return { status: order ? status : 'open', order };
}

/** A completed draft marks its order as made from a draft and carries the order's buyer and lines. */
function completedContents(run: DraftRun, order: ShopifyOrder): DraftContents {
  run.usedOrders.add(order.id);
  order.source_name = 'shopify_draft_order';
  order.app_id = DRAFT_ORDERS_APP_ID;
  const customer = run.input.buyers.get(order.id);
  const completedMs = Date.parse(order.created_at);
  const lines = order.line_items.map((line) => draftLine(run.lineIds.next(), line));
  return { customer, lines, completedMs };
}

/** An open or invoiced draft: mostly for a customer, 1-3 lines of active products. */
function openContents(run: DraftRun): DraftContents {
  const { rng, input } = run;
  const customer = rng.chance(0.8) && input.customers.length > 0 ? rng.pick(input.customers) : undefined;
  const lines = Array.from({ length: rng.int(1, 3) }, () => {
    const product = rng.pick(run.active);
    const variant = rng.pick(product.variants);
    const quantity = rng.int(1, 5);
    return draftLine(run.lineIds.next(), {
      variant_id: variant.id,
      product_id: product.id,
      title: product.title,
      variant_title: variant.title === 'Default Title' ? null : variant.title,
      sku: variant.sku,
      vendor: product.vendor,
      quantity,
      grams: variant.grams,
      price: variant.price,
      name: variant.title === 'Default Title' ? product.title : `${product.title} - ${variant.title}`,
    });
  });
  return { customer, lines, completedMs: undefined };
}

/** Everything a draft record is formatted from. */
interface DraftFacts extends DraftContents {
  id: number;
  index: number;
  createdMs: number;
  status: ShopifyDraftOrder['status'];
  order: ShopifyOrder | undefined;
}

/** The B.6 draft order record; guests' drafts have no `customer` key. */
function draftRecord(run: DraftRun, facts: DraftFacts): ShopifyDraftOrder {
  const { rng, input } = run;
  const { id, createdMs, customer } = facts;
  const invoiceMs = facts.status === 'open' ? undefined : notAfterNow(createdMs + rng.int(1, 48) * HOUR);
  const updatedMs = facts.completedMs ?? invoiceMs ?? createdMs;
  const lineCents = facts.lines.reduce((sum, line) => sum + Math.round(Number(line['price']) * 100) * Number(line['quantity']), 0);
  const taxCents = Math.round(lineCents * 0.056);
  const totalCents = lineCents + taxCents;
  const shippingAddress = draftAddress(customer);
  const draft: ShopifyDraftOrder = {
    id,
    note: rng.chance(0.3) ? 'Wholesale quote — valid 30 days' : null,
    email: customer?.email ?? null,
    taxes_included: false,
    currency: 'USD',
    invoice_sent_at: invoiceMs === undefined ? null : shopTime(invoiceMs),
    created_at: shopTime(createdMs),
    updated_at: shopTime(Math.max(updatedMs, createdMs)),
    tax_exempt: false,
    completed_at: facts.completedMs === undefined ? null : shopTime(facts.completedMs),
    name: `#D${facts.index + 1}`,
    'allow_discount_codes_in_checkout?': false,
    'b2b?': false,
    status: facts.status,
    line_items: facts.lines,
    api_client_id: STAFF_APP_CLIENT_ID,
    shipping_address: shippingAddress,
    billing_address: shippingAddress ? { ...shippingAddress } : null,
    invoice_url: `https://${input.shopDomain}/${input.shopId}/invoices/${rng.hex(32)}`,
    created_on_api_version: null,
    applied_discount: null,
    order_id: facts.order?.id ?? null,
    shipping_line: null,
    tax_lines: [{ rate: 0.056, title: 'State Tax', price: money(taxCents) }],
    tags: rng.chance(0.3) ? 'wholesale' : '',
    note_attributes: [],
    total_price: money(totalCents),
    subtotal_price: money(lineCents),
    total_tax: money(taxCents),
    payment_terms: null,
    presentment_currency: 'USD',
    total_line_items_price_set: moneySet(lineCents),
    total_price_set: moneySet(totalCents),
    subtotal_price_set: moneySet(lineCents),
    total_tax_set: moneySet(taxCents),
    total_discounts_set: moneySet(0),
    total_shipping_price_set: moneySet(0),
    total_additional_fees_set: moneySet(0),
    total_duties_set: moneySet(0),
    admin_graphql_api_id: `gid://shopify/DraftOrder/${id}`,
    customer: undefined,
  };
  if (customer) draft.customer = customer;
  else delete draft.customer;
  return draft;
}

/** The customer's default address as a draft's shipping address (none for guests). */
function draftAddress(customer: ShopifyCustomer | undefined): Record<string, unknown> | null {
  const address = customer?.default_address;
  if (!address) return null;
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

type LineSource = Pick<ShopifyLineItem, 'variant_id' | 'product_id' | 'title' | 'variant_title' | 'sku' | 'vendor' | 'quantity' | 'grams' | 'price' | 'name'>;

/** A draft order line item (2025-01 fixture field order). */
function draftLine(id: number, line: LineSource): ShopifyRecord {
  const cents = Math.round(Number(line.price) * 100) * line.quantity;
  return {
    id,
    variant_id: line.variant_id,
    product_id: line.product_id,
    title: line.title,
    variant_title: line.variant_title,
    sku: line.sku,
    vendor: line.vendor,
    quantity: line.quantity,
    requires_shipping: true,
    taxable: true,
    gift_card: false,
    fulfillment_service: 'manual',
    grams: line.grams,
    tax_lines: [{ rate: 0.056, title: 'State Tax', price: money(Math.round(cents * 0.056)) }],
    applied_discount: null,
    name: line.name,
    properties: [],
    custom: false,
    price: line.price,
    admin_graphql_api_id: `gid://shopify/DraftOrderLineItem/${id}`,
  };
}

/**
 * Line items, discounts, taxes, shipping and totals of one seeded order (B.6 order record).
 */
import type { Prng } from '../prng.js';
import { money, moneySet, type Presentment } from './money.js';
import type { ShopifyLineItem, ShopifyProduct, TaxLine } from './model.js';
import { DISCOUNT_CODES } from './seed-values.js';
import { weighted, type IdSequence } from './seed-tools.js';

/** The tax a destination country charges on goods (shipping is untaxed here). */
interface TaxRule {
  rate: number;
  title: string;
}

const TAX_BY_COUNTRY: Record<string, TaxRule> = {
  US: { rate: 0.056, title: 'State Tax' },
  CA: { rate: 0.05, title: 'GST' },
  DE: { rate: 0.19, title: 'MwSt.' },
  SE: { rate: 0.25, title: 'Moms' },
};

/** Buyers in Canada pay in CAD, in Germany and Sweden in EUR; everyone else in the shop's USD. */
export function presentmentFor(countryCode: string): Presentment {
  if (countryCode === 'CA') return { currency: 'CAD', rate: 1.37 };
  if (countryCode === 'DE' || countryCode === 'SE') return { currency: 'EUR', rate: 0.92 };
  return { currency: 'USD', rate: 1 };
}

/** An applied discount code of the order. */
export interface AppliedDiscount {
  code: string;
  type: 'percentage' | 'fixed_amount';
  /** Percent, or cents for fixed amounts. */
  value: number;
}

/** Everything money-related of a priced order, in cents. */
export interface OrderPricing {
  lines: ShopifyLineItem[];
  lineItemsCents: number;
  discountCents: number;
  taxCents: number;
  shippingCents: number;
  totalCents: number;
  grams: number;
  tax: TaxRule;
  discount: AppliedDiscount | undefined;
  shippingTitle: string;
  presentment: Presentment;
}

/** How many lines an order has, with weights (most orders hold one or two products). */
const LINE_COUNTS = [
  [1, 45],
  [2, 30],
  [3, 15],
  [4, 10],
] as const;

/** The quantity of a line, with weights. */
const QUANTITIES = [
  [1, 70],
  [2, 20],
  [3, 10],
] as const;

/**
 * Prices an order of 1-4 lines from `catalog` (products on sale when the order was placed):
 * optional discount code allocated across lines, per-line tax, flat or free shipping (none for
 * orders handed over in a shop, `shipped: false`).
 * Why: the totals must add up (`total_price = subtotal + shipping + tax`) so that clients that
 * check money fields against line items see a coherent store.
 */
export function priceOrder(rng: Prng, lineIds: IdSequence, catalog: readonly ShopifyProduct[], countryCode: string, shipped: boolean): OrderPricing {
  const presentment = presentmentFor(countryCode);
  const tax = TAX_BY_COUNTRY[countryCode] ?? { rate: 0, title: 'Tax' };
  const count = weighted(rng, LINE_COUNTS);
  const picks = Array.from({ length: count }, () => {
    const product = rng.pick(catalog);
    const variant = rng.pick(product.variants);
    return {
      product,
      variant,
      quantity: weighted(rng, QUANTITIES),
    };
  });
  const lineTotals = picks.map(({ variant, quantity }) => Math.round(Number(variant.price) * 100) * quantity);
  const lineItemsCents = lineTotals.reduce((sum, cents) => sum + cents, 0);
  const discount = rng.chance(0.2) ? rng.pick(DISCOUNT_CODES) : undefined;
  const allocations = allocate(lineTotals, discount);
  const taxes = lineTotals.map((cents, i) => Math.round((cents - allocations[i]!) * tax.rate));
  const discountCents = allocations.reduce((sum, cents) => sum + cents, 0);
  const taxCents = taxes.reduce((sum, cents) => sum + cents, 0);
  const subtotal = lineItemsCents - discountCents;
  const shippingCents = !shipped ? 0 : countryCode === 'US' ? (subtotal >= 7500 ? 0 : 795) : 1995;

  const lines: ShopifyLineItem[] = picks.map(({ product, variant, quantity }, i) => {
    const id = lineIds.next();
    const priceCents = Math.round(Number(variant.price) * 100);
    const variantTitle = variant.title === 'Default Title' ? null : variant.title;
    const taxLine: TaxLine = { channel_liable: null, price: money(taxes[i]!), price_set: moneySet(taxes[i]!, presentment), rate: tax.rate, title: tax.title };
    return {
      id,
      admin_graphql_api_id: `gid://shopify/LineItem/${id}`,
      attributed_staffs: [],
      current_quantity: quantity,
      fulfillable_quantity: quantity,
      fulfillment_service: 'manual',
      fulfillment_status: null,
      gift_card: false,
      grams: variant.grams,
      name: variantTitle ? `${product.title} - ${variantTitle}` : product.title,
      price: money(priceCents),
      price_set: moneySet(priceCents, presentment),
      product_exists: true,
      product_id: product.id,
      properties: rng.chance(0.05) ? [{ name: 'Gift message', value: 'Joyeux anniversaire !' }] : [],
      quantity,
      requires_shipping: true,
      sku: variant.sku,
      taxable: true,
      title: product.title,
      total_discount: '0.00',
      total_discount_set: moneySet(0, presentment),
      variant_id: variant.id,
      variant_inventory_management: 'shopify',
      variant_title: variantTitle,
      vendor: product.vendor,
      tax_lines: tax.rate > 0 ? [taxLine] : [],
      duties: [],
      discount_allocations:
        discount && allocations[i]! > 0
          ? [{ amount: money(allocations[i]!), amount_set: moneySet(allocations[i]!, presentment), discount_application_index: 0 }]
          : [],
    };
  });

  return {
    lines,
    lineItemsCents,
    discountCents,
    taxCents,
    shippingCents,
    totalCents: subtotal + shippingCents + taxCents,
    grams: picks.reduce((sum, { variant, quantity }) => sum + variant.grams * quantity, 0),
    tax,
    discount,
    shippingTitle: countryCode === 'US' ? 'Standard' : 'International',
    presentment,
  };
}

/** Splits a discount across lines in proportion to their totals; the last line takes the rounding rest. */
function allocate(lineTotals: readonly number[], discount: AppliedDiscount | undefined): number[] {
  if (!discount) return lineTotals.map(() => 0);
  const sum = lineTotals.reduce((a, b) => a + b, 0);
  const total = discount.type === 'percentage' ? Math.round((sum * discount.value) / 100) : Math.min(discount.value, sum);
  let rest = total;
  return lineTotals.map((cents, i) => {
    if (i === lineTotals.length - 1) return rest;
    const share = Math.round((total * cents) / sum);
    rest -= share;
    return share;
  });
}

/**
 * Money as the Shopify REST Admin API writes it: decimal strings, each with a `*_set` sibling.
 */

/** The seeded shop's currency (`shop.currency`, every `shop_money`). */
export const SHOP_CURRENCY = 'USD';

/** One amount in one currency (`{amount, currency_code}`). */
export interface MoneyBag {
  amount: string;
  currency_code: string;
}

/** A `*_set` value: the amount in the shop's and in the buyer's (presentment) currency. */
export interface MoneySet {
  shop_money: MoneyBag;
  presentment_money: MoneyBag;
}

/** The buyer-facing currency of an order and its rate from the shop currency. */
export interface Presentment {
  currency: string;
  /** Presentment units per shop unit. */
  rate: number;
}

/** Orders presented in the shop currency. */
export const SHOP_PRESENTMENT: Presentment = { currency: SHOP_CURRENCY, rate: 1 };

/**
 * Formats integer cents as `"12.50"`.
 * Why: B.6: money fields are strings with two decimals, never JSON numbers.
 */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The `*_set` sibling of an amount: shop money in USD and the buyer's presentment money.
 * Why: B.6: "each with a `*_set` sibling `{shop_money:{amount,currency_code}, presentment_money:{…}}`".
 */
export function moneySet(cents: number, presentment: Presentment = SHOP_PRESENTMENT): MoneySet {
  return {
    shop_money: { amount: money(cents), currency_code: SHOP_CURRENCY },
    presentment_money: { amount: money(Math.round(cents * presentment.rate)), currency_code: presentment.currency },
  };
}

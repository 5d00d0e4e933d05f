/**
 * Seeded customers with their address books (B.6 customer record). Order totals
 * (`orders_count`, `total_spent`, `last_order_*`) are filled in once the orders exist.
 */
import type { Prng } from '../prng.js';
import type { MarketingConsent, ShopifyCustomer, ShopifyCustomerAddress } from './model.js';
import { CITIES, COMPANIES, CUSTOMER_TAGS, FIRST_NAMES, LAST_NAMES, STREETS } from './seed-values.js';
import { asciiFold, ascendingTimes, IdSequence, weighted } from './seed-tools.js';
import { CUSTOMERS_START, DAY, SEED_NOW } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** Customer creation times in epoch ms, parallel to the customer array. */
export interface SeededCustomers {
  customers: ShopifyCustomer[];
  createdMs: number[];
}

const MAIL_DOMAINS = ['example.com', 'mail.example', 'inbox.example'] as const;

/**
 * Builds `count` customers in id order, each with 1-3 addresses (the first is the default).
 * Why: the customers list and its filters read them, and orders copy their default address and
 * embed them.
 */
export function seedCustomers(rng: Prng, count: number): SeededCustomers {
  const ids = new IdSequence(7_250_000_000_000, rng, 60_000);
  const addressIds = new IdSequence(9_310_000_000_000, rng, 60_000);
  const createdMs = ascendingTimes(rng, count, CUSTOMERS_START, SEED_NOW - 10 * DAY);
  const emails = new Set<string>();
  const customers: ShopifyCustomer[] = [];

  for (let index = 0; index < count; index += 1) {
    const id = ids.next();
    const created = createdMs[index]!;
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    const email = uniqueEmail(firstName, lastName, rng.pick(MAIL_DOMAINS), emails);
    const phone = rng.chance(0.7) ? `+1602555${String(1000 + index).slice(-4)}` : null;
    const addresses: ShopifyCustomerAddress[] = [];
    const addressCount = weighted(rng, [
      [1, 70],
      [2, 22],
      [3, 8],
    ] as const);
    for (let k = 0; k < addressCount; k += 1) {
      addresses.push(seedAddress(rng, addressIds.next(), id, firstName, lastName, phone, k === 0));
    }
    const emailState = weighted(rng, [
      ['subscribed', 40],
      ['not_subscribed', 50],
      ['unsubscribed', 10],
    ] as const);
    const emailConsent: MarketingConsent = {
      state: emailState,
      opt_in_level: emailState === 'subscribed' ? 'single_opt_in' : null,
      consent_updated_at: emailState === 'not_subscribed' ? null : shopTime(created + rng.int(0, 5) * DAY),
    };
    const smsConsent: MarketingConsent | null = phone
      ? { state: 'not_subscribed', opt_in_level: 'single_opt_in', consent_updated_at: null, consent_collected_from: 'OTHER' }
      : null;
    const tags = new Set<string>();
    for (let n = rng.int(0, 2); tags.size < n;) tags.add(rng.pick(CUSTOMER_TAGS));
    customers.push({
      id,
      email,
      created_at: shopTime(created),
      updated_at: shopTime(created),
      first_name: firstName,
      last_name: lastName,
      orders_count: 0,
      state: weighted(rng, [
        ['disabled', 60],
        ['enabled', 30],
        ['invited', 8],
        ['declined', 2],
      ] as const),
      total_spent: '0.00',
      last_order_id: null,
      note: rng.chance(0.1) ? rng.pick(['Prefers e-mail contact', 'Wholesale account — net 30', 'Allergic to packing peanuts']) : null,
      verified_email: rng.chance(0.9),
      multipass_identifier: null,
      tax_exempt: rng.chance(0.03),
      tags: [...tags].sort().join(', '),
      last_order_name: null,
      currency: 'USD',
      phone,
      addresses,
      tax_exemptions: [],
      email_marketing_consent: emailConsent,
      sms_marketing_consent: smsConsent,
      admin_graphql_api_id: `gid://shopify/Customer/${id}`,
      default_address: addresses[0]!,
    });
  }
  return { customers, createdMs };
}

function uniqueEmail(firstName: string, lastName: string, domain: string, taken: Set<string>): string {
  const local =
    [asciiFold(firstName), asciiFold(lastName)]
      .map((part) => part.toLowerCase().replace(/[^a-z0-9]/g, ''))
      .filter(Boolean)
      .join('.') || 'customer';
  let email = `${local}@${domain}`;
  for (let n = 2; taken.has(email); n += 1) email = `${local}${n}@${domain}`;
  taken.add(email);
  return email;
}

function seedAddress(
  rng: Prng,
  id: number,
  customerId: number,
  firstName: string,
  lastName: string,
  phone: string | null,
  isDefault: boolean,
): ShopifyCustomerAddress {
  const [city, province, provinceCode, zipPrefix, countryName, countryCode] = rng.pick(CITIES);
  const zip = /^\d+$/.test(zipPrefix) ? `${zipPrefix}${String(rng.int(0, 99)).padStart(2, '0')}` : `${zipPrefix} ${rng.int(1, 9)}A${rng.int(1, 9)}`;
  return {
    id,
    customer_id: customerId,
    first_name: firstName,
    last_name: lastName,
    company: rng.chance(0.15) ? rng.pick(COMPANIES) : null,
    address1: `${rng.int(1, 4800)} ${rng.pick(STREETS)}`,
    address2: rng.chance(0.2) ? `Apt ${rng.int(1, 40)}` : '',
    city,
    province,
    country: countryName,
    zip,
    phone,
    name: `${firstName} ${lastName}`,
    province_code: provinceCode,
    country_code: countryCode,
    country_name: countryName,
    default: isDefault,
  };
}

/**
 * The store itself (`shop.json`; fields as in the Shopify Ruby library's 2025-01 fixture).
 */
import type { Prng } from '../prng.js';
import type { ShopifyShop } from './model.js';
import { SHOP_CURRENCY } from './money.js';
import { SEED_NOW, SHOP_OPENED } from './seed-timeline.js';
import { SHOP_IANA_TIMEZONE, SHOP_TIMEZONE, shopTime } from './shop-time.js';

/**
 * Builds the shop record of store `store` (the subdomain of `{store}.myshopify.com`).
 * Why: `shop.json` is the connector's `shop` entity and the natural credential check.
 */
export function seedShop(rng: Prng, store: string, primaryLocationId: number): ShopifyShop {
  const id = 61_000_000_000 + rng.int(1_000_000, 9_999_999);
  const title = store
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  return {
    id,
    name: title,
    email: `owner@${store}.example`,
    domain: `${store}.myshopify.com`,
    province: 'Arizona',
    country: 'US',
    address1: '2401 E Camelback Rd',
    zip: '85016',
    city: 'Phoenix',
    source: null,
    phone: '+16025550100',
    latitude: 33.5092,
    longitude: -112.0283,
    primary_locale: 'en',
    address2: 'Suite 300',
    created_at: shopTime(SHOP_OPENED),
    updated_at: shopTime(SEED_NOW - 86_400_000 * 12),
    country_code: 'US',
    country_name: 'United States',
    currency: SHOP_CURRENCY,
    customer_email: `hello@${store}.example`,
    timezone: SHOP_TIMEZONE,
    iana_timezone: SHOP_IANA_TIMEZONE,
    shop_owner: 'Ada Lovelace',
    money_format: '${{amount}}',
    money_with_currency_format: '${{amount}} USD',
    weight_unit: 'lb',
    province_code: 'AZ',
    taxes_included: false,
    auto_configure_tax_inclusivity: null,
    tax_shipping: null,
    county_taxes: true,
    plan_display_name: 'Basic',
    plan_name: 'basic',
    has_discounts: true,
    has_gift_cards: false,
    myshopify_domain: `${store}.myshopify.com`,
    google_apps_domain: null,
    google_apps_login_enabled: null,
    money_in_emails_format: '${{amount}}',
    money_with_currency_in_emails_format: '${{amount}} USD',
    eligible_for_payments: true,
    requires_extra_payments_agreement: false,
    password_enabled: false,
    has_storefront: true,
    finances: true,
    primary_location_id: primaryLocationId,
    checkout_api_supported: true,
    multi_location_enabled: true,
    setup_required: false,
    pre_launch_enabled: false,
    enabled_presentment_currencies: ['CAD', 'EUR', 'USD'],
    marketing_sms_consent_enabled_at_checkout: false,
    transactional_sms_disabled: false,
  };
}

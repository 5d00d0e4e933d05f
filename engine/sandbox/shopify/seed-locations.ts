/**
 * The store's three locations (`locations.json`, B.6 via the Airbyte stream list).
 */
import type { Prng } from '../prng.js';
import type { ShopifyLocation } from './model.js';
import { IdSequence } from './seed-tools.js';
import { DAY, SHOP_OPENED } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

interface LocationPlan {
  name: string;
  address1: string;
  city: string;
  zip: string;
  province: string;
  province_code: string;
  country_code: string;
  country_name: string;
  phone: string | null;
  legacy: boolean;
}

/** Two Arizona locations and a third-party fulfilment centre in Québec (a legacy location). */
const PLANS: readonly LocationPlan[] = [
  {
    name: 'Phoenix Warehouse',
    address1: '2401 E Camelback Rd',
    city: 'Phoenix',
    zip: '85016',
    province: 'Arizona',
    province_code: 'AZ',
    country_code: 'US',
    country_name: 'United States',
    phone: '+16025550100',
    legacy: false,
  },
  {
    name: 'Tucson Shop',
    address1: '310 E Congress St',
    city: 'Tucson',
    zip: '85701',
    province: 'Arizona',
    province_code: 'AZ',
    country_code: 'US',
    country_name: 'United States',
    phone: '+15205550142',
    legacy: false,
  },
  {
    name: 'Montréal Fulfillment Centre',
    address1: '1200 Rue Saint-Denis',
    city: 'Montréal',
    zip: 'H2X 3J6',
    province: 'Quebec',
    province_code: 'QC',
    country_code: 'CA',
    country_name: 'Canada',
    phone: null,
    legacy: true,
  },
];

/**
 * Builds the locations in id order; the first is the shop's primary location.
 * Why: orders and fulfillments name a `location_id`, and `locations.json` is unpaged (3 records).
 */
export function seedLocations(rng: Prng): ShopifyLocation[] {
  const ids = new IdSequence(61_000_000_000, rng, 400_000);
  return PLANS.map((plan, index) => {
    const id = ids.next();
    const created = shopTime(SHOP_OPENED + index * 20 * DAY);
    return {
      id,
      name: plan.name,
      address1: plan.address1,
      address2: null,
      city: plan.city,
      zip: plan.zip,
      province: plan.province,
      country: plan.country_code,
      phone: plan.phone,
      created_at: created,
      updated_at: created,
      country_code: plan.country_code,
      country_name: plan.country_name,
      province_code: plan.province_code,
      legacy: plan.legacy,
      active: true,
      admin_graphql_api_id: `gid://shopify/Location/${id}`,
      localized_country_name: plan.country_name,
      localized_province_name: plan.province,
    };
  });
}

/**
 * Word lists the Shopify seed draws from. Several names and vendors are non-ASCII so that clients
 * meet unicode in every collection.
 */

/** Customer first names: repeats and non-ASCII (accents, CJK) on purpose. */
export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Radia',
  'Tim',
  'José',
  'Zoë',
  'Søren',
  'Björn',
  'Chloé',
  'François',
  'Łukasz',
  'Renée',
  'Jürgen',
  'Ørjan',
  'Ana',
  'Mateo',
  'Aiko',
  'Chen',
  'Priya',
  'Olu',
  'Fatima',
  'Siobhán',
  'Dmitri',
  '美咲',
] as const;

/** Customer last names, likewise mixed. */
export const LAST_NAMES = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Perlman',
  'Kay',
  'Núñez',
  'Müller',
  'Ødegård',
  'Dubois',
  'Wiśniewski',
  'García',
  'Yamamoto',
  'Okafor',
  'Kowalski',
  '佐藤',
  'Smith',
  'Johnson',
  'Brown',
  'Martin',
  'Rossi',
  'Novák',
  'Popescu',
  'Ivanova',
  'Haddad',
  'Tanaka',
] as const;

/** City, province, province code, zip prefix, country name, country code. */
export const CITIES: ReadonlyArray<readonly [string, string | null, string | null, string, string, string]> = [
  ['Phoenix', 'Arizona', 'AZ', '850', 'United States', 'US'],
  ['Tucson', 'Arizona', 'AZ', '857', 'United States', 'US'],
  ['Denver', 'Colorado', 'CO', '802', 'United States', 'US'],
  ['Austin', 'Texas', 'TX', '787', 'United States', 'US'],
  ['Portland', 'Oregon', 'OR', '972', 'United States', 'US'],
  ['Brooklyn', 'New York', 'NY', '112', 'United States', 'US'],
  ['Montréal', 'Quebec', 'QC', 'H2X', 'Canada', 'CA'],
  ['Toronto', 'Ontario', 'ON', 'M5V', 'Canada', 'CA'],
  ['Köln', null, null, '506', 'Germany', 'DE'],
  ['Malmö', null, null, '211', 'Sweden', 'SE'],
];

/** Street names for address1. */
export const STREETS = [
  'Camelback Rd',
  'Mill Ave',
  'Congress Ave',
  'Main St',
  'Rue Saint-Denis',
  'Queen St W',
  'Hohe Str.',
  'Södra Förstadsgatan',
  'Elm St',
  'Broadway',
] as const;

/** Companies on some addresses. */
export const COMPANIES = ['Northwind Traders', 'Contoso', 'Globex', 'Initech', 'Café Olé', 'Øresund Logistics'] as const;

/** Product vendors (the `vendor` filter; one is the seeded smart collection's rule). */
export const VENDORS = ['Desert Bloom Co.', 'Sonoran Supply', 'Nordlys Design', 'Café Cortado', 'Łódź Textiles', 'Kōbō Ceramics'] as const;

/** Product type and the nouns that go with it. */
export const PRODUCT_TYPES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['Apparel', ['T-Shirt', 'Hoodie', 'Beanie', 'Scarf', 'Socks']],
  ['Accessories', ['Tote Bag', 'Cap', 'Keyring', 'Wallet']],
  ['Home & Kitchen', ['Candle', 'Planter', 'Pour-Over Kettle', 'Tea Towel']],
  ['Coffee', ['Coffee Beans', 'Espresso Blend', 'Cold Brew Kit']],
  ['Ceramics', ['Mug', 'Espresso Cup', 'Crème Brûlée Set', 'Bowl']],
  ['Stationery', ['Notebook', 'Sketchbook', 'Postcard Set']],
];

/** First word of product titles. */
export const ADJECTIVES = ['Classic', 'Everyday', 'Heritage', 'Minimal', 'Rustic', 'Coastal', 'Alpine', 'Vintage', 'Saguaro', 'Monsoon'] as const;

/** Second word of product titles. */
export const MATERIALS = ['Cotton', 'Linen', 'Merino', 'Stoneware', 'Walnut', 'Copper', 'Organic', 'Recycled'] as const;

/** Product tags (the On Sale smart collection matches `sale` or `limited`). */
export const PRODUCT_TAGS = ['new', 'sale', 'bestseller', 'eco', 'gift', 'limited', 'summer', 'winter'] as const;

/** Variant values of apparel (option `Size`). */
export const SIZES = ['S', 'M', 'L', 'XL'] as const;

/** Variant values of ceramics (option `Color`). */
export const COLORS = ['Sand', 'Terracotta', 'Sage', 'Midnight', 'Ochre'] as const;

/** Customer tags, two of them non-ASCII as in the Ruby fixture (`Léon, Noël`). */
export const CUSTOMER_TAGS = ['vip', 'wholesale', 'newsletter', 'returning', 'Léon', 'Noël'] as const;

/** Order tags. */
export const ORDER_TAGS = ['gift', 'wholesale', 'priority', 'vip', 'subscription'] as const;

/** Shipping carriers and their tracking URL prefixes. */
export const CARRIERS: ReadonlyArray<readonly [string, string]> = [
  ['UPS', 'https://www.ups.com/track?tracknum='],
  ['USPS', 'https://tools.usps.com/go/TrackConfirmAction?tLabels='],
  ['DHL Express', 'https://www.dhl.com/en/express/tracking.html?AWB='],
  ['Canada Post', 'https://www.canadapost-postescanada.ca/track-reperage/en#/details/'],
];

/** Discount codes applied to about a fifth of orders (one non-ASCII). */
export const DISCOUNT_CODES: ReadonlyArray<{ code: string; type: 'percentage' | 'fixed_amount'; value: number }> = [
  { code: 'WELCOME10', type: 'percentage', value: 10 },
  { code: 'SPRING5', type: 'fixed_amount', value: 500 },
  { code: 'BRÛLÉE15', type: 'percentage', value: 15 },
];

/** Shopify's `cancel_reason` values. */
export const CANCEL_REASONS = ['customer', 'inventory', 'fraud', 'declined', 'other'] as const;

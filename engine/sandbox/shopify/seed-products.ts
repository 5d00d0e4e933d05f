/**
 * Seeded products with variants, options and images (B.6 product record).
 */
import type { Prng } from '../prng.js';
import { money } from './money.js';
import type { ShopifyImage, ShopifyProduct, ShopifyVariant } from './model.js';
import { ADJECTIVES, COLORS, MATERIALS, PRODUCT_TAGS, PRODUCT_TYPES, SIZES, VENDORS } from './seed-values.js';
import { ascendingTimes, handleize, IdSequence, uniqueHandle, weighted } from './seed-tools.js';
import { CATALOG_START, DAY, HOUR, notAfterNow, SEED_NOW } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** Product creation times in epoch ms, parallel to the product array (for "bought after created"). */
export interface SeededProducts {
  products: ShopifyProduct[];
  createdMs: number[];
}
/** The id sequences of products and their children. */
interface CatalogIds {
  products: IdSequence;
  variants: IdSequence;
  inventory: IdSequence;
  images: IdSequence;
  options: IdSequence;
}

/** What one product's variants and images are built from. */
interface ProductBasics {
  id: number;
  index: number;
  created: number;
  updated: number;
  productType: string;
  title: string;
  handle: string;
  vendor: string;
  status: ShopifyProduct['status'];
  tags: string;
  basePrice: number;
  optionName: string;
  values: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * Builds `count` products in id order: ~85% active, 10% draft, 5% archived (the first is always
 * active so orders always have something to buy); apparel comes in sizes, ceramics in colours,
 * the rest with Shopify's single "Default Title" variant.
 * Why: the products list, its filters (vendor, product_type, status, published_status, handle) and
 * the order line items all read these records.
 */
export function seedProducts(rng: Prng, count: number): SeededProducts {
  const ids: CatalogIds = {
    products: new IdSequence(8_100_000_000_000, rng, 90_000),
    variants: new IdSequence(44_200_000_000_000, rng, 40_000),
    inventory: new IdSequence(46_300_000_000_000, rng, 40_000),
    images: new IdSequence(36_400_000_000_000, rng, 40_000),
    options: new IdSequence(10_500_000_000_000, rng, 40_000),
  };
  const handles = new Set<string>();
  const createdMs = ascendingTimes(rng, count, CATALOG_START, SEED_NOW - 20 * DAY);
  const products: ShopifyProduct[] = [];
  for (let index = 0; index < count; index += 1) {
    const basics = productBasics(rng, ids.products.next(), index, createdMs[index]!, handles);
    const variants = basics.values.map((value, position) => seedVariant(rng, ids, basics, value, position));
    const images = seedImages(rng, ids.images, basics, variants);
    products.push(productRecord(rng, ids.options, basics, variants, images));
  }
  return { products, createdMs };
}

/** Title, handle, vendor, status, tags, base price and option values of one product (in this draw order). */
function productBasics(rng: Prng, id: number, index: number, created: number, handles: Set<string>): ProductBasics {
  const updated = notAfterNow(created + Math.floor(rng.next() * (SEED_NOW - created)));
  const [productType, nouns] = rng.pick(PRODUCT_TYPES);
  const title = `${rng.pick(ADJECTIVES)} ${rng.pick(MATERIALS)} ${rng.pick(nouns)}`;
  const handle = uniqueHandle(handleize(title), handles);
  const vendor = rng.pick(VENDORS);
  const status =
    index === 0
      ? 'active'
      : weighted(rng, [
          ['active', 85],
          ['draft', 10],
          ['archived', 5],
        ] as const);
  const tags = pickTags(rng);
  const basePrice = rng.int(8, 180) * 100 - (rng.chance(0.5) ? 1 : 0);
  const optionName = productType === 'Apparel' ? 'Size' : productType === 'Ceramics' ? 'Color' : 'Title';
  const values: string[] =
    optionName === 'Size' ? SIZES.slice(rng.int(0, 1), rng.int(3, 4)) : optionName === 'Color' ? COLORS.slice(0, rng.int(1, 3)) : ['Default Title'];
  const createdAt = shopTime(created);
  const updatedAt = shopTime(updated);
  return { id, index, created, updated, productType, title, handle, vendor, status, tags, basePrice, optionName, values, createdAt, updatedAt };
}

/** The variant of one option value: XL costs $2 more; stock, weight and barcode are drawn. */
function seedVariant(rng: Prng, ids: CatalogIds, basics: ProductBasics, value: string, position: number): ShopifyVariant {
  const variantId = ids.variants.next();
  const price = value === 'XL' ? basics.basePrice + 200 : basics.basePrice;
  const compareAt = rng.chance(0.2) ? Math.round(price * 1.25) : null;
  const grams = rng.int(100, 1500);
  const quantity = rng.int(0, 120);
  const skuStem = basics.handle
    .split('-')
    .map((word) => word.slice(0, 3).toUpperCase())
    .join('');
  return {
    id: variantId,
    product_id: basics.id,
    title: value,
    price: money(price),
    position: position + 1,
    inventory_policy: rng.chance(0.8) ? 'deny' : 'continue',
    compare_at_price: compareAt === null ? null : money(compareAt),
    option1: value,
    option2: null,
    option3: null,
    created_at: basics.createdAt,
    updated_at: basics.updatedAt,
    taxable: true,
    barcode: String(rng.int(100_000_000, 999_999_999)) + String(rng.int(1000, 9999)),
    fulfillment_service: 'manual',
    grams,
    inventory_management: 'shopify',
    requires_shipping: true,
    sku: `${skuStem}-${value === 'Default Title' ? 'STD' : handleize(value).toUpperCase()}-${basics.index + 1}`,
    weight: Math.round((grams / 453.59237) * 100) / 100,
    weight_unit: 'lb',
    inventory_item_id: ids.inventory.next(),
    inventory_quantity: quantity,
    old_inventory_quantity: quantity,
    presentment_prices: [
      {
        price: { amount: money(price), currency_code: 'USD' },
        compare_at_price: compareAt === null ? null : { amount: money(compareAt), currency_code: 'USD' },
      },
    ],
    admin_graphql_api_id: `gid://shopify/ProductVariant/${variantId}`,
    image_id: null as number | null,
  };
}

/** 0-3 images (10% have none); image 2 and 3 show variants 2 and 3 and set their `image_id`. */
function seedImages(rng: Prng, imageIds: IdSequence, basics: ProductBasics, variants: ShopifyVariant[]): ShopifyImage[] {
  const imageCount = rng.chance(0.1) ? 0 : rng.int(1, 3);
  const images: ShopifyImage[] = [];
  for (let position = 1; position <= imageCount; position += 1) {
    const imageId = imageIds.next();
    const variant = position > 1 ? variants[position - 1] : undefined;
    if (variant) variant['image_id'] = imageId;
    images.push({
      id: imageId,
      alt: position === 1 ? basics.title : null,
      position,
      product_id: basics.id,
      created_at: basics.createdAt,
      updated_at: basics.updatedAt,
      admin_graphql_api_id: `gid://shopify/MediaImage/${imageId + 7}`,
      width: 2048,
      height: 2048,
      src: `https://cdn.shopify.com/s/files/1/0642/7311/0042/files/${basics.handle}-${position}.jpg?v=${Math.floor(basics.updated / 1000)}`,
      variant_ids: variant ? [variant.id] : [],
    });
  }
  return images;
}

/** The B.6 product record; active products were published within 3 days of creation. */
function productRecord(rng: Prng, optionIds: IdSequence, basics: ProductBasics, variants: ShopifyVariant[], images: ShopifyImage[]): ShopifyProduct {
  const { id, title, vendor, status } = basics;
  return {
    id,
    title,
    body_html: `<p>${title} by ${vendor}. Made in small batches; ships from Phoenix.</p>`,
    vendor,
    product_type: basics.productType,
    created_at: basics.createdAt,
    handle: basics.handle,
    updated_at: basics.updatedAt,
    published_at: status === 'active' ? shopTime(basics.created + rng.int(0, 72) * HOUR) : null,
    template_suffix: null,
    published_scope: 'web',
    tags: basics.tags,
    status,
    admin_graphql_api_id: `gid://shopify/Product/${id}`,
    variants,
    options: [{ id: optionIds.next(), product_id: id, name: basics.optionName, position: 1, values: basics.values }],
    images,
    image: images[0] ?? null,
  };
}

/** 0-3 distinct tags as Shopify writes them: one comma+space separated string (B.6). */
function pickTags(rng: Prng): string {
  const tags = new Set<string>();
  const count = rng.int(0, 3);
  while (tags.size < count) tags.add(rng.pick(PRODUCT_TAGS));
  return [...tags].sort().join(', ');
}

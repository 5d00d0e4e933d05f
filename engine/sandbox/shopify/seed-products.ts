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

/**
 * Builds `count` products in id order: ~85% active, 10% draft, 5% archived (the first is always
 * active so orders always have something to buy); apparel comes in sizes, ceramics in colours,
 * the rest with Shopify's single "Default Title" variant.
 * Why: the products list, its filters (vendor, product_type, status, published_status, handle) and
 * the order line items all read these records.
 */
export function seedProducts(rng: Prng, count: number): SeededProducts {
  const productIds = new IdSequence(8_100_000_000_000, rng, 90_000);
  const variantIds = new IdSequence(44_200_000_000_000, rng, 40_000);
  const inventoryIds = new IdSequence(46_300_000_000_000, rng, 40_000);
  const imageIds = new IdSequence(36_400_000_000_000, rng, 40_000);
  const optionIds = new IdSequence(10_500_000_000_000, rng, 40_000);
  const handles = new Set<string>();
  const createdMs = ascendingTimes(rng, count, CATALOG_START, SEED_NOW - 20 * DAY);
  const products: ShopifyProduct[] = [];

  for (let index = 0; index < count; index += 1) {
    const id = productIds.next();
    const created = createdMs[index]!;
    const updated = notAfterNow(created + Math.floor(rng.next() * (SEED_NOW - created)));
    const [productType, nouns] = rng.pick(PRODUCT_TYPES);
    const title = `${rng.pick(ADJECTIVES)} ${rng.pick(MATERIALS)} ${rng.pick(nouns)}`;
    const handle = uniqueHandle(handleize(title), handles);
    const vendor = rng.pick(VENDORS);
    const status = index === 0 ? 'active' : weighted(rng, [['active', 85], ['draft', 10], ['archived', 5]] as const);
    const tags = pickTags(rng);
    const basePrice = rng.int(8, 180) * 100 - (rng.chance(0.5) ? 1 : 0);
    const optionName = productType === 'Apparel' ? 'Size' : productType === 'Ceramics' ? 'Color' : 'Title';
    const values: string[] =
      optionName === 'Size' ? SIZES.slice(rng.int(0, 1), rng.int(3, 4)) : optionName === 'Color' ? COLORS.slice(0, rng.int(1, 3)) : ['Default Title'];
    const createdAt = shopTime(created);
    const updatedAt = shopTime(updated);
    const skuStem = handle.split('-').map((word) => word.slice(0, 3).toUpperCase()).join('');

    const variants: ShopifyVariant[] = values.map((value, position) => {
      const variantId = variantIds.next();
      const price = value === 'XL' ? basePrice + 200 : basePrice;
      const compareAt = rng.chance(0.2) ? Math.round(price * 1.25) : null;
      const grams = rng.int(100, 1500);
      const quantity = rng.int(0, 120);
      return {
        id: variantId,
        product_id: id,
        title: value,
        price: money(price),
        position: position + 1,
        inventory_policy: rng.chance(0.8) ? 'deny' : 'continue',
        compare_at_price: compareAt === null ? null : money(compareAt),
        option1: value,
        option2: null,
        option3: null,
        created_at: createdAt,
        updated_at: updatedAt,
        taxable: true,
        barcode: String(rng.int(100_000_000, 999_999_999)) + String(rng.int(1000, 9999)),
        fulfillment_service: 'manual',
        grams,
        inventory_management: 'shopify',
        requires_shipping: true,
        sku: `${skuStem}-${value === 'Default Title' ? 'STD' : handleize(value).toUpperCase()}-${index + 1}`,
        weight: Math.round((grams / 453.59237) * 100) / 100,
        weight_unit: 'lb',
        inventory_item_id: inventoryIds.next(),
        inventory_quantity: quantity,
        old_inventory_quantity: quantity,
        presentment_prices: [{ price: { amount: money(price), currency_code: 'USD' }, compare_at_price: compareAt === null ? null : { amount: money(compareAt), currency_code: 'USD' } }],
        admin_graphql_api_id: `gid://shopify/ProductVariant/${variantId}`,
        image_id: null as number | null,
      };
    });

    const imageCount = rng.chance(0.1) ? 0 : rng.int(1, 3);
    const images: ShopifyImage[] = [];
    for (let position = 1; position <= imageCount; position += 1) {
      const imageId = imageIds.next();
      const variant = position > 1 ? variants[position - 1] : undefined;
      if (variant) variant['image_id'] = imageId;
      images.push({
        id: imageId,
        alt: position === 1 ? title : null,
        position,
        product_id: id,
        created_at: createdAt,
        updated_at: updatedAt,
        admin_graphql_api_id: `gid://shopify/MediaImage/${imageId + 7}`,
        width: 2048,
        height: 2048,
        src: `https://cdn.shopify.com/s/files/1/0642/7311/0042/files/${handle}-${position}.jpg?v=${Math.floor(updated / 1000)}`,
        variant_ids: variant ? [variant.id] : [],
      });
    }

    products.push({
      id,
      title,
      body_html: `<p>${title} by ${vendor}. Made in small batches; ships from Phoenix.</p>`,
      vendor,
      product_type: productType,
      created_at: createdAt,
      handle,
      updated_at: updatedAt,
      published_at: status === 'active' ? shopTime(created + rng.int(0, 72) * HOUR) : null,
      template_suffix: null,
      published_scope: 'web',
      tags,
      status,
      admin_graphql_api_id: `gid://shopify/Product/${id}`,
      variants,
      options: [{ id: optionIds.next(), product_id: id, name: optionName, position: 1, values }],
      images,
      image: images[0] ?? null,
    });
  }
  return { products, createdMs };
}

/** 0-3 distinct tags as Shopify writes them: one comma+space separated string (B.6). */
function pickTags(rng: Prng): string {
  const tags = new Set<string>();
  const count = rng.int(0, 3);
  while (tags.size < count) tags.add(rng.pick(PRODUCT_TAGS));
  return [...tags].sort().join(', ');
}

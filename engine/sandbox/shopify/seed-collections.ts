/**
 * Custom and smart collections, and which products each holds.
 */
import type { Prng } from '../prng.js';
import type { CollectionImage, ShopifyCollection, ShopifyProduct, SmartRule } from './model.js';
import { VENDORS } from './seed-values.js';
import { handleize, IdSequence } from './seed-tools.js';
import { CATALOG_START, DAY } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** The seeded collections and their members (product ids, ascending). */
export interface SeededCollections {
  custom: ShopifyCollection[];
  smart: ShopifyCollection[];
  members: Map<number, number[]>;
}

interface CollectionPlan {
  title: string;
  sortOrder: string;
  published: boolean;
  rules?: SmartRule[];
  disjunctive?: boolean;
  /** Custom collections: share of products picked by hand. */
  share?: number;
}

/**
 * Interleaved in creation order, so custom and smart ids alternate in one id space (both are
 * `gid://shopify/Collection/…`). "Gift Guide" is unpublished, for `published_status`.
 */
const PLANS: readonly CollectionPlan[] = [
  { title: 'Staff Picks', sortOrder: 'manual', published: true, share: 0.15 },
  { title: 'Apparel', sortOrder: 'best-selling', published: true, rules: [{ column: 'type', relation: 'equals', condition: 'Apparel' }], disjunctive: false },
  { title: 'Gift Guide', sortOrder: 'manual', published: false, share: 0.1 },
  { title: VENDORS[5], sortOrder: 'alpha-asc', published: true, rules: [{ column: 'vendor', relation: 'equals', condition: VENDORS[5] }], disjunctive: false },
  { title: 'Café Essentials', sortOrder: 'created-desc', published: true, share: 0.2 },
  {
    title: 'On Sale',
    sortOrder: 'price-asc',
    published: true,
    rules: [
      { column: 'tag', relation: 'equals', condition: 'sale' },
      { column: 'tag', relation: 'equals', condition: 'limited' },
    ],
    disjunctive: true,
  },
  { title: 'New Arrivals', sortOrder: 'created-desc', published: true, share: 0.12 },
  {
    title: 'Under $25',
    sortOrder: 'price-asc',
    published: true,
    rules: [{ column: 'variant_price', relation: 'less_than', condition: '25.00' }],
    disjunctive: false,
  },
  { title: 'Summer Edit', sortOrder: 'manual', published: true, share: 0.08 },
];

/**
 * Builds 5 custom and 4 smart collections. Custom members are a seeded random share of the
 * products (at least one); smart members are whatever satisfies the rules, evaluated once here.
 * Why: `collections/{id}.json` reports `products_count`, and the products list filters by
 * `collection_id` and collections by `product_id` (B.6 list params).
 */
export function seedCollections(rng: Prng, products: readonly ShopifyProduct[]): SeededCollections {
  const ids = new IdSequence(482_800_000_000, rng, 3_000_000);
  const custom: ShopifyCollection[] = [];
  const smart: ShopifyCollection[] = [];
  const members = new Map<number, number[]>();
  PLANS.forEach((plan, index) => {
    const id = ids.next();
    const created = CATALOG_START + index * 9 * DAY + rng.int(0, DAY);
    const updated = created + rng.int(1, 300) * DAY;
    const handle = handleize(plan.title);
    const image: CollectionImage | undefined = rng.chance(0.6)
      ? {
          created_at: shopTime(created),
          alt: plan.title,
          width: 1600,
          height: 900,
          src: `https://cdn.shopify.com/s/files/1/0642/7311/0042/collections/${handle}.jpg?v=${Math.floor(updated / 1000)}`,
        }
      : undefined;
    const record: ShopifyCollection = {
      id,
      handle,
      title: plan.title,
      updated_at: shopTime(updated),
      body_html: plan.published ? `<p>${plan.title}, chosen for the season.</p>` : null,
      published_at: plan.published ? shopTime(created + DAY) : null,
      sort_order: plan.sortOrder,
      template_suffix: null,
      published_scope: 'web',
      admin_graphql_api_id: `gid://shopify/Collection/${id}`,
    };
    if (plan.rules) {
      // Smart collections list `disjunctive` and `rules` before `published_scope` (2025-01 fixture).
      const { published_scope, admin_graphql_api_id, ...head } = record;
      const smartRecord: ShopifyCollection = { ...head, disjunctive: plan.disjunctive ?? false, rules: plan.rules, published_scope, admin_graphql_api_id };
      if (image) smartRecord.image = image;
      smart.push(smartRecord);
      members.set(
        id,
        products.filter((product) => matchesRules(product, plan.rules!, plan.disjunctive ?? false)).map((product) => product.id),
      );
    } else {
      if (image) record.image = image;
      custom.push(record);
      const chosen = products.filter(() => rng.chance(plan.share ?? 0.1)).map((product) => product.id);
      if (chosen.length === 0 && products[0]) chosen.push(products[0].id);
      members.set(id, chosen);
    }
  });
  return { custom, smart, members };
}

/**
 * Whether a product satisfies a smart collection's rules (all of them, or any with `disjunctive`).
 * Why: smart collection membership is computed from product fields, as Shopify does.
 */
export function matchesRules(product: ShopifyProduct, rules: readonly SmartRule[], disjunctive: boolean): boolean {
  const test = (rule: SmartRule): boolean => {
    const condition = rule.condition.toLowerCase();
    switch (rule.column) {
      case 'vendor':
        return compare(product.vendor.toLowerCase(), rule.relation, condition);
      case 'type':
        return compare(product.product_type.toLowerCase(), rule.relation, condition);
      case 'title':
        return compare(product.title.toLowerCase(), rule.relation, condition);
      case 'tag':
        return product.tags.split(', ').some((tag) => compare(tag.toLowerCase(), rule.relation, condition));
      case 'variant_price':
        return product.variants.some((variant) => compare(Number(variant.price), rule.relation, Number(rule.condition)));
    }
  };
  return disjunctive ? rules.some(test) : rules.every(test);
}

function compare(value: string | number, relation: SmartRule['relation'], condition: string | number): boolean {
  switch (relation) {
    case 'equals':
      return value === condition;
    case 'starts_with':
      return String(value).startsWith(String(condition));
    case 'contains':
      return String(value).includes(String(condition));
    case 'greater_than':
      return Number(value) > Number(condition);
    case 'less_than':
      return Number(value) < Number(condition);
  }
}

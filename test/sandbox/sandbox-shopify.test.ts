import { rawRequest, readCutBody } from '../support/raw-request.js';
/**
 * The Shopify fake, through real HTTP on loopback: every route, auth, Link-header paging, the
 * leaky-bucket limit, error bodies and the fault switches (API-NOTES B.1-B.6, DESIGN.md §8).
 * There is no OpenAPI document for the Shopify REST Admin API, so every JSON answer the fakes
 * serve is checked here against the record shapes of API-NOTES B.5/B.6 instead.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startShopifyFake, type ShopifyFake } from '../../engine/sandbox/shopify/index.js';
import { startOnFreedPort } from '../support/freed-port.js';
import { httpCall, type HttpAnswer } from '../support/http-call.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
const NOT_FOUND = { errors: 'Not Found' };
const THROTTLED_2 = { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' };
const CALL_LIMIT = 'x-shopify-shop-api-call-limit';

// ---------------------------------------------------------------------------------------------
// Shape checks of everything served (B.5: errors; B.6: records).
// ---------------------------------------------------------------------------------------------

type Kind =
  | 'int'
  | 'int?'
  | 'string'
  | 'string?'
  | 'bool'
  | 'number'
  | 'number?'
  | 'money'
  | 'money?'
  | 'moneySet'
  | 'moneySet?'
  | 'time'
  | 'time?'
  | 'array'
  | 'object'
  | 'object?'
  | 'tags';
type Spec = Record<string, Kind>;

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const MONEY = /^-?\d+\.\d{2}$/;

function kindProblem(value: unknown, kind: Kind): string | undefined {
  const optional = kind.endsWith('?');
  if (optional && value === null) return undefined;
  const base = kind.replace('?', '');
  switch (base) {
    case 'int':
      return Number.isSafeInteger(value) ? undefined : 'not an integer';
    case 'number':
      return typeof value === 'number' ? undefined : 'not a number';
    case 'string':
      return typeof value === 'string' ? undefined : 'not a string';
    case 'bool':
      return typeof value === 'boolean' ? undefined : 'not a boolean';
    case 'money':
      return typeof value === 'string' && MONEY.test(value) ? undefined : `not a money string: ${JSON.stringify(value)}`;
    case 'time':
      return typeof value === 'string' && TIME.test(value) ? undefined : `not a timestamp with offset: ${JSON.stringify(value)}`;
    case 'tags':
      return typeof value === 'string' && !/,\S/.test(value) ? undefined : `not a ", " tag string: ${JSON.stringify(value)}`;
    case 'array':
      return Array.isArray(value) ? undefined : 'not an array';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'not an object';
    case 'moneySet': {
      const set = value as { shop_money?: { amount?: unknown; currency_code?: unknown }; presentment_money?: { amount?: unknown; currency_code?: unknown } };
      const ok =
        typeof set === 'object' &&
        set !== null &&
        MONEY.test(String(set.shop_money?.amount)) &&
        set.shop_money?.currency_code === 'USD' &&
        MONEY.test(String(set.presentment_money?.amount)) &&
        /^[A-Z]{3}$/.test(String(set.presentment_money?.currency_code));
      return ok ? undefined : `not a money set: ${JSON.stringify(value)}`;
    }
  }
  return `unknown kind ${kind}`;
}

function check(where: string, record: any, spec: Spec, gid?: string): string[] {
  const problems: string[] = [];
  if (typeof record !== 'object' || record === null) return [`${where}: not an object`];
  for (const [key, kind] of Object.entries(spec)) {
    if (!(key in record)) {
      problems.push(`${where}.${key}: missing`);
      continue;
    }
    const problem = kindProblem(record[key], kind);
    if (problem) problems.push(`${where}.${key}: ${problem}`);
  }
  if (gid && record.admin_graphql_api_id !== `gid://shopify/${gid}/${record.id}`)
    problems.push(`${where}.admin_graphql_api_id: ${record.admin_graphql_api_id}`);
  return problems;
}

const LINE_ITEM: Spec = {
  id: 'int',
  product_id: 'int',
  variant_id: 'int',
  title: 'string',
  name: 'string',
  sku: 'string',
  vendor: 'string',
  quantity: 'int',
  current_quantity: 'int',
  fulfillable_quantity: 'int',
  price: 'money',
  price_set: 'moneySet',
  grams: 'int',
  taxable: 'bool',
  requires_shipping: 'bool',
  gift_card: 'bool',
  properties: 'array',
  tax_lines: 'array',
  discount_allocations: 'array',
  duties: 'array',
  total_discount: 'money',
};
const TRANSACTION: Spec = {
  id: 'int',
  order_id: 'int',
  kind: 'string',
  gateway: 'string',
  status: 'string',
  amount: 'money',
  currency: 'string',
  created_at: 'time',
  processed_at: 'time',
  parent_id: 'int?',
  test: 'bool',
  total_unsettled_set: 'object',
  payment_id: 'string',
};
const FULFILLMENT: Spec = {
  id: 'int',
  order_id: 'int',
  name: 'string',
  status: 'string',
  location_id: 'int',
  created_at: 'time',
  updated_at: 'time',
  tracking_company: 'string?',
  tracking_number: 'string?',
  tracking_numbers: 'array',
  tracking_urls: 'array',
  line_items: 'array',
};
const ADDRESS: Spec = {
  id: 'int',
  customer_id: 'int',
  first_name: 'string',
  last_name: 'string',
  address1: 'string',
  city: 'string',
  country: 'string',
  country_code: 'string',
  zip: 'string',
  name: 'string',
  default: 'bool',
};

const RECORD_CHECKS: Record<string, (where: string, record: any) => string[]> = {
  order: (where, order) => {
    const problems = check(
      where,
      order,
      {
        id: 'int',
        name: 'string',
        number: 'int',
        order_number: 'int',
        email: 'string?',
        contact_email: 'string?',
        created_at: 'time',
        updated_at: 'time',
        processed_at: 'time',
        closed_at: 'time?',
        cancelled_at: 'time?',
        cancel_reason: 'string?',
        currency: 'string',
        presentment_currency: 'string',
        financial_status: 'string',
        fulfillment_status: 'string?',
        total_price: 'money',
        total_price_set: 'moneySet',
        subtotal_price: 'money',
        subtotal_price_set: 'moneySet',
        total_tax: 'money',
        total_tax_set: 'moneySet',
        total_discounts: 'money',
        total_discounts_set: 'moneySet',
        total_line_items_price: 'money',
        total_line_items_price_set: 'moneySet',
        current_total_price: 'money',
        current_total_price_set: 'moneySet',
        total_shipping_price_set: 'moneySet',
        total_outstanding: 'money',
        tags: 'tags',
        test: 'bool',
        confirmed: 'bool',
        source_name: 'string',
        token: 'string',
        note_attributes: 'array',
        discount_codes: 'array',
        tax_lines: 'array',
        payment_gateway_names: 'array',
        line_items: 'array',
        fulfillments: 'array',
        refunds: 'array',
        shipping_lines: 'array',
        billing_address: 'object',
        total_weight: 'int',
      },
      'Order',
    );
    order.line_items?.forEach((line: any, i: number) => problems.push(...check(`${where}.line_items[${i}]`, line, LINE_ITEM, 'LineItem')));
    order.fulfillments?.forEach((f: any, i: number) => problems.push(...check(`${where}.fulfillments[${i}]`, f, FULFILLMENT, 'Fulfillment')));
    if (order.customer !== undefined) {
      problems.push(
        ...check(
          `${where}.customer`,
          order.customer,
          { id: 'int', email: 'string', first_name: 'string', last_name: 'string', state: 'string', tags: 'tags', default_address: 'object' },
          'Customer',
        ),
      );
      for (const absent of ['orders_count', 'total_spent', 'addresses'])
        if (absent in order.customer) problems.push(`${where}.customer.${absent}: should not be embedded`);
    }
    return problems;
  },
  product: (where, product) => {
    const problems = check(
      where,
      product,
      {
        id: 'int',
        title: 'string',
        body_html: 'string',
        vendor: 'string',
        product_type: 'string',
        handle: 'string',
        status: 'string',
        tags: 'tags',
        published_at: 'time?',
        published_scope: 'string',
        created_at: 'time',
        updated_at: 'time',
        variants: 'array',
        options: 'array',
        images: 'array',
        image: 'object?',
      },
      'Product',
    );
    product.variants?.forEach((v: any, i: number) =>
      problems.push(
        ...check(
          `${where}.variants[${i}]`,
          v,
          {
            id: 'int',
            product_id: 'int',
            title: 'string',
            price: 'money',
            compare_at_price: 'money?',
            position: 'int',
            sku: 'string',
            inventory_item_id: 'int',
            inventory_quantity: 'int',
            grams: 'int',
            weight: 'number',
            created_at: 'time',
            updated_at: 'time',
            presentment_prices: 'array',
          },
          'ProductVariant',
        ),
      ),
    );
    product.images?.forEach((image: any, i: number) =>
      problems.push(
        ...check(`${where}.images[${i}]`, image, {
          id: 'int',
          product_id: 'int',
          position: 'int',
          src: 'string',
          variant_ids: 'array',
          width: 'int',
          height: 'int',
        }),
      ),
    );
    return problems;
  },
  customer: (where, customer) => {
    const problems = check(
      where,
      customer,
      {
        id: 'int',
        email: 'string',
        first_name: 'string',
        last_name: 'string',
        phone: 'string?',
        state: 'string',
        verified_email: 'bool',
        tags: 'tags',
        note: 'string?',
        currency: 'string',
        orders_count: 'int',
        total_spent: 'money',
        last_order_id: 'int?',
        last_order_name: 'string?',
        tax_exempt: 'bool',
        tax_exemptions: 'array',
        created_at: 'time',
        updated_at: 'time',
        email_marketing_consent: 'object',
        sms_marketing_consent: 'object?',
        default_address: 'object',
        addresses: 'array',
      },
      'Customer',
    );
    customer.addresses?.forEach((a: any, i: number) => problems.push(...check(`${where}.addresses[${i}]`, a, ADDRESS)));
    return problems;
  },
  draft_order: (where, draft) =>
    check(
      where,
      draft,
      {
        id: 'int',
        name: 'string',
        status: 'string',
        email: 'string?',
        order_id: 'int?',
        completed_at: 'time?',
        invoice_sent_at: 'time?',
        created_at: 'time',
        updated_at: 'time',
        total_price: 'money',
        subtotal_price: 'money',
        total_tax: 'money',
        total_price_set: 'moneySet',
        line_items: 'array',
        tags: 'tags',
        currency: 'string',
      },
      'DraftOrder',
    ),
  location: (where, location) =>
    check(
      where,
      location,
      {
        id: 'int',
        name: 'string',
        address1: 'string?',
        city: 'string?',
        country_code: 'string',
        active: 'bool',
        legacy: 'bool',
        created_at: 'time',
        updated_at: 'time',
      },
      'Location',
    ),
  custom_collection: (where, c) =>
    check(
      where,
      c,
      { id: 'int', handle: 'string', title: 'string', updated_at: 'time', published_at: 'time?', sort_order: 'string', published_scope: 'string' },
      'Collection',
    ),
  smart_collection: (where, c) =>
    check(
      where,
      c,
      {
        id: 'int',
        handle: 'string',
        title: 'string',
        updated_at: 'time',
        published_at: 'time?',
        sort_order: 'string',
        published_scope: 'string',
        disjunctive: 'bool',
        rules: 'array',
      },
      'Collection',
    ),
  collection: (where, c) =>
    check(where, c, { id: 'int', handle: 'string', title: 'string', updated_at: 'time', products_count: 'int', collection_type: 'string' }, 'Collection'),
  transaction: (where, t) => check(where, t, TRANSACTION, 'OrderTransaction'),
  fulfillment: (where, f) => check(where, f, FULFILLMENT, 'Fulfillment'),
  shop: (where, s) =>
    check(where, s, {
      id: 'int',
      name: 'string',
      email: 'string',
      domain: 'string',
      myshopify_domain: 'string',
      currency: 'string',
      iana_timezone: 'string',
      primary_location_id: 'int',
      created_at: 'time',
      updated_at: 'time',
    }),
};

const PLURAL_TO_SINGULAR: Record<string, string> = {
  orders: 'order',
  products: 'product',
  customers: 'customer',
  draft_orders: 'draft_order',
  locations: 'location',
  custom_collections: 'custom_collection',
  smart_collections: 'smart_collection',
  transactions: 'transaction',
  fulfillments: 'fulfillment',
};

/** The `order` a page_info cursor carries (cursors are base64url JSON of the first request's filters). */
function cursorOrder(pageInfo: unknown): string | undefined {
  if (typeof pageInfo !== 'string') return undefined;
  try {
    return (JSON.parse(Buffer.from(pageInfo, 'base64url').toString('utf8')) as { order?: string }).order;
  } catch {
    return undefined;
  }
}

/** Problems with one served answer: headers, error bodies, and the records when not trimmed by `fields`. */
function exchangeProblems(exchange: ShopifyFake['requests'][number]): string[] {
  const where = `${exchange.method} ${exchange.path}`;
  const { status, headers, body } = exchange.response;
  const problems: string[] = [];
  if (!UUID.test(String(headers['x-request-id']))) problems.push(`${where}: x-request-id ${headers['x-request-id']}`);
  if (exchange.fault === 'fail' && typeof body === 'string') return problems;
  if (!String(headers['content-type']).startsWith('application/json')) return [...problems, `${where}: content-type ${headers['content-type']}`];
  if (status >= 400) {
    const keys = Object.keys(body as object);
    if (keys.length !== 1 || keys[0] !== 'errors') problems.push(`${where}: error body ${JSON.stringify(body)}`);
    return problems;
  }
  const trimmed = exchange.query['fields'] !== undefined;
  const payload = body as Record<string, any>;
  const [key] = Object.keys(payload);
  if (Object.keys(payload).length !== 1 || key === undefined) return [...problems, `${where}: body keys ${Object.keys(payload)}`];
  if (key === 'count') {
    if (!Number.isInteger(payload['count'])) problems.push(`${where}: count ${payload['count']}`);
    return problems;
  }
  const singular = PLURAL_TO_SINGULAR[key];
  if (singular) {
    if (!Array.isArray(payload[key])) return [...problems, `${where}: ${key} is not an array`];
    if (!trimmed) payload[key].forEach((record: unknown, i: number) => problems.push(...RECORD_CHECKS[singular]!(`${where} ${key}[${i}]`, record)));
    const ids = (payload[key] as Array<{ id?: number }>).map((record) => record.id).filter((id): id is number => id !== undefined);
    const order = String(exchange.query['order'] ?? cursorOrder(exchange.query['page_info']) ?? 'id asc');
    if (order === 'id asc' && ids.some((id, i) => i > 0 && id <= ids[i - 1]!)) problems.push(`${where}: ids not ascending`);
    return problems;
  }
  const checkRecord = RECORD_CHECKS[key];
  if (!checkRecord) return [...problems, `${where}: unknown body key ${key}`];
  if (!trimmed) problems.push(...checkRecord(`${where} ${key}`, payload[key]));
  return problems;
}

/** Every fake started in this file; after each test, all they served must have the right shapes. */
const fakesInUse: ShopifyFake[] = [];

afterEach(() => {
  const problems: string[] = [];
  for (const fake of fakesInUse) {
    for (const exchange of fake.requests) {
      if (exchange.fault === 'reset') {
        if (exchange.response.status !== 0) problems.push('a reset exchange has a status');
        continue;
      }
      problems.push(...exchangeProblems(exchange));
    }
    fake.clearRequests();
  }
  expect(problems.slice(0, 20)).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// HTTP helpers.
// ---------------------------------------------------------------------------------------------

interface CallInit {
  /** Default: the fake's static token; null sends no token header. */
  token?: string | null;
  version?: string;
  method?: string;
  headers?: Record<string, string>;
}

function apiUrl(fake: ShopifyFake, path: string, version = '2026-10'): string {
  return `${fake.baseUrl}/admin/api/${version}${path}`;
}

async function fetchJson(fake: ShopifyFake, url: string, init: CallInit = {}): Promise<HttpAnswer> {
  const token = init.token === undefined ? fake.accessToken : init.token;
  return httpCall(url, {
    method: init.method,
    headers: { accept: 'application/json', ...init.headers, ...(token === null ? {} : { 'X-Shopify-Access-Token': token }) },
  });
}

const call = (fake: ShopifyFake, path: string, init: CallInit = {}): Promise<HttpAnswer> => fetchJson(fake, apiUrl(fake, path, init.version), init);

/** rel -> URL of a Link header. */
function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match) out[match[2]!] = match[1]!;
  }
  return out;
}

const pageInfoOf = (url: string): string => new URL(url).searchParams.get('page_info') ?? '';

/** Follows rel="next" from `path` to the end; returns the records and the number of pages. */
async function readAll(fake: ShopifyFake, path: string, key: string): Promise<{ records: any[]; pages: number; lastLink: string | null }> {
  let result = await call(fake, path);
  expect(result.status).toBe(200);
  const records: any[] = [...result.body[key]];
  let pages = 1;
  for (let next = links(result.headers.get('link'))['next']; next; next = links(result.headers.get('link'))['next']) {
    result = await fetchJson(fake, next);
    expect(result.status).toBe(200);
    expect(links(result.headers.get('link'))['previous']).toBeDefined();
    records.push(...result.body[key]);
    pages += 1;
    if (pages > 500) throw new Error('paging does not end');
  }
  return { records, pages, lastLink: result.headers.get('link') };
}

/** One request on its own connection, with any Host header, so resets and cut bodies surface as errors. */

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let fake: ShopifyFake;
/** Rate limits on, 60 orders, another seed. */
let limited: ShopifyFake;

beforeAll(async () => {
  fake = await startShopifyFake({ port: 0, host: '127.0.0.1', records: 1200, seed: 42, rateLimits: false });
  limited = await startShopifyFake({ port: 0, host: '127.0.0.1', records: 60, seed: 7, rateLimits: true });
  fakesInUse.push(fake, limited);
});

afterAll(async () => {
  await fake?.close();
  await limited?.close();
});

// ---------------------------------------------------------------------------------------------

describe('start-up and describe()', () => {
  test('describe() gives the versioned base URL, the token credentials and the config', async () => {
    const info = fake.describe();
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin\/api\/2026-10$/);
    expect(info.base_url).toBe(`${fake.baseUrl}/admin/api/2026-10`);
    expect(info.credentials).toEqual({ api_key: fake.accessToken, shop: 'sandbox-store' });
    expect(info.credentials['api_key']).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(info.credentials_by_scheme).toEqual({ token: info.credentials });
    expect(info.config).toEqual({ shop: 'sandbox-store', api_version: '2026-10' });
    const shop = await fetchJson(fake, `${info.base_url}/shop.json`, { token: info.credentials['api_key']! });
    expect(shop.status).toBe(200);
    expect(shop.body.shop.myshopify_domain).toBe(`${info.config['shop']}.myshopify.com`);
  });

  test('volumes: orders = records, products ≈ /4, customers ≈ /3, draft orders ≈ /20, 3 locations, 5 + 4 collections', () => {
    const counts = fake.dataset.counts();
    expect(counts.orders.any).toBe(1200);
    expect(counts.products).toBe(300);
    expect(counts.customers).toBe(400);
    expect(counts.draftOrders).toBe(60);
    expect(counts.locations).toBe(3);
    expect(counts.customCollections).toBe(5);
    expect(counts.smartCollections).toBe(4);
    expect(counts.orders.open + counts.orders.closed).toBe(counts.orders.any);
    expect(counts.orders.cancelled).toBeGreaterThan(0);
    expect(counts.orders.closed).toBeGreaterThan(counts.orders.cancelled);
    expect(counts.transactions).toBeGreaterThan(counts.orders.any);
    expect(counts.fulfillments).toBeGreaterThan(counts.orders.any / 2);
    const small = limited.dataset.counts();
    expect([small.orders.any, small.products, small.customers, small.draftOrders]).toEqual([60, 15, 20, 3]);
  });

  test('the same seed gives the same token and data; another seed does not; the store name is an option', async () => {
    const twin = await startShopifyFake({ port: 0, host: '127.0.0.1', records: 60, seed: 7, rateLimits: true });
    const other = await startShopifyFake({ port: 0, host: '127.0.0.1', records: 60, seed: 8, rateLimits: true, store: 'other-store' });
    try {
      expect(twin.accessToken).toBe(limited.accessToken);
      expect(json(twin.dataset.orders)).toEqual(json(limited.dataset.orders));
      expect(other.accessToken).not.toBe(limited.accessToken);
      expect(json(other.dataset.orders)).not.toEqual(json(limited.dataset.orders));
      expect(other.describe().config).toEqual({ shop: 'other-store', api_version: '2026-10' });
      expect(other.dataset.shop.myshopify_domain).toBe('other-store.myshopify.com');
      expect((await call(other, '/shop.json', { token: limited.accessToken })).status).toBe(401);
    } finally {
      await twin.close();
      await other.close();
    }
    await expect(startShopifyFake({ port: 0, host: '127.0.0.1', records: 0, seed: 1, rateLimits: false })).rejects.toThrow(RangeError);
  });

  test('a given port is used', async () => {
    const probe = async () => {
      const fake = await startShopifyFake({ port: 0, host: '127.0.0.1', records: 5, seed: 1, rateLimits: false });
      await fake.close();
      return Number(new URL(fake.baseUrl).port);
    };
    const { port, started: fixed } = await startOnFreedPort(probe, (port) =>
      startShopifyFake({ port, host: '127.0.0.1', records: 5, seed: 1, rateLimits: false }),
    );
    try {
      expect(fixed.describe().base_url).toBe(`http://127.0.0.1:${port}/admin/api/2026-10`);
      expect((await call(fixed, '/orders/count.json?status=any')).body).toEqual({ count: 5 });
    } finally {
      await fixed.close();
    }
  });
});

describe('API versions', () => {
  test('2026-10 and 2026-07 serve the same data and report the version; others are 404 Not Found', async () => {
    const latest = await call(fake, '/orders.json?limit=5&status=any');
    const previous = await call(fake, '/orders.json?limit=5&status=any', { version: '2026-07' });
    expect(previous.status).toBe(200);
    expect(previous.body).toEqual(latest.body);
    expect(latest.headers.get('x-shopify-api-version')).toBe('2026-10');
    expect(previous.headers.get('x-shopify-api-version')).toBe('2026-07');
    for (const version of ['2025-01', 'unstable', '2026-13', 'latest']) {
      const result = await call(fake, '/orders.json', { version });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(NOT_FOUND);
    }
  });
});

describe('auth', () => {
  test('no token, an unknown token, or a Bearer header get the 401 body, without a call-limit header', async () => {
    const cases: CallInit[] = [
      { token: null },
      { token: 'shpat_00000000000000000000000000000000' },
      { token: null, headers: { authorization: `Bearer ${limited.accessToken}` } },
    ];
    for (const init of cases) {
      const result = await call(limited, '/orders.json', init);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(INVALID_TOKEN);
      expect(result.headers.get(CALL_LIMIT)).toBeNull();
      expect(result.headers.get('x-request-id')).toMatch(UUID);
    }
    expect((await call(limited, '/orders.json')).status).toBe(200);
  });

  test('an issued token works until expireAllAccessTokens(); the static token keeps working', async () => {
    const token = fake.issueAccessToken();
    expect(token).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect((await call(fake, '/shop.json', { token })).status).toBe(200);
    fake.expireAllAccessTokens();
    const expired = await call(fake, '/shop.json', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(INVALID_TOKEN);
    expect((await call(fake, '/shop.json')).status).toBe(200);
  });

  test('issued tokens expire after their lifetime (24 h by default)', async () => {
    const day = fake.issueAccessToken();
    const short = fake.issueAccessToken(60);
    expect((await call(fake, '/shop.json', { token: short })).status).toBe(200);
    fake.clock.advance(61_000);
    expect((await call(fake, '/shop.json', { token: short })).status).toBe(401);
    expect((await call(fake, '/shop.json', { token: day })).status).toBe(200);
    fake.clock.advance(86_400_000);
    expect((await call(fake, '/shop.json', { token: day })).status).toBe(401);
    expect((await call(fake, '/shop.json')).status).toBe(200);
  });

  test('revokeAccessToken() revokes the static token too; unknown tokens report false', async () => {
    const own = await startShopifyFake({ port: 0, host: '127.0.0.1', records: 5, seed: 3, rateLimits: false });
    try {
      const spare = own.issueAccessToken();
      expect(own.revokeAccessToken('shpat_nope')).toBe(false);
      expect(own.revokeAccessToken(own.accessToken)).toBe(true);
      expect((await call(own, '/shop.json')).body).toEqual(INVALID_TOKEN);
      expect((await call(own, '/shop.json', { token: spare })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test('a token presented to another {shop}.myshopify.com is refused; this store and other hosts are fine', async () => {
    const url = apiUrl(fake, '/shop.json');
    const token = { 'X-Shopify-Access-Token': fake.accessToken };
    const other = await rawRequest(url, { headers: { ...token, host: 'another-store.myshopify.com' } });
    expect(other.status).toBe(401);
    expect(JSON.parse(other.body.toString())).toEqual(INVALID_TOKEN);
    const forwarded = await rawRequest(url, { headers: { ...token, 'x-forwarded-host': 'another-store.myshopify.com' } });
    expect(forwarded.status).toBe(401);
    const own = await rawRequest(url, { headers: { ...token, host: 'Sandbox-Store.myshopify.com' } });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body.toString()).shop.id).toBe(fake.dataset.shop.id);
    expect((await rawRequest(url, { headers: { ...token, host: 'localhost:1234' } })).status).toBe(200);
  });
});

describe('GET shop.json', () => {
  test('the shop record, and fields trims it (the Ruby fixture request)', async () => {
    const full = await call(fake, '/shop.json');
    expect(full.body).toEqual({ shop: json(fake.dataset.shop) });
    expect(full.body.shop.iana_timezone).toBe('America/Phoenix');
    expect(full.body.shop.primary_location_id).toBe(fake.dataset.locations[0]!.id);
    const trimmed = await call(fake, '/shop.json?fields=address1,address2,city,province,country');
    expect(Object.keys(trimmed.body.shop).sort()).toEqual(['address1', 'address2', 'city', 'country', 'province']);
  });
});

describe('orders', () => {
  test('the default is status=open: open orders only, 50 per page, a next link', async () => {
    const page = await call(fake, '/orders.json');
    expect(page.body.orders).toHaveLength(50);
    for (const order of page.body.orders) {
      expect(order.closed_at).toBeNull();
      expect(order.cancelled_at).toBeNull();
    }
    const rel = links(page.headers.get('link'));
    expect(Object.keys(rel)).toEqual(['next']);
    expect(rel['next']).toMatch(new RegExp(`^${fake.baseUrl}/admin/api/2026-10/orders\\.json\\?page_info=[A-Za-z0-9_-]+&limit=50$`));
    expect((await call(fake, '/orders/count.json')).body).toEqual({ count: fake.dataset.counts().orders.open });
  });

  test('status closed, cancelled and any; count agrees; a bad status is 400', async () => {
    const counts = fake.dataset.counts().orders;
    for (const status of ['open', 'closed', 'cancelled', 'any'] as const) {
      expect((await call(fake, `/orders/count.json?status=${status}`)).body).toEqual({ count: counts[status] });
    }
    const cancelled = await readAll(fake, '/orders.json?status=cancelled&limit=250', 'orders');
    expect(cancelled.records).toHaveLength(counts.cancelled);
    expect(cancelled.records.every((order) => order.cancelled_at !== null && order.closed_at !== null && order.cancel_reason !== null)).toBe(true);
    const bad = await call(fake, '/orders.json?status=archived');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['status']);
  });

  test('paging with Link rel="next" reads every order once, in id order; the last page has no next', async () => {
    const all = await readAll(fake, '/orders.json?status=any&limit=250', 'orders');
    expect(all.pages).toBe(5);
    expect(all.records.map((order) => order.id)).toEqual(fake.dataset.orders.map((order) => order.id));
    expect(Object.keys(links(all.lastLink))).toEqual(['previous']);
    expect(all.records[0]).toEqual(json(fake.dataset.orders[0]));
  });

  test('rel="previous" leads back to the page before', async () => {
    const first = await call(fake, '/orders.json?status=any&limit=7&fields=id');
    const second = await fetchJson(fake, links(first.headers.get('link'))['next']!);
    const third = await fetchJson(fake, links(second.headers.get('link'))['next']!);
    const back = await fetchJson(fake, links(third.headers.get('link'))['previous']!);
    expect(back.body).toEqual(second.body);
    const front = await fetchJson(fake, links(back.headers.get('link'))['previous']!);
    expect(front.body).toEqual(first.body);
    expect(links(front.headers.get('link'))['previous']).toBeUndefined();
    expect(third.body.orders.map((o: any) => o.id)).toEqual(fake.dataset.orders.slice(14, 21).map((o) => o.id));
  });

  test('page_info carries the first request’s filters to the next pages', async () => {
    const expected = fake.dataset.orders.filter((order) => order.financial_status === 'paid' && order.created_at >= '2025-06');
    const all = await readAll(
      fake,
      `/orders.json?status=any&financial_status=paid&created_at_min=${encodeURIComponent('2025-06-01T00:00:00-07:00')}&limit=100`,
      'orders',
    );
    expect(all.pages).toBe(Math.ceil(expected.length / 100));
    expect(all.records.map((order) => order.id)).toEqual(expected.map((order) => order.id));
  });

  test('page_info with any parameter but limit and fields is 400; with those two it works', async () => {
    const first = await call(fake, '/orders.json?status=any&limit=3');
    const pageInfo = pageInfoOf(links(first.headers.get('link'))['next']!);
    for (const extra of ['status=any', 'since_id=1', 'order=id+asc', 'unknown=1']) {
      const result = await call(fake, `/orders.json?page_info=${pageInfo}&${extra}`);
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        errors: `${extra.split('=')[0]} cannot be passed when page_info is present. See https://shopify.dev/api/usage/pagination-rest for more information.`,
      });
    }
    const ok = await call(fake, `/orders.json?page_info=${pageInfo}&limit=2&fields=id,name`);
    expect(ok.status).toBe(200);
    expect(ok.body.orders).toEqual(fake.dataset.orders.slice(3, 5).map((order) => ({ id: order.id, name: order.name })));
    expect(links(ok.headers.get('link'))['next']).toContain('&limit=2&fields=id%2Cname');
  });

  test('a page_info the fake did not issue, or issued for another list, is 400 Invalid value', async () => {
    const products = await call(fake, '/products.json?limit=1');
    const foreign = pageInfoOf(links(products.headers.get('link'))['next']!);
    for (const pageInfo of ['garbage!', 'eyJmb28iOiJiYXIifQ', foreign, '']) {
      const result = await call(fake, `/orders.json?page_info=${pageInfo}`);
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ errors: { page_info: 'Invalid value.' } });
    }
  });

  test('limit: 250 is the maximum; above, zero or not a number is 400', async () => {
    expect((await call(fake, '/orders.json?status=any&limit=250&fields=id')).body.orders).toHaveLength(250);
    expect((await call(fake, '/orders.json?status=any&limit=251')).body).toEqual({ errors: { limit: ['must be less than or equal to 250'] } });
    expect((await call(fake, '/orders.json?limit=0')).body).toEqual({ errors: { limit: ['must be greater than or equal to 1'] } });
    expect((await call(fake, '/orders.json?limit=ten')).status).toBe(400);
  });

  test('no Link header when everything fits on one page', async () => {
    const ids = fake.dataset.orders.slice(0, 3).map((order) => order.id);
    const result = await call(fake, `/orders.json?status=any&ids=${ids.join(',')}`);
    expect(result.body.orders.map((order: any) => order.id)).toEqual(ids);
    expect(result.headers.get('link')).toBeNull();
  });

  test('filters: ids, since_id, name, the date ranges, financial and fulfillment status, attribution_app_id', async () => {
    const orders = fake.dataset.orders;
    const ids = async (query: string): Promise<number[]> =>
      (await readAll(fake, `/orders.json?status=any&limit=250&fields=id&${query}`, 'orders')).records.map((order) => order.id);
    const where = (test: (order: (typeof orders)[number]) => boolean): number[] => orders.filter(test).map((order) => order.id);
    expect(await ids(`since_id=${orders[1189]!.id}`)).toEqual(orders.slice(1190).map((order) => order.id));
    expect(await ids('name=%231001')).toEqual([orders[0]!.id]);
    expect(await ids('name=1002')).toEqual([orders[1]!.id]);
    const mid = Date.parse(orders[600]!.created_at);
    // The same instant written in UTC selects the same orders as in the shop's offset.
    expect(await ids(`created_at_min=${encodeURIComponent(new Date(mid).toISOString())}`)).toEqual(where((order) => Date.parse(order.created_at) >= mid));
    expect(await ids(`created_at_max=${encodeURIComponent(orders[600]!.created_at)}`)).toEqual(where((order) => Date.parse(order.created_at) <= mid));
    const updated = '2026-06-01T00:00:00-07:00';
    expect(await ids(`updated_at_min=${encodeURIComponent(updated)}`)).toEqual(where((order) => Date.parse(order.updated_at) >= Date.parse(updated)));
    expect(await ids('processed_at_min=2026-01-01&processed_at_max=2026-01-31')).toEqual(
      where(
        (order) =>
          Date.parse(order.processed_at) >= Date.parse('2026-01-01T00:00:00-07:00') &&
          Date.parse(order.processed_at) <= Date.parse('2026-01-31T00:00:00-07:00'),
      ),
    );
    for (const status of ['paid', 'pending', 'authorized', 'partially_paid', 'partially_refunded', 'refunded', 'voided']) {
      expect(await ids(`financial_status=${status}`)).toEqual(where((order) => order.financial_status === status));
    }
    expect(await ids('financial_status=unpaid')).toEqual(
      where((order) => order.financial_status === 'authorized' || order.financial_status === 'partially_paid'),
    );
    expect(await ids('fulfillment_status=shipped')).toEqual(where((order) => order.fulfillment_status === 'fulfilled'));
    expect(await ids('fulfillment_status=partial')).toEqual(where((order) => order.fulfillment_status === 'partial'));
    expect(await ids('fulfillment_status=unshipped')).toEqual(where((order) => order.fulfillment_status === null));
    expect(await ids('fulfillment_status=unfulfilled')).toEqual(where((order) => order.fulfillment_status !== 'fulfilled'));
    expect((await ids('fulfillment_status=partial')).length).toBeGreaterThan(0);
    expect(await ids('attribution_app_id=129785')).toEqual(where((order) => order.source_name === 'pos'));
    expect(await ids('attribution_app_id=current')).toEqual([]);
    expect((await call(fake, '/orders.json?created_at_min=yesterday')).body).toEqual({ errors: { created_at_min: ['must be an ISO 8601 date and time'] } });
    expect((await call(fake, '/orders.json?ids=1,x')).status).toBe(400);
    expect((await call(fake, '/orders/count.json?status=any&financial_status=refunded')).body).toEqual({
      count: where((order) => order.financial_status === 'refunded').length,
    });
  });

  test('order=updated_at desc sorts and pages in that order, ties broken by id', async () => {
    const all = await readAll(fake, '/orders.json?status=any&order=updated_at+desc&limit=200&fields=id,updated_at', 'orders');
    const expected = [...fake.dataset.orders].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || b.id - a.id).map((order) => order.id);
    expect(all.records.map((order) => order.id)).toEqual(expected);
    expect((await call(fake, '/orders.json?order=total_price+asc')).status).toBe(400);
  });

  test('by id: the record, trimmed by fields; unknown or malformed ids are 404', async () => {
    const order = fake.dataset.orders[42]!;
    expect((await call(fake, `/orders/${order.id}.json`)).body).toEqual({ order: json(order) });
    expect((await call(fake, `/orders/${order.id}.json?fields=id,total_price,line_items`)).body).toEqual({
      order: { id: order.id, total_price: order.total_price, line_items: json(order.line_items) },
    });
    for (const path of ['/orders/1.json', '/orders/abc.json', `/orders/${order.id}`]) {
      const result = await call(fake, path);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(NOT_FOUND);
    }
  });

  test('records add up: totals, line items, fulfillments, refunds and the embedded customer', () => {
    const cents = (money: string): number => Math.round(Number(money) * 100);
    for (const order of fake.dataset.orders) {
      const shipping = cents((order as any).total_shipping_price_set.shop_money.amount);
      expect(cents(order.total_price)).toBe(cents(order.subtotal_price) + shipping + cents(order.total_tax));
      expect(cents(order.total_line_items_price)).toBe(order.line_items.reduce((sum, line) => sum + cents(line.price) * line.quantity, 0));
      const refunded = order.refunds.flatMap((refund) => refund.transactions).reduce((sum, t) => sum + cents(t.amount), 0);
      expect(cents(order.current_total_price)).toBe(order.cancelled_at ? 0 : cents(order.total_price) - refunded);
      const shipped = new Set(order.fulfillments.flatMap((f) => f.line_items.map((line) => line.id)));
      const expectedStatus = shipped.size === 0 ? null : shipped.size === order.line_items.length ? 'fulfilled' : 'partial';
      expect(order.fulfillment_status).toBe(expectedStatus);
      expect(order.admin_graphql_api_id).toBe(`gid://shopify/Order/${order.id}`);
      if (order.customer) expect(fake.dataset.customer(order.customer.id)?.email).toBe(order.customer.email);
    }
    const presented = fake.dataset.orders.filter((order) => order.presentment_currency !== 'USD');
    expect(presented.length).toBeGreaterThan(0);
    expect((presented[0]!.total_price_set as any).presentment_money.currency_code).toBe(presented[0]!.presentment_currency);
  });
});

describe('order transactions', () => {
  test('{transactions} of an order, unpaged even with limit=1; since_id filters; they match the financial status', async () => {
    const order = fake.dataset.orders.find((candidate) => candidate.financial_status === 'partially_refunded')!;
    const all = await call(fake, `/orders/${order.id}/transactions.json?limit=1`);
    expect(all.body).toEqual({ transactions: json(fake.dataset.transactions(order.id)) });
    expect(all.body.transactions.map((t: any) => t.kind)).toEqual(['sale', 'refund']);
    expect(all.headers.get('link')).toBeNull();
    const [sale, refund] = all.body.transactions;
    expect(sale.amount).toBe(order.total_price);
    expect(refund.parent_id).toBe(sale.id);
    expect((await call(fake, `/orders/${order.id}/transactions.json?since_id=${sale.id}`)).body.transactions.map((t: any) => t.id)).toEqual([refund.id]);
    const voided = fake.dataset.orders.find((candidate) => candidate.financial_status === 'voided')!;
    expect((await call(fake, `/orders/${voided.id}/transactions.json?fields=kind`)).body.transactions).toEqual([{ kind: 'authorization' }, { kind: 'void' }]);
  });

  test('an unknown order is 404', async () => {
    for (const id of ['1', 'x']) {
      const result = await call(fake, `/orders/${id}/transactions.json`);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(NOT_FOUND);
    }
  });
});

describe('order fulfillments', () => {
  test('paged with Link headers; count; the embedded line items are the shipped lines', async () => {
    const order = fake.dataset.orders.find((candidate) => fake.dataset.fulfillments(candidate.id).length >= 2)!;
    expect(order).toBeDefined();
    const expected = fake.dataset.fulfillments(order.id);
    const all = await readAll(fake, `/orders/${order.id}/fulfillments.json?limit=1`, 'fulfillments');
    expect(all.pages).toBe(expected.length);
    expect(all.records).toEqual(json(expected));
    expect((await call(fake, `/orders/${order.id}/fulfillments/count.json`)).body).toEqual({ count: expected.length });
    const one = await call(fake, `/orders/${order.id}/fulfillments.json`);
    expect(one.headers.get('link')).toBeNull();
    for (const fulfillment of all.records) {
      expect(fulfillment.order_id).toBe(order.id);
      expect(fulfillment.line_items.every((line: any) => line.fulfillment_status === 'fulfilled')).toBe(true);
    }
    expect((await call(fake, `/orders/${order.id}/fulfillments.json?since_id=${expected[0]!.id}`)).body.fulfillments).toEqual(json(expected.slice(1)));
  });

  test('an order without shipments lists none; an unknown order is 404', async () => {
    const unshipped = fake.dataset.orders.find((order) => order.fulfillment_status === null)!;
    expect((await call(fake, `/orders/${unshipped.id}/fulfillments.json`)).body).toEqual({ fulfillments: [] });
    expect((await call(fake, '/orders/1/fulfillments.json')).body).toEqual(NOT_FOUND);
    expect((await call(fake, '/orders/1/fulfillments/count.json')).status).toBe(404);
  });
});

describe('products', () => {
  test('paging reads every product once, in id order', async () => {
    const all = await readAll(fake, '/products.json?limit=100', 'products');
    expect(all.pages).toBe(3);
    expect(all.records).toEqual(json(fake.dataset.products));
    expect((await call(fake, '/products/count.json')).body).toEqual({ count: 300 });
  });

  test('filters: vendor and product_type (unicode, ampersand), handle list, status, published_status, title, collection_id, dates', async () => {
    const products = fake.dataset.products;
    const ids = async (query: string): Promise<number[]> =>
      (await readAll(fake, `/products.json?limit=250&fields=id&${query}`, 'products')).records.map((p) => p.id);
    const where = (test: (product: (typeof products)[number]) => boolean): number[] => products.filter(test).map((p) => p.id);
    const vendor = where((p) => p.vendor === 'Kōbō Ceramics');
    expect(vendor.length).toBeGreaterThan(0);
    expect(await ids(`vendor=${encodeURIComponent('Kōbō Ceramics')}`)).toEqual(vendor);
    expect(await ids(`product_type=${encodeURIComponent('Home & Kitchen')}`)).toEqual(where((p) => p.product_type === 'Home & Kitchen'));
    expect(await ids(`handle=${products[3]!.handle},${products[9]!.handle}`)).toEqual([products[3]!.id, products[9]!.id]);
    expect(await ids('status=draft,archived')).toEqual(where((p) => p.status !== 'active'));
    expect(await ids('published_status=unpublished')).toEqual(where((p) => p.published_at === null));
    expect(await ids('published_status=published')).toEqual(where((p) => p.published_at !== null));
    expect(await ids('title=hoodie')).toEqual(where((p) => p.title.toLowerCase().includes('hoodie')));
    for (const collection of [...fake.dataset.customCollections, ...fake.dataset.smartCollections]) {
      expect(await ids(`collection_id=${collection.id}`)).toEqual([...fake.dataset.collectionProductIds(collection.id)]);
    }
    expect(await ids('created_at_min=2026-01-01T00:00:00Z')).toEqual(where((p) => Date.parse(p.created_at) >= Date.parse('2026-01-01T00:00:00Z')));
    expect(await ids(`since_id=${products[289]!.id}`)).toEqual(products.slice(290).map((p) => p.id));
    expect((await call(fake, `/products/count.json?vendor=${encodeURIComponent('Kōbō Ceramics')}`)).body).toEqual({ count: vendor.length });
    expect((await call(fake, '/products.json?status=deleted')).status).toBe(400);
    expect((await call(fake, '/products.json?presentment_currencies=EUR&limit=1')).status).toBe(200);
  });

  test('by id with variants, options and images; unknown is 404', async () => {
    const product = fake.dataset.products.find((p) => p.variants.length > 1 && p.images.length > 1)!;
    const result = await call(fake, `/products/${product.id}.json`);
    expect(result.body).toEqual({ product: json(product) });
    expect(result.body.product.image).toEqual(result.body.product.images[0]);
    expect(result.body.product.options[0].values).toEqual(product.variants.map((v) => v.title));
    expect((await call(fake, '/products/404.json')).body).toEqual(NOT_FOUND);
  });
});

describe('customers', () => {
  test('since_id paging reads every customer; order summaries agree with the orders', async () => {
    const seen: any[] = [];
    let since = 0;
    for (;;) {
      const page = await call(fake, `/customers.json?limit=250&since_id=${since}`);
      seen.push(...page.body.customers);
      if (page.body.customers.length < 250) break;
      since = page.body.customers.at(-1).id;
    }
    expect(seen).toEqual(json(fake.dataset.customers));
    const buyer = seen.find((customer) => customer.orders_count > 1)!;
    const placed = fake.dataset.orders.filter((order) => order.customer?.id === buyer.id);
    expect(placed).toHaveLength(buyer.orders_count);
    expect(buyer.last_order_id).toBe(placed.at(-1)!.id);
    expect(buyer.last_order_name).toBe(placed.at(-1)!.name);
    const spent = placed.filter((order) => !order.cancelled_at).reduce((sum, order) => sum + Math.round(Number(order.current_total_price) * 100), 0);
    expect(Math.round(Number(buyer.total_spent) * 100)).toBe(spent);
    expect(buyer.default_address).toEqual(buyer.addresses[0]);
  });

  test('filters, count, get and 404', async () => {
    const customers = fake.dataset.customers;
    const min = customers[100]!.created_at;
    const max = customers[199]!.created_at;
    const page = await call(fake, `/customers.json?limit=250&fields=id&created_at_min=${encodeURIComponent(min)}&created_at_max=${encodeURIComponent(max)}`);
    expect(page.body.customers.map((c: any) => c.id)).toEqual(customers.slice(100, 200).map((c) => c.id));
    const updated = await readAll(fake, '/customers.json?limit=250&fields=id&updated_at_min=2026-09-01', 'customers');
    expect(updated.records.map((c) => c.id)).toEqual(
      customers.filter((c) => Date.parse(c.updated_at) >= Date.parse('2026-09-01T00:00:00-07:00')).map((c) => c.id),
    );
    expect((await call(fake, `/customers/count.json?created_at_min=${encodeURIComponent(min)}`)).body).toEqual({ count: 300 });
    expect((await call(fake, `/customers/${customers[5]!.id}.json`)).body).toEqual({ customer: json(customers[5]) });
    expect((await call(fake, `/customers/${customers[5]!.id}.json?fields=email`)).body).toEqual({ customer: { email: customers[5]!.email } });
    expect((await call(fake, '/customers/12.json')).body).toEqual(NOT_FOUND);
    expect(customers.some((c) => /[\u0080-\uffff]/.test(c.first_name + c.last_name))).toBe(true);
  });
});

describe('draft orders', () => {
  test('every draft, the status filter partitions them, completed drafts point at their orders', async () => {
    const all = await readAll(fake, '/draft_orders.json?limit=25', 'draft_orders');
    expect(all.records).toEqual(json(fake.dataset.draftOrders));
    let total = 0;
    for (const status of ['open', 'invoice_sent', 'completed']) {
      const some = await readAll(fake, `/draft_orders.json?limit=250&status=${status}`, 'draft_orders');
      expect(some.records.every((draft) => draft.status === status)).toBe(true);
      expect((await call(fake, `/draft_orders/count.json?status=${status}`)).body).toEqual({ count: some.records.length });
      total += some.records.length;
    }
    expect(total).toBe(60);
    const completed = fake.dataset.draftOrders.filter((draft) => draft.status === 'completed');
    expect(completed.length).toBeGreaterThan(0);
    for (const draft of completed) {
      const order = fake.dataset.order(draft.order_id!)!;
      expect(order.source_name).toBe('shopify_draft_order');
      expect(draft.completed_at).toBe(order.created_at);
    }
    expect(fake.dataset.draftOrders.filter((draft) => draft.status !== 'completed').every((draft) => draft.order_id === null)).toBe(true);
  });

  test('updated_at_min, ids, get and 404', async () => {
    const drafts = fake.dataset.draftOrders;
    const cut = drafts[30]!.updated_at;
    const page = await call(fake, `/draft_orders.json?limit=250&fields=id&updated_at_min=${encodeURIComponent(cut)}`);
    expect(page.body.draft_orders.map((d: any) => d.id)).toEqual(drafts.filter((d) => Date.parse(d.updated_at) >= Date.parse(cut)).map((d) => d.id));
    expect((await call(fake, `/draft_orders.json?ids=${drafts[2]!.id}`)).body).toEqual({ draft_orders: [json(drafts[2])] });
    expect((await call(fake, `/draft_orders/${drafts[0]!.id}.json`)).body).toEqual({ draft_order: json(drafts[0]) });
    expect((await call(fake, '/draft_orders/9.json')).body).toEqual(NOT_FOUND);
  });
});

describe('locations', () => {
  test('all three, unpaged even with limit=1; count; get; 404', async () => {
    const list = await call(fake, '/locations.json?limit=1');
    expect(list.body).toEqual({ locations: json(fake.dataset.locations) });
    expect(list.body.locations).toHaveLength(3);
    expect(list.headers.get('link')).toBeNull();
    expect((await call(fake, '/locations/count.json')).body).toEqual({ count: 3 });
    const location = fake.dataset.locations[2]!;
    expect((await call(fake, `/locations/${location.id}.json`)).body).toEqual({ location: json(location) });
    expect((await call(fake, '/locations/3.json')).body).toEqual(NOT_FOUND);
  });
});

describe('collections', () => {
  test('custom and smart lists (without products_count), paged, with counts', async () => {
    const custom = await readAll(fake, '/custom_collections.json?limit=2', 'custom_collections');
    expect(custom.pages).toBe(3);
    expect(custom.records).toEqual(json(fake.dataset.customCollections));
    expect(custom.records.every((c) => !('products_count' in c) && !('rules' in c))).toBe(true);
    const smart = await call(fake, '/smart_collections.json');
    expect(smart.body.smart_collections).toEqual(json(fake.dataset.smartCollections));
    expect(smart.body.smart_collections.every((c: any) => c.rules.length > 0)).toBe(true);
    expect((await call(fake, '/custom_collections/count.json')).body).toEqual({ count: 5 });
    expect((await call(fake, '/smart_collections/count.json')).body).toEqual({ count: 4 });
    const unpublished = await call(fake, '/custom_collections.json?published_status=unpublished&fields=title');
    expect(unpublished.body).toEqual({ custom_collections: [{ title: 'Gift Guide' }] });
  });

  test('product_id lists the collections holding a product', async () => {
    const product = fake.dataset.products.find(
      (p) =>
        [...fake.dataset.customCollections, ...fake.dataset.smartCollections].filter((c) => fake.dataset.collectionProductIds(c.id).includes(p.id)).length >= 2,
    )!;
    const holding = (list: readonly { id: number }[]) => list.filter((c) => fake.dataset.collectionProductIds(c.id).includes(product.id)).map((c) => c.id);
    const custom = await call(fake, `/custom_collections.json?product_id=${product.id}&fields=id`);
    const smart = await call(fake, `/smart_collections.json?product_id=${product.id}&fields=id`);
    expect(custom.body.custom_collections.map((c: any) => c.id)).toEqual(holding(fake.dataset.customCollections));
    expect(smart.body.smart_collections.map((c: any) => c.id)).toEqual(holding(fake.dataset.smartCollections));
    expect(custom.body.custom_collections.length + smart.body.smart_collections.length).toBeGreaterThanOrEqual(2);
  });

  test('gets: custom and smart by their own paths with products_count; collections/{id} for both kinds', async () => {
    const custom = fake.dataset.customCollections[0]!;
    const smart = fake.dataset.smartCollections[0]!;
    const ownCustom = await call(fake, `/custom_collections/${custom.id}.json`);
    expect(ownCustom.body.custom_collection.products_count).toBe(fake.dataset.collectionProductIds(custom.id).length);
    expect(Object.keys(ownCustom.body.custom_collection).indexOf('products_count')).toBe(
      Object.keys(ownCustom.body.custom_collection).indexOf('template_suffix') + 1,
    );
    const ownSmart = await call(fake, `/smart_collections/${smart.id}.json`);
    expect(ownSmart.body.smart_collection).toMatchObject({
      id: smart.id,
      rules: smart.rules,
      products_count: fake.dataset.collectionProductIds(smart.id).length,
    });
    expect((await call(fake, `/custom_collections/${smart.id}.json`)).body).toEqual(NOT_FOUND);
    expect((await call(fake, `/smart_collections/${custom.id}.json`)).body).toEqual(NOT_FOUND);
    const generic = await call(fake, `/collections/${smart.id}.json`);
    expect(generic.body.collection).toMatchObject({ id: smart.id, collection_type: 'smart', title: smart.title });
    expect(generic.body.collection.rules).toBeUndefined();
    expect((await call(fake, `/collections/${custom.id}.json`)).body.collection.collection_type).toBe('custom');
    expect((await call(fake, '/collections/77.json')).body).toEqual(NOT_FOUND);
  });
});

describe('rate limits (leaky bucket)', () => {
  afterEach(() => limited.resetRateLimits());

  test('X-Shopify-Shop-Api-Call-Limit counts calls against 40 and drains 2 per second', async () => {
    limited.resetRateLimits();
    const first = await call(limited, '/shop.json');
    expect(first.headers.get(CALL_LIMIT)).toBe('1/40');
    expect((await call(limited, '/orders/count.json')).headers.get(CALL_LIMIT)).toBe('2/40');
    expect((await call(limited, '/orders.json?limit=1')).headers.get(CALL_LIMIT)).toBe('3/40');
    limited.clock.advance(1000);
    expect((await call(limited, '/locations.json')).headers.get(CALL_LIMIT)).toBe('2/40');
    const notFound = await call(limited, '/orders/1.json');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get(CALL_LIMIT)).toBe('3/40');
  });

  test('over the bucket: 429 with Retry-After 2.0 and the body, then served again once it drained', async () => {
    limited.setRateLimit(3, 2);
    const seen: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const ok = await call(limited, '/shop.json');
      expect(ok.status).toBe(200);
      seen.push(ok.headers.get(CALL_LIMIT)!);
    }
    expect(seen).toEqual(['1/3', '2/3', '3/3']);
    const throttled = await call(limited, '/orders.json');
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual(THROTTLED_2);
    expect(throttled.headers.get('retry-after')).toBe('2.0');
    expect(throttled.headers.get(CALL_LIMIT)).toBe('3/3');
    expect((await call(limited, '/orders.json')).status).toBe(429);
    limited.clock.advance(500);
    expect((await call(limited, '/orders.json?limit=1')).status).toBe(200);
    expect((await call(limited, '/orders.json?limit=1')).status).toBe(429);
  });

  test('each token has its own bucket; unauthenticated calls spend nothing', async () => {
    limited.setRateLimit(2, 1);
    const other = limited.issueAccessToken();
    expect((await call(limited, '/shop.json')).status).toBe(200);
    expect((await call(limited, '/shop.json')).status).toBe(200);
    expect((await call(limited, '/shop.json')).status).toBe(429);
    for (let i = 0; i < 3; i += 1) expect((await call(limited, '/shop.json', { token: 'bad' })).status).toBe(401);
    const fresh = await call(limited, '/shop.json', { token: other });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get(CALL_LIMIT)).toBe('1/2');
  });

  test('the message follows the leak rate, and the bucket drains in real time too', async () => {
    limited.setRateLimit(2, 4);
    await call(limited, '/shop.json');
    await call(limited, '/shop.json');
    const throttled = await call(limited, '/shop.json');
    expect(throttled.body).toEqual({ errors: 'Exceeded 4 calls per second for api client. Reduce request rates to resume uninterrupted service.' });
    await sleep(300);
    expect((await call(limited, '/shop.json')).status).toBe(200);
    expect(() => limited.setRateLimit(0, 1)).toThrow(RangeError);
    expect(() => limited.setRateLimit(1, 0)).toThrow(RangeError);
  });

  test('with rateLimits off nothing is throttled and no call-limit header is sent', async () => {
    fake.setRateLimit(1, 0.1);
    for (let i = 0; i < 45; i += 1) {
      const result = await call(fake, '/shop.json?fields=id');
      expect(result.status).toBe(200);
      expect(result.headers.get(CALL_LIMIT)).toBeNull();
    }
    fake.resetRateLimits();
  });
});

describe('fault switches', () => {
  afterEach(() => {
    fake.faults.reset();
    limited.faults.reset();
  });

  test('latency delays answers until reset', async () => {
    fake.faults.latency(200);
    expect((await call(fake, '/shop.json')).status).toBe(200);
    expect(fake.faults.delays).toEqual([200]);
    fake.faults.reset();
    await call(fake, '/shop.json');
    expect(fake.faults.delays).toEqual([]);
  });

  test('failNext answers a 5xx burst with Shopify error bodies, then recovers; custom bodies pass through', async () => {
    fake.faults.failNext(2);
    fake.faults.failNext(1, 503);
    fake.faults.failNext(1, 502, '<html>Bad gateway</html>');
    const first = await call(fake, '/orders.json');
    expect(first.status).toBe(500);
    expect(first.body).toEqual({ errors: 'Internal Server Error' });
    expect(first.headers.get('x-request-id')).toMatch(UUID);
    expect((await call(fake, '/orders.json')).body).toEqual({ errors: 'Internal Server Error' });
    const unavailable = await call(fake, '/orders.json');
    expect([unavailable.status, unavailable.body]).toEqual([503, { errors: 'Service Unavailable' }]);
    const html = await call(fake, '/orders.json');
    expect([html.status, html.text]).toEqual([502, '<html>Bad gateway</html>']);
    expect((await call(fake, '/orders.json?limit=1')).status).toBe(200);
    expect(fake.requests.slice(0, 4).every((exchange) => exchange.fault === 'fail')).toBe(true);
  });

  test('rateLimitNext sends the real 429 with Retry-After in seconds, as an HTTP date, or none; with the full bucket for a valid token', async () => {
    limited.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 3 });
    limited.faults.rateLimitNext(1, { retryAfter: 'http-date', seconds: 5 });
    limited.faults.rateLimitNext(1, { retryAfter: 'none' });
    const seconds = await call(limited, '/orders.json');
    expect([seconds.status, seconds.body, seconds.headers.get('retry-after')]).toEqual([429, THROTTLED_2, '3']);
    expect(seconds.headers.get(CALL_LIMIT)).toBe('40/40');
    const date = await call(limited, '/orders.json');
    expect(Date.parse(date.headers.get('retry-after')!)).toBeGreaterThan(Date.now());
    const none = await call(limited, '/orders.json', { token: 'unknown' });
    expect([none.status, none.headers.get('retry-after'), none.headers.get(CALL_LIMIT)]).toEqual([429, null, null]);
    expect((await call(limited, '/orders.json')).status).toBe(200);
    expect(limited.requests.filter((exchange) => exchange.fault === 'rate-limit')).toHaveLength(3);
  });

  test('resetNext destroys the connection without a response', async () => {
    fake.faults.resetNext(1);
    await expect(rawRequest(apiUrl(fake, '/shop.json'), { headers: { 'X-Shopify-Access-Token': fake.accessToken } })).rejects.toThrow();
    expect(fake.requests[0]).toMatchObject({ fault: 'reset', response: { status: 0 } });
    expect((await call(fake, '/shop.json')).status).toBe(200);
  });

  test('truncateNext sends the full Content-Length but half the body', async () => {
    fake.faults.truncateNext(1);
    const { declared, received } = await readCutBody(apiUrl(fake, '/orders.json?limit=5'), { headers: { 'X-Shopify-Access-Token': fake.accessToken } });
    expect(declared).toBeGreaterThan(0);
    expect(received).toBeLessThan(declared);
    expect(fake.requests.at(-1)?.fault).toBe('truncate');
    const recorded = fake.requests.at(-1)!.response.body as { orders: unknown[] };
    expect(recorded.orders).toHaveLength(5);
  });

  test('hold leaves matching requests unanswered after the skipped ones until reset() answers them', async () => {
    fake.faults.hold(/\/orders\.json$/, 1);
    expect((await call(fake, '/orders.json?limit=1')).status).toBe(200);
    let answered = false;
    const held = call(fake, '/orders.json?limit=2').then((result) => {
      answered = true;
      return result;
    });
    // A request to another path goes through while the orders page waits.
    expect((await call(fake, '/shop.json')).status).toBe(200);
    expect(answered).toBe(false);
    fake.faults.reset();
    const result = await held;
    expect(result.status).toBe(200);
    expect((result.body as { orders: unknown[] }).orders).toHaveLength(2);
  });

  test('reset() switches every fault off; stats count API requests and no token requests', async () => {
    fake.resetStats();
    fake.faults.failNext(5);
    fake.faults.rateLimitNext(5);
    fake.faults.resetNext(5);
    fake.faults.truncateNext(5);
    fake.faults.latency(500);
    fake.faults.reset();
    expect((await call(fake, '/shop.json')).status).toBe(200);
    expect((await call(fake, '/orders/count.json')).status).toBe(200);
    expect(fake.faults.delays).toEqual([]);
    await call(fake, '/not-a-route.json');
    expect(fake.stats).toEqual({ tokenRequests: 0, apiRequests: 2 });
    fake.resetStats();
    expect(fake.stats.apiRequests).toBe(0);
  });
});

describe('router fallbacks and the request log', () => {
  test('unknown paths and other methods are 404 Not Found; a valid token still sees its call-limit', async () => {
    for (const [path, method] of [
      ['/gift_cards.json', 'GET'],
      ['/orders.json', 'POST'],
      ['/orders/1/refunds.json', 'GET'],
    ] as const) {
      const result = await call(limited, path, { method });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(NOT_FOUND);
      expect(result.headers.get(CALL_LIMIT)).toMatch(/^\d+\/40$/);
    }
    const outside = await fetchJson(limited, `${limited.baseUrl}/admin/orders.json`);
    expect([outside.status, outside.body]).toEqual([404, NOT_FOUND]);
  });

  test('the log records method, path, query, route and response; clearRequests empties it', async () => {
    fake.clearRequests();
    await call(fake, '/orders.json?limit=2&status=any&fields=id');
    expect(fake.requests).toHaveLength(1);
    const [exchange] = fake.requests;
    expect(exchange).toMatchObject({
      method: 'GET',
      path: '/admin/api/2026-10/orders.json',
      query: { limit: '2', status: 'any', fields: 'id' },
      route: '/admin/api/:version/orders.json',
    });
    expect(exchange!.response.status).toBe(200);
    expect((exchange!.response.body as any).orders).toHaveLength(2);
    expect(exchange!.headers['x-shopify-access-token']).toBe(fake.accessToken);
  });
});

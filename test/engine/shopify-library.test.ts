import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type ListResult, type RecordResult } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(() => sandbox.close());

function info() {
  return sandbox.upstreams.shopify!;
}

function shop(extra: { rateLimit?: false } = { rateLimit: false }) {
  // Untyped (connect<string>): these tests name entities and build params at run time.
  return connect<string>('shopify', { credentials: info().credentials, config: info().config, baseUrl: info().base_url, ...extra });
}

async function raw(path: string): Promise<any> {
  const response = await fetch(`${info().base_url}${path}`, { headers: { 'x-shopify-access-token': String(info().credentials.api_key) } });
  return response.json();
}

async function all(entity: string, params: Record<string, unknown> = {}) {
  const out: Array<Record<string, unknown>> = [];
  for await (const record of shop().records(entity, 'list', params)) out.push(record);
  return out;
}

describe('shopify', () => {
  test('shop get', async () => {
    const result = (await shop().execute('shop', 'get')) as RecordResult;
    expect(result.data).toMatchObject({ id: expect.any(Number), myshopify_domain: expect.stringContaining(String(info().config.shop)) });
  });

  test('orders: every page through the Link header, each order once, filters only on the first request', async () => {
    const count = (await raw('/orders/count.json?status=any')).count as number;
    const fake = sandbox.fakes.shopify;
    const before = fake.requests.length;
    const orders = await all('orders', { status: 'any', limit: 250 });
    expect(orders.length).toBe(count);
    expect(new Set(orders.map((o) => o.id)).size).toBe(count);
    const sent = fake.requests.slice(before);
    expect(sent.length).toBe(Math.ceil(count / 250));
    expect(sent[0]!.query).toMatchObject({ status: 'any', limit: '250' });
    for (const request of sent.slice(1)) expect(Object.keys(request.query).sort()).toEqual(['limit', 'page_info']);
  });

  test('orders default to open ones, like Shopify', async () => {
    const open = (await raw('/orders/count.json')).count as number;
    const orders = await all('orders');
    expect(orders.length).toBe(open);
  });

  test('list meta carries the next page token; page_info with filters is refused before any request', async () => {
    const page = (await shop().execute('products', 'list', { limit: 5 })) as ListResult;
    expect(page.data).toHaveLength(5);
    expect(page.meta).toEqual({ has_more: true, next_cursor: expect.any(String) });
    const next = (await shop().execute('products', 'list', { limit: 5, page_info: page.meta.next_cursor as string })) as ListResult;
    expect(next.data[0]!.id).not.toBe(page.data[0]!.id);
    const before = sandbox.fakes.shopify.requests.length;
    const error = await shop()
      .execute('products', 'list', { page_info: page.meta.next_cursor as string, vendor: 'x' })
      .catch((e) => e);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toEqual([{ path: '/page_info', message: expect.stringContaining('rule page-info-alone') }]);
    expect(sandbox.fakes.shopify.requests.length).toBe(before);
  });

  test.each([
    ['products', 'product_id'],
    ['customers', 'customer_id'],
    ['draft_orders', 'draft_order_id'],
    ['orders', 'order_id'],
  ])('%s list and get', async (entity, idParam) => {
    const page = (await shop().execute(entity, 'list', { limit: 3, ...(entity === 'orders' ? { status: 'any' } : {}) })) as ListResult;
    expect(page.data).toHaveLength(3);
    const one = (await shop().execute(entity, 'get', { [idParam]: page.data[1]!.id })) as RecordResult;
    expect(one.data).toEqual(page.data[1]);
  });

  test('fields trims records', async () => {
    const page = (await shop().execute('customers', 'list', { limit: 2, fields: 'id,email' })) as ListResult;
    for (const customer of page.data) expect(Object.keys(customer).sort()).toEqual(['email', 'id']);
  });

  test('locations, collections of both kinds, transactions and fulfillments', async () => {
    const locations = (await shop().execute('locations', 'list')) as ListResult;
    expect(locations.data.length).toBeGreaterThan(0);
    const location = (await shop().execute('locations', 'get', { location_id: locations.data[0]!.id })) as RecordResult;
    expect(location.data.id).toBe(locations.data[0]!.id);
    const custom = await all('collections', { collection_type: 'custom' });
    const smart = await all('collections', { collection_type: 'smart' });
    expect(custom.length).toBeGreaterThan(0);
    expect(smart.length).toBeGreaterThan(0);
    const collection = (await shop().execute('collections', 'get', { collection_id: smart[0]!.id })) as RecordResult;
    expect(collection.data.id).toBe(smart[0]!.id);
    const orders = await all('orders', { status: 'any', limit: 250 });
    const withFulfillments = orders.find((o) => Array.isArray(o.fulfillments) && (o.fulfillments as unknown[]).length > 0)!;
    const fulfillments = await all('order_fulfillments', { order_id: withFulfillments.id });
    expect(fulfillments.map((f) => f.id).sort()).toEqual((withFulfillments.fulfillments as Array<{ id: number }>).map((f) => f.id).sort());
    const transactions = (await shop().execute('order_transactions', 'list', { order_id: withFulfillments.id })) as ListResult;
    expect(transactions.data.length).toBeGreaterThan(0);
    expect(transactions.data.every((t) => t.order_id === withFulfillments.id)).toBe(true);
  });

  test('shop names only a store subdomain; a bad token is REAUTH_REQUIRED', async () => {
    for (const shopName of ['evil.example.com', 'a/b', 'x@y', '-start', 'UPPER']) {
      expect(() => connect('shopify', { credentials: { api_key: 'shpat_x', shop: shopName } })).toThrow(
        expect.objectContaining({ code: expect.stringMatching(/INVALID_CONFIG|INVALID_CREDENTIALS/) }),
      );
    }
    const bad = connect('shopify', {
      credentials: { ...info().credentials, api_key: 'shpat_not_issued_0000' },
      config: info().config,
      baseUrl: info().base_url,
    });
    const error = await bad.execute('shop', 'get').catch((e) => e);
    expect(error.code).toBe('REAUTH_REQUIRED');
    expect(JSON.stringify(error.toJSON())).not.toContain('shpat_not_issued_0000');
  });

  test('the leaky bucket: a 429 with Retry-After 2.0 is waited out', async () => {
    const limited = await startSandbox({ rateLimits: true });
    try {
      const details = limited.upstreams.shopify!;
      limited.fakes.shopify.setRateLimit(2, 1);
      const connection = connect('shopify', { credentials: details.credentials, config: details.config, baseUrl: details.base_url, rateLimit: false });
      const results = await Promise.all(Array.from({ length: 4 }, () => connection.execute('locations', 'list')));
      expect(results.every((r) => (r as ListResult).data.length > 0)).toBe(true);
      expect(connection.stats.retries).toBeGreaterThan(0);
      const throttled = limited.fakes.shopify.requests.filter((r) => r.response.status === 429);
      expect(throttled.length).toBeGreaterThan(0);
      expect(throttled[0]!.response.headers['retry-after']).toBe('2.0');
    } finally {
      await limited.close();
    }
  });
});

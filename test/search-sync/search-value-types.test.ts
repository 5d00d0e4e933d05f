/**
 * Number-typed paths (a sync plan's `value_types`, issue 12 §1): HubSpot property values and
 * Shopify money arrive as strings, and search must compare and sort them by numeric value, on
 * SQLite and on PostgreSQL. The sandbox part checks the README example against the fake's own
 * data; the edge part holds both dialects to an independent JS reading of the strict rule.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, findManifest, type Connection } from '../../engine/index.js';
import { parseSearchParams, runSearch, type SearchHit } from '../../engine/search/index.js';
import { ids, rejection, typedSearchFixture } from '../support/typed-search-fixture.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../support/search-records.js';
import { searchAll, upstreamRecords, type Rec } from '../support/sync-upstream.js';

/** The rule written out independently of the engine: sign, 1-30 digits, fraction of 1-30, exponent of 1-2 digits. */
const ORACLE = /^[+-]?\d{1,30}(\.\d{1,30})?([eE][+-]?\d{1,2})?$/;
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' ? value : typeof value === 'string' && ORACLE.test(value) ? Number(value) : null;

const { upstreamOptions, storeUrl: urlOn, postgres } = typedSearchFixture('value-types');
const amountOf = (record: Rec) => Number((record.properties as Record<string, string | undefined>).amount);

describe.each(['sqlite', 'postgres'] as const)('value types on the sandbox copy, %s', (backend) => {
  let deals: Connection;
  let orders: Connection;
  let upstreamDeals: Rec[];
  let upstreamOrders: Rec[];

  const storeUrl = (name: string) => urlOn(backend, name);

  beforeAll(async () => {
    deals = connect<string>('hubspot', { ...upstreamOptions('hubspot'), store: await storeUrl('hubspot') });
    orders = connect<string>('shopify', { ...upstreamOptions('shopify'), store: await storeUrl('shopify') });
    await deals.sync({ entities: ['deals'] });
    await orders.sync({ entities: ['orders'] });
    upstreamDeals = [...(await upstreamRecords(connect<string>('hubspot', upstreamOptions('hubspot')), findManifest('hubspot').manifest, 'deals')).values()];
    upstreamOrders = [...(await upstreamRecords(connect<string>('shopify', upstreamOptions('shopify')), findManifest('shopify').manifest, 'orders')).values()];
  }, 60_000);

  test('the README example (properties.amount gte "50000") answers exactly the deals worth 50,000 or more', async () => {
    const expected = upstreamDeals
      .filter((deal) => amountOf(deal) >= 50_000)
      .map((deal) => String(deal.id))
      .sort();
    // The fake's data has deals on both sides of 50,000.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(upstreamDeals.length);
    const search = (params: Rec) => deals.execute('deals', 'search', params);
    const byText = await searchAll(search, { query: { filter: { gte: { 'properties.amount': '50000' } } }, limit: 7 });
    const byNumber = await searchAll(search, { query: { filter: { gte: { 'properties.amount': 50000 } } }, limit: 7 });
    expect(ids(byText)).toEqual(expected);
    expect(ids(byNumber)).toEqual(expected);
    // Records keep their JSON types: the amounts are still strings.
    expect(byText.every((hit) => typeof (hit.data.properties as Rec).amount === 'string')).toBe(true);
  });

  test('sorted by properties.amount, keyset pages return every deal exactly once in numeric order', async () => {
    const search = (params: Rec) => deals.execute('deals', 'search', params);
    const asc = await searchAll(search, { query: { sort: [{ 'properties.amount': 'asc' }] }, limit: 4, fields: ['id', 'properties.amount'] });
    const expected = [...upstreamDeals].sort((a, b) => amountOf(a) - amountOf(b) || (String(a.id) < String(b.id) ? -1 : 1));
    expect(asc.map((hit) => hit.id)).toEqual(expected.map((deal) => String(deal.id)));
    const desc = await searchAll(search, { query: { filter: { gte: { 'properties.amount': '50000' } }, sort: [{ 'properties.amount': 'desc' }] }, limit: 3 });
    const amounts = desc.map((hit) => Number((hit.data.properties as Rec).amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(ids(desc)).toEqual(
      upstreamDeals
        .filter((deal) => amountOf(deal) >= 50_000)
        .map((deal) => String(deal.id))
        .sort(),
    );
  });

  test('"abc" on a number field is INVALID_PARAMS naming the field and the type', async () => {
    const error = await rejection(deals.execute('deals', 'search', { query: { filter: { gte: { 'properties.amount': 'abc' } } } }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toEqual([
      {
        path: '/query/filter/gte/properties.amount',
        message: 'properties.amount is a number field: "abc" is not a number (a JSON number or a decimal string such as "50000" or "88.68")',
      },
    ]);
    const flag = await rejection(deals.execute('deals', 'search', { query: { filter: { in: { 'properties.amount': ['100', true] } } } }));
    expect(flag.details).toEqual([
      { path: '/query/filter/in/properties.amount/1', message: expect.stringMatching(/^properties\.amount is a number field: true is not a number/) },
    ]);
  });

  test('Shopify total_price gt "500" answers exactly the orders above 500, and the hits keep the price string', async () => {
    const expected = upstreamOrders
      .filter((order) => Number(order.total_price) > 500)
      .map((order) => String(order.id))
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    const hits = await searchAll((params) => orders.execute('orders', 'search', params), { query: { filter: { gt: { total_price: '500' } } }, limit: 50 });
    expect(ids(hits)).toEqual(expected);
    expect(hits.every((hit) => typeof hit.data.total_price === 'string')).toBe(true);
    // Text operators still read the text.
    const like = await searchAll((params) => orders.execute('orders', 'search', params), { query: { filter: { like: { total_price: '%.%' } } }, limit: 50 });
    expect(ids(like)).toEqual(
      upstreamOrders
        .filter((order) => String(order.total_price).includes('.'))
        .map((order) => String(order.id))
        .sort(),
    );
  });
});

/** Values a number-typed path may hold: numbers, strings on both sides of the rule, and non-numbers. */
const EDGE_VALUES: unknown[] = [
  '1e3',
  ' 12 ',
  '12abc',
  '',
  '0x10',
  '50000.0',
  '7800',
  '-3.5',
  '+4',
  '1.',
  '.5',
  '1e-2',
  '1E+2',
  '007',
  12,
  0.5,
  -2,
  true,
  false,
  null,
  { a: 1 },
  [3],
];

const SCOPE = { connectorId: 'c1', entity: 'items' };
const FIELDS = { id: 'string', amount: 'string', meta: 'object' } as const;
const VALUE_TYPES = { amount: 'number', 'meta.size': 'number' } as const;

describe.each(['sqlite', 'postgres'] as const)('the strict number rule on %s', (dialect) => {
  let backend: SearchBackend;
  const records: Rec[] = [];

  beforeAll(async () => {
    backend = dialect === 'sqlite' ? openSqliteSearchBackend() : await openPostgresSearchBackend(await postgres());
    EDGE_VALUES.forEach((value, i) => records.push({ id: `e${String(i).padStart(2, '0')}`, amount: value, meta: { size: value } }));
    records.push({ id: 'missing' });
    const strings = fc.sample(fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' ', 'x'), maxLength: 6 }), { numRuns: 60, seed: 12 });
    strings.forEach((value, i) => records.push({ id: `r${String(i).padStart(2, '0')}`, amount: value, meta: { size: value } }));
    await backend.upsert(SCOPE, records, 'id');
  }, 60_000);
  afterAll(async () => backend?.close());

  const search = async (params: Rec) => {
    const hits: SearchHit[] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ ...params, limit: 7, ...(cursor ? { cursor } : {}) }, FIELDS, VALUE_TYPES);
      const page = await runSearch(backend.db, dialect, SCOPE, request);
      hits.push(...page.hits);
      cursor = page.next_cursor;
    } while (cursor);
    return hits;
  };

  test.each(['amount', 'meta.size'])('comparisons on %s select what the JS reading selects', async (path) => {
    const valueAt = (record: Rec) => numberOf(path === 'amount' ? record.amount : (record.meta as Rec | undefined)?.size);
    const cases: Array<[Rec, (n: number) => boolean]> = [
      [{ gte: { [path]: '12' } }, (n) => n >= 12],
      [{ lt: { [path]: 1 } }, (n) => n < 1],
      [{ eq: { [path]: 50000 } }, (n) => n === 50000],
      [{ eq: { [path]: '1000' } }, (n) => n === 1000],
      [{ in: { [path]: ['4', 7, '-3.5'] } }, (n) => [4, 7, -3.5].includes(n)],
    ];
    for (const [filter, test] of cases) {
      const expected = records
        .filter((record) => {
          const n = valueAt(record);
          return n !== null && test(n);
        })
        .map((record) => String(record.id))
        .sort();
      expect([filter, ids(await search({ query: { filter } }))]).toEqual([filter, expected]);
    }
    // neq is "not eq": values without a number are kept.
    const neq = records
      .filter((record) => valueAt(record) !== 50000)
      .map((record) => String(record.id))
      .sort();
    expect(ids(await search({ query: { filter: { neq: { [path]: '50000' } } } }))).toEqual(neq);
  });

  test('sorting reads numbers in numeric order, then every value without one, each row once', async () => {
    const numeric = records.filter((record) => numberOf(record.amount) !== null);
    const rest = records.filter((record) => numberOf(record.amount) === null);
    expect([numeric.length > 15, rest.length > 15]).toEqual([true, true]);
    const byId = (a: Rec, b: Rec) => (String(a.id) < String(b.id) ? -1 : 1);
    const asc = [...numeric].sort((a, b) => numberOf(a.amount)! - numberOf(b.amount)! || byId(a, b));
    const desc = [...numeric].sort((a, b) => numberOf(b.amount)! - numberOf(a.amount)! || byId(a, b));
    const tail = [...rest].sort(byId).map((record) => String(record.id));
    expect((await search({ query: { sort: [{ amount: 'asc' }] } })).map((hit) => hit.id)).toEqual([...asc.map((record) => String(record.id)), ...tail]);
    expect((await search({ query: { sort: [{ amount: 'desc' }] } })).map((hit) => hit.id)).toEqual([...desc.map((record) => String(record.id)), ...tail]);
  });

  test('a cursor of the untyped query is refused by the typed one (the query hash includes the types)', async () => {
    const untyped = parseSearchParams({ query: { sort: [{ amount: 'asc' }] }, limit: 2 }, FIELDS);
    const page = await runSearch(backend.db, dialect, SCOPE, untyped);
    expect(() => parseSearchParams({ query: { sort: [{ amount: 'asc' }] }, limit: 2, cursor: page.next_cursor }, FIELDS, VALUE_TYPES)).toThrow(
      /different query/,
    );
  });
});

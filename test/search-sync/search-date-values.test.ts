/**
 * Date-time-typed paths (a sync plan's `value_types`, issue 12 §1): Shopify and Gong timestamps
 * carry a UTC offset, HubSpot sends ISO or epoch-ms strings, Asana dates are bare days; search must
 * compare and sort them as instants, on SQLite and on PostgreSQL. The sandbox part checks answers
 * against the fake's own data; the edge part holds both dialects to an independent JS reading.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, findManifest, type Connection } from '../../engine/index.js';
import { parseSearchParams, runSearch, type SearchHit } from '../../engine/search/index.js';
import { ids, rejection, typedSearchFixture } from '../support/typed-search-fixture.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../support/search-records.js';
import { searchAll, upstreamRecords, type Rec } from '../support/sync-upstream.js';

/**
 * The rule written out independently of the engine: a pattern, then the calendar of JavaScript's
 * Date (setUTCFullYear takes years below 100 as they are) with a round trip for the day.
 */
const ORACLE = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d:\d\d)?)?$/;
function instantOf(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return null;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  const m = ORACLE.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((part) => Number(part ?? '0')) as number[];
  if (y! === 0 || h! > 23 || mi! > 59 || s! > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(y!, mo! - 1, d!);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d) return null;
  const zone = m[8] ?? 'Z';
  const zoneMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return null;
  date.setUTCHours(h!, mi!, s!, Number(`${m[7] ?? ''}000`.slice(0, 3)));
  return date.getTime() - zoneMinutes * 60_000;
}

const { upstreamOptions, storeUrl: urlOn, postgres } = typedSearchFixture('date-values');
const idsOf = (records: Rec[]) => records.map((record) => String(record.id)).sort();
const byId = (a: Rec, b: Rec) => (String(a.id) < String(b.id) ? -1 : 1);

/** An instant written in another offset, to the second: `2025-03-04T20:11:12+09:00`. */
function inOffset(ms: number, minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${zone}`;
}

describe.each(['sqlite', 'postgres'] as const)('date-time values on the sandbox copy, %s', (backend) => {
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

  const searchOrders = (params: Rec) => searchAll((p) => orders.execute('orders', 'search', p), { limit: 50, ...params });
  const createdMs = (order: Rec) => Date.parse(String(order.created_at));

  test('Shopify created_at bounds in other offsets answer exactly the orders whose instant qualifies, where text order would not', async () => {
    // The shop writes -07:00 (the fake's America/Phoenix); the bound is a third of the way's order instant in +09:00.
    const sorted = [...upstreamOrders].sort((a, b) => createdMs(a) - createdMs(b));
    expect(sorted.every((order) => String(order.created_at).endsWith('-07:00'))).toBe(true);
    const boundMs = createdMs(sorted[Math.floor(sorted.length / 3)]!);
    const bound = inOffset(boundMs, 9 * 60);
    const expected = idsOf(upstreamOrders.filter((order) => createdMs(order) >= boundMs));
    // Read as text, the bound is 16 hours later: that order itself (and any within those hours) would be lost.
    const asText = idsOf(upstreamOrders.filter((order) => String(order.created_at) >= bound));
    expect(asText.length).toBeLessThan(expected.length);
    expect(expected.length).toBeLessThan(upstreamOrders.length);
    expect(ids(await searchOrders({ query: { filter: { gte: { created_at: bound } } } }))).toEqual(expected);
    // A window with each end in its own offset (+09:00, Z) and eq on an instant written in UTC.
    const endMs = createdMs(sorted[Math.floor((sorted.length * 2) / 3)]!);
    const window = { and: [{ gte: { created_at: bound } }, { lt: { created_at: new Date(endMs).toISOString() } }] };
    expect(ids(await searchOrders({ query: { filter: window } }))).toEqual(
      idsOf(upstreamOrders.filter((order) => createdMs(order) >= boundMs && createdMs(order) < endMs)),
    );
    const eq = await searchOrders({ query: { filter: { eq: { created_at: new Date(boundMs).toISOString() } } } });
    expect(ids(eq)).toEqual(idsOf(upstreamOrders.filter((order) => createdMs(order) === boundMs)));
    expect(eq.length).toBeGreaterThan(0);
    // The hits keep the shop's text.
    expect(eq.every((hit) => hit.data.created_at === inOffset(boundMs, -7 * 60))).toBe(true);
  });

  test('sorted by Shopify updated_at, keyset pages return every order once in instant order', async () => {
    const updatedMs = (order: Rec) => Date.parse(String(order.updated_at));
    const desc = await searchAll((p) => orders.execute('orders', 'search', p), {
      query: { sort: [{ updated_at: 'desc' }] },
      limit: 37,
      fields: ['id', 'updated_at'],
    });
    const expected = [...upstreamOrders].sort((a, b) => updatedMs(b) - updatedMs(a) || byId(a, b)).map((order) => String(order.id));
    expect(desc.map((hit) => hit.id)).toEqual(expected);
  });

  test('a HubSpot properties.closedate range (ISO date, offset date-time, epoch ms) answers exactly the deals closing inside it', async () => {
    const closeMs = (deal: Rec) => Date.parse(String((deal.properties as Rec).closedate));
    const from = Date.parse('2023-07-01T00:00:00Z');
    const to = Date.parse('2024-07-01T00:00:00+02:00');
    const expected = idsOf(upstreamDeals.filter((deal) => closeMs(deal) >= from && closeMs(deal) < to));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(upstreamDeals.length);
    const search = (params: Rec) => deals.execute('deals', 'search', params);
    for (const lower of ['2023-07-01', from, String(from)]) {
      const filter = { and: [{ gte: { 'properties.closedate': lower } }, { lt: { 'properties.closedate': '2024-07-01T00:00:00+02:00' } }] };
      expect([lower, ids(await searchAll(search, { query: { filter }, limit: 25 }))]).toEqual([lower, expected]);
    }
    const asc = await searchAll(search, { query: { sort: [{ 'properties.closedate': 'asc' }] }, limit: 40, fields: ['id'] });
    expect(asc.map((hit) => hit.id)).toEqual([...upstreamDeals].sort((a, b) => closeMs(a) - closeMs(b) || byId(a, b)).map((deal) => String(deal.id)));
  });

  test('"2024-02-30" and "yesterday" on a date-time field are INVALID_PARAMS naming the field, the type and an example', async () => {
    const example =
      '(an ISO 8601 date such as "2024-03-01" or date-time such as "2024-03-01T09:30:00Z" or "2024-03-01T09:30:00-07:00" (no zone means UTC), or epoch milliseconds)';
    const error = await rejection(deals.execute('deals', 'search', { query: { filter: { gte: { 'properties.closedate': '2024-02-30' } } } }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toEqual([
      { path: '/query/filter/gte/properties.closedate', message: `properties.closedate is a date-time field: "2024-02-30" is not a date-time ${example}` },
    ]);
    const words = await rejection(orders.execute('orders', 'search', { query: { filter: { in: { created_at: ['2024-02-29', 'yesterday'] } } } }));
    expect(words.code).toBe('INVALID_PARAMS');
    expect(words.details).toEqual([
      { path: '/query/filter/in/created_at/1', message: `created_at is a date-time field: "yesterday" is not a date-time ${example}` },
    ]);
  });
});

/** Values a date-time path may hold: each side of every rule, and values of other kinds. */
const EDGE_VALUES: unknown[] = [
  '2024-02-29',
  '2023-02-29',
  '1900-02-29',
  '2000-02-29',
  '2024-02-30',
  '2024-04-31',
  '2024-13-01',
  '2024-00-10',
  '2024-01-00',
  '0000-01-01',
  '0001-01-01',
  '9999-12-31T23:59:59.999999999Z',
  '2024-01-01T24:00',
  '2024-01-01T23:60',
  '2024-01-01T23:59:60Z',
  '2024-01-01T10:00:00+24:00',
  '2024-01-01T10:00:00+23:59',
  '2024-01-01T10:00:00-00:00',
  '2024-01-01 10:00:00',
  '2024-01-01T10:00:00z',
  '2024-01-01T10:00:00.1234567891Z',
  '2024-01-01T10:00:00.',
  '2024-01-01T10',
  '2024-1-01',
  ' 2024-01-01',
  '2024-01-01\n',
  '',
  '1709285400000',
  '1234567890123456',
  '000000000000001',
  '-1',
  '1e12',
  'yesterday',
  '2024-11-03T01:30:00-04:00',
  '2024-11-03T01:10:00-05:00',
  '2024-11-03T05:30:00Z',
  '2024-11-03T05:30',
  '2024-11-03T07:00:00.5+01:30',
  1709285400000,
  -86_400_000,
  0.5,
  0,
  true,
  false,
  null,
  { a: 1 },
  ['2024-01-01'],
];

/** Dates built from parts on both sides of each calendar limit, in every zone form. */
const PARTS = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }),
    mo: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    time: fc.option(
      fc.record({
        h: fc.integer({ min: 0, max: 24 }),
        mi: fc.integer({ min: 0, max: 60 }),
        s: fc.option(fc.integer({ min: 0, max: 60 })),
        f: fc.option(fc.stringMatching(/^\d{1,10}$/)),
      }),
    ),
    zone: fc.constantFrom('', 'Z', '+05:30', '-07:00', '+14:00', '-23:59', '+24:00', '+01:60'),
  })
  .map(({ y, mo, d, time, zone }) => {
    const two = (n: number) => String(n).padStart(2, '0');
    const date = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}`;
    if (!time) return date;
    const seconds = time.s === null ? '' : `:${two(time.s)}${time.f === null ? '' : `.${time.f}`}`;
    return `${date}T${two(time.h)}:${two(time.mi)}${seconds}${zone}`;
  });

const SCOPE = { connectorId: 'c1', entity: 'items' };
const FIELDS = { id: 'string', at: 'string', meta: 'object' } as const;
const VALUE_TYPES = { at: 'date-time', 'meta.when': 'date-time' } as const;

describe.each(['sqlite', 'postgres'] as const)('the date-time rule on %s', (dialect) => {
  let backend: SearchBackend;
  const records: Rec[] = [];

  beforeAll(async () => {
    backend = dialect === 'sqlite' ? openSqliteSearchBackend() : await openPostgresSearchBackend(await postgres());
    const add = (prefix: string, values: unknown[]) =>
      values.forEach((value, i) => records.push({ id: `${prefix}${String(i).padStart(3, '0')}`, at: value, meta: { when: value } }));
    add('e', EDGE_VALUES);
    add('p', fc.sample(PARTS, { numRuns: 150, seed: 12 }));
    add('s', fc.sample(fc.string({ unit: fc.constantFrom('0', '1', '2', '9', '-', ':', 'T', 'Z', '+', '.', ' '), maxLength: 24 }), { numRuns: 60, seed: 12 }));
    add(
      'u',
      fc.sample(fc.string({ unit: 'binary', maxLength: 12 }), { numRuns: 20, seed: 12 }).map((text) => text.replaceAll('\u0000', '')),
    );
    records.push({ id: 'missing' });
    await backend.upsert(SCOPE, records, 'id');
  }, 60_000);
  afterAll(async () => backend?.close());

  const search = async (params: Rec, valueTypes: Rec = VALUE_TYPES) => {
    const hits: SearchHit[] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ ...params, limit: 40, ...(cursor ? { cursor } : {}) }, FIELDS, valueTypes as typeof VALUE_TYPES);
      const page = await runSearch(backend.db, dialect, SCOPE, request);
      hits.push(...page.hits);
      cursor = page.next_cursor;
    } while (cursor);
    return hits;
  };

  test('the generated values fall on both sides of the rule', () => {
    const generated = records.filter((record) => String(record.id).startsWith('p'));
    const valid = generated.filter((record) => instantOf(record.at) !== null).length;
    expect([valid > 30, generated.length - valid > 30]).toEqual([true, true]);
  });

  test.each(['at', 'meta.when'])('%s: each record has the instant the JS reading gives, or none (eq per instant, then sort)', async (path) => {
    const valueAt = (record: Rec) => instantOf(path === 'at' ? record.at : (record.meta as Rec | undefined)?.when);
    const instants = [...new Set(records.map(valueAt).filter((ms): ms is number => ms !== null))];
    expect(instants.length).toBeGreaterThan(60);
    for (const ms of instants) {
      const expected = idsOf(records.filter((record) => valueAt(record) === ms));
      expect([ms, ids(await search({ query: { filter: { eq: { [path]: ms } } } }))]).toEqual([ms, expected]);
    }
    const dated = records.filter((record) => valueAt(record) !== null).sort((a, b) => valueAt(a)! - valueAt(b)! || byId(a, b));
    const rest = records.filter((record) => valueAt(record) === null).sort(byId);
    expect((await search({ query: { sort: [{ [path]: 'asc' }] } })).map((hit) => hit.id)).toEqual([...dated, ...rest].map((record) => String(record.id)));
  });

  test('ranges, in and neq compare instants; values without one match no range and stay under neq', async () => {
    const valueAt = (record: Rec) => instantOf(record.at);
    const from = Date.parse('2024-11-03T05:30:00Z');
    const cases: Array<[Rec, (ms: number) => boolean]> = [
      [{ gte: { at: '2024-11-03T01:30:00-04:00' } }, (ms) => ms >= from],
      [{ lt: { at: '2024-11-03' } }, (ms) => ms < Date.parse('2024-11-03T00:00:00Z')],
      [{ lte: { at: 0 } }, (ms) => ms <= 0],
      [{ gt: { at: '1709285400000' } }, (ms) => ms > 1709285400000],
      [{ in: { at: ['2024-11-03T06:30:00+01:00', 1709285400000, '2024-02-29'] } }, (ms) => [from, 1709285400000, Date.parse('2024-02-29')].includes(ms)],
    ];
    for (const [filter, accept] of cases) {
      const expected = idsOf(
        records.filter((record) => {
          const ms = valueAt(record);
          return ms !== null && accept(ms);
        }),
      );
      expect([filter, ids(await search({ query: { filter } }))]).toEqual([filter, expected]);
    }
    const neq = idsOf(records.filter((record) => valueAt(record) !== from));
    expect(ids(await search({ query: { filter: { neq: { at: '2024-11-03T05:30:00.000Z' } } } }))).toEqual(neq);
  });

  test('Shopify-style times across a daylight-saving change sort by instant, not by text', async () => {
    // 01:30 EDT (-04:00) is before 01:10 EST (-05:00) the same night, though its text sorts after.
    const hits = await search({ query: { filter: { like: { at: '2024-11-03T01:%' } }, sort: [{ at: 'asc' }] } });
    expect(hits.map((hit) => hit.data.at)).toEqual(['2024-11-03T01:30:00-04:00', '2024-11-03T01:10:00-05:00']);
  });

  test('the query hash includes the type: a cursor of the text order or the number order is refused', async () => {
    const first = (valueTypes: Rec) =>
      runSearch(backend.db, dialect, SCOPE, parseSearchParams({ query: { sort: [{ at: 'asc' }] }, limit: 2 }, FIELDS, valueTypes as typeof VALUE_TYPES));
    const next = (cursor: string | null) => () => parseSearchParams({ query: { sort: [{ at: 'asc' }] }, limit: 2, cursor }, FIELDS, VALUE_TYPES);
    expect(next((await first({})).next_cursor)).toThrow(/different query/);
    expect(next((await first({ at: 'number' })).next_cursor)).toThrow(/different query/);
    expect(next((await first(VALUE_TYPES)).next_cursor)).not.toThrow();
  });
});

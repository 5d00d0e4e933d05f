import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope, type ValueTypes } from '../../engine/search/index.js';
import { type SearchBackend, SEARCH_BACKENDS, rawSql } from '../support/search-records.js';

/**
 * A sort by two sortable paths reads the pair's kept keys (both keys in one index, in the
 * request's directions): the answers, page by page, must be those of the same sort with no path
 * sortable (every record's keys computed and sorted at query time) and of the first path's keys
 * alone (its ties sorted by the second key), with mixed JSON types, ties on both keys, nulls,
 * missing values, typed paths, filters, later sort keys and writes between pages.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', v: 'string', w: 'number', at: 'string', o: 'object', x: 'integer' };
const VALUE_TYPES: ValueTypes = { at: 'date-time', 'o.n': 'number' };
const SORTABLE = ['v', 'w', 'at', 'o.n', 'x'];

const V = ['a', 'b', 'b', 'B', '', 'é', 2, 2, true, false, null, undefined, { k: 1 }, ['b']];
const W = [1, 2, 2, 2.5, -1, 0, '2', true, null, undefined, 2];
const AT = ['2024-03-01T10:00:00+02:00', '2024-03-01T08:00:00Z', '2024-03-01', 'not a date', 1709280000000, undefined];
const N = ['10', '9.5', 'abc', 10, -3, undefined, null];

/** 70 records whose values cycle through the lists above at different strides: every pair of neighbours, ties on one key and on both. */
const RECORDS = Array.from({ length: 70 }, (_, i) => {
  const record: Record<string, unknown> = { id: `r${String(i).padStart(2, '0')}`, x: i % 4 };
  const v = V[(i * 5) % V.length];
  const w = W[(i * 3) % W.length];
  const at = AT[(i * 7) % AT.length];
  const n = N[i % N.length];
  if (v !== undefined) record.v = v;
  if (w !== undefined) record.w = w;
  if (at !== undefined) record.at = at;
  record.o = n === undefined ? {} : { n };
  return record;
});

const DIRECTIONS = [
  ['asc', 'asc'],
  ['asc', 'desc'],
  ['desc', 'asc'],
  ['desc', 'desc'],
] as const;

/** Sorts of two (or three) keys, in every direction; with and without a filter. */
const QUERIES: Record<string, unknown>[] = [
  ...DIRECTIONS.map(([a, b]) => ({ sort: [{ v: a }, { w: b }] })),
  ...DIRECTIONS.map(([a, b]) => ({ sort: [{ at: a }, { 'o.n': b }] })),
  { sort: [{ w: 'desc' }, { v: 'asc' }] },
  { filter: { neq: { x: 1 } }, sort: [{ x: 'asc' }, { v: 'desc' }] },
  { sort: [{ w: 'asc' }, { v: 'desc' }, { at: 'desc' }] },
  { filter: { or: [{ eq: { v: 'b' } }, { gt: { w: 0 } }] }, sort: [{ v: 'desc' }, { 'o.n': 'asc' }, { x: 'asc' }] },
];

describe.each(SEARCH_BACKENDS)('sorts by two keys through kept pairs on $name', ({ open }) => {
  let backend: SearchBackend;
  let scopes = 0;
  beforeAll(async () => {
    backend = await open();
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  const sql = (text: string, values: unknown[] = []) => rawSql(backend, text, values);

  /** Every page of a query, `size` hits at a time (id, score and data), with the paths in `sortable` sortable. */
  async function pages(scope: SearchScope, query: Record<string, unknown>, size: number, sortable: readonly string[]): Promise<string[][]> {
    const found: string[][] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ query, limit: size, cursor }, FIELDS, VALUE_TYPES, sortable);
      const page = await runSearch(backend.db, backend.dialect, scope, request);
      found.push(page.hits.map((hit) => `${hit.id}:${hit.score}:${JSON.stringify(hit.data)}`));
      cursor = page.next_cursor;
    } while (cursor && found.length < 80);
    return found;
  }

  async function fresh(records: ReadonlyArray<Record<string, unknown>>): Promise<SearchScope> {
    const scope = { connectorId: `pairs-${++scopes}`, entity: 'rows' };
    await backend.upsert(scope, records, 'id');
    return scope;
  }

  const pairsOf = async (scope: SearchScope) =>
    (await sql('SELECT path, then_path FROM search_sort_pair_paths WHERE connector_id = $1 ORDER BY id', [scope.connectorId])).map(
      (row) => `${String(row.path)},${String(row.then_path)}`,
    );

  it('orders every direction of two keys as an unindexed sort and as the first key alone, page by page', async () => {
    for (const query of QUERIES) {
      const scope = await fresh(RECORDS);
      const [first, then] = (query.sort as Record<string, string>[]).map((key) => Object.keys(key)[0] as string);
      for (const size of [3, 100]) {
        const unindexed = await pages(scope, query, size, []);
        expect(await pages(scope, query, size, SORTABLE), `${JSON.stringify(query)} by ${size}, pair`).toEqual(unindexed);
        expect(await pages(scope, query, size, [first as string]), `${JSON.stringify(query)} by ${size}, first key alone`).toEqual(unindexed);
      }
      // The pair of the first two keys is kept, one row per record of the scope.
      expect(await pairsOf(scope)).toEqual([`${first},${then}`]);
      const kept = await sql(
        'SELECT count(*) AS n FROM search_sort_pairs AS k JOIN search_sort_pair_paths AS p ON p.id = k.pair_id WHERE p.connector_id = $1',
        [scope.connectorId],
      );
      expect(Number(kept[0]?.n)).toBe(RECORDS.length);
    }
  });

  it('orders ties on both keys by id, missing and null values last, types ranked as one key', async () => {
    const scope = await fresh([
      { id: 'a', v: 'b', w: 1 },
      { id: 'b', v: 'b', w: 1 },
      { id: 'c', v: 'b' },
      { id: 'd', v: 'b', w: null },
      { id: 'e', v: 'b', w: 'z' },
      { id: 'f', v: 2, w: 'z' },
      { id: 'g', w: 0 },
      { id: 'h', v: null, w: 0 },
      { id: 'i', v: 'a', w: 9 },
      { id: 'j', v: true, w: 3 },
    ]);
    const ids = async (query: Record<string, unknown>) => (await pages(scope, query, 3, SORTABLE)).flat().map((hit) => hit.split(':')[0]);
    expect(await ids({ sort: [{ v: 'asc' }, { w: 'desc' }] })).toEqual(['j', 'f', 'i', 'a', 'b', 'e', 'c', 'd', 'g', 'h']);
    expect(await ids({ sort: [{ v: 'desc' }, { w: 'asc' }] })).toEqual(['f', 'j', 'a', 'b', 'e', 'c', 'd', 'i', 'g', 'h']);
  });

  it('keeps the pair through inserts, updates and deletes, and seeks from a cursor written before them', async () => {
    const scope = await fresh(Array.from({ length: 20 }, (_, i) => ({ id: `k${String(i).padStart(2, '0')}`, w: i % 3, v: `s${i % 5}` })));
    const query = { sort: [{ w: 'asc' }, { v: 'desc' }] };
    const request = (cursor: string | null) => parseSearchParams({ query, limit: 4, cursor }, FIELDS, VALUE_TYPES, SORTABLE);
    const first = await runSearch(backend.db, backend.dialect, scope, request(null));
    expect(first.hits.map((hit) => hit.id)).toEqual(['k09', 'k03', 'k18', 'k12']);
    await backend.upsert(
      scope,
      [
        { id: 'k06', w: 0, v: 's9' },
        { id: 'k20', w: 0, v: 's0' },
        { id: 'k21', w: 'x', v: 's1' },
        { id: 'k00', w: 2, v: 's0' },
      ],
      'id',
    );
    await sql('DELETE FROM search_records WHERE connector_id = $1 AND entity = $2 AND id = $3', [scope.connectorId, scope.entity, 'k15']);
    const rest: string[] = [];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await runSearch(backend.db, backend.dialect, scope, request(cursor));
      rest.push(...page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    }
    // k06 moved before the cursor (skipped), k15 is gone, k20 and k00 land after it, k21 (a string w) last.
    expect(rest).toEqual(['k20', 'k04', 'k19', 'k13', 'k07', 'k01', 'k16', 'k10', 'k14', 'k08', 'k02', 'k17', 'k11', 'k00', 'k05', 'k21']);
    for (const size of [1, 3, 50]) expect(await pages(scope, query, size, SORTABLE)).toEqual(await pages(scope, query, size, []));
    const counted = await sql(
      'SELECT count(*) AS n FROM search_sort_pairs AS k JOIN search_sort_pair_paths AS p ON p.id = k.pair_id WHERE p.connector_id = $1',
      [scope.connectorId],
    );
    expect(Number(counted[0]?.n)).toBe(21);
  });

  it('keeps at most 8 pairs per entity; past them a sort reads its first key alone, with the same answers', async () => {
    const scope = await fresh(RECORDS);
    const paths = ['v', 'w', 'at', 'o.n', 'x'];
    const combinations = paths.flatMap((a) => paths.filter((b) => b !== a).map((b) => [a, b] as const)).slice(0, 10);
    for (const [a, b] of combinations) {
      const query = { sort: [{ [a]: 'asc' }, { [b]: 'desc' }] };
      expect(await pages(scope, query, 9, SORTABLE), `${a}, ${b}`).toEqual(await pages(scope, query, 9, []));
    }
    expect(await pairsOf(scope)).toEqual(combinations.slice(0, 8).map(([a, b]) => `${a},${b}`));
  });
});

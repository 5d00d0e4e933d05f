import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope, type ValueTypes } from '../../engine/search/index.js';
import { type SearchBackend, SEARCH_BACKENDS, rawSql } from '../support/search-records.js';

/**
 * Sorted search through the kept sort keys (a sortable path's keys beside the copy, seek-based
 * cursor pages) against the same search with no path sortable, which sorts every record's key at
 * query time: the answers, page by page, must be the same, ties by id and missing values last.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', v: 'string', w: 'integer', at: 'string', o: 'object' };
const VALUE_TYPES: ValueTypes = { at: 'date-time', 'o.n': 'number' };
const INDEXED = ['v', 'w', 'at', 'o.n'];

/** Mixed JSON types and ties: numbers and booleans, then strings, then everything else, by id within ties. */
const MIXED = [
  { id: 'a', v: 2 },
  { id: 'b', v: 'x' },
  { id: 'c', v: null },
  { id: 'd' },
  { id: 'e', v: true },
  { id: 'f', v: 2 },
  { id: 'g', v: 'a' },
  { id: 'h', v: false },
  { id: 'i', v: 1.5 },
  { id: 'j', v: { k: 1 } },
];

/** Typed values: instants written several ways (and some that are none), numbers as strings. */
const TYPED = [
  { id: 't1', at: '2024-03-01T10:00:00+02:00', o: { n: '10' } },
  { id: 't2', at: '2024-03-01T08:00:00Z', o: { n: '9.5' } },
  { id: 't3', at: '2024-03-01', o: { n: 'abc' } },
  { id: 't4', at: 'not a date', o: { n: 10 } },
  { id: 't5', at: '1709280000000', o: {} },
  { id: 't6', at: 1709251200000, o: { n: '-3' } },
  { id: 't7', o: { n: '1e1' } },
  { id: 't8', at: '2024-02-30', o: 'flat' },
];

const BACKENDS = SEARCH_BACKENDS;

describe.each(BACKENDS)('sorted search through kept keys on $name', ({ open }) => {
  let backend: SearchBackend;
  let scopes = 0;
  beforeAll(async () => {
    backend = await open();
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  const sql = (text: string, values: unknown[] = []) => rawSql(backend, text, values);

  /** Every page of a query, `size` hits at a time, indexed (its paths sortable) or not. */
  async function pages(scope: SearchScope, query: Record<string, unknown>, size: number, indexed: boolean): Promise<string[][]> {
    const found: string[][] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ query, limit: size, cursor }, FIELDS, VALUE_TYPES, indexed ? INDEXED : []);
      const page = await runSearch(backend.db, backend.dialect, scope, request);
      found.push(page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    } while (cursor && found.length < 50);
    return found;
  }

  async function fresh(records: Record<string, unknown>[]): Promise<SearchScope> {
    const scope = { connectorId: `sorted-${++scopes}`, entity: 'rows' };
    await backend.upsert(scope, records, 'id');
    return scope;
  }

  it('orders mixed types and ties exactly as an unindexed sort, page by page, in both directions', async () => {
    const scope = await fresh(MIXED);
    const expected = {
      asc: ['h', 'e', 'i', 'a', 'f', 'g', 'b', 'c', 'd', 'j'],
      desc: ['a', 'f', 'i', 'e', 'h', 'b', 'g', 'c', 'd', 'j'],
    };
    for (const direction of ['asc', 'desc'] as const) {
      for (const size of [1, 2, 3, 4, 10]) {
        const query = { sort: [{ v: direction }] };
        const unindexed = await pages(scope, query, size, false);
        const indexed = await pages(scope, query, size, true);
        expect(indexed.flat(), `${direction} by ${size}`).toEqual(expected[direction]);
        expect(indexed).toEqual(unindexed);
      }
    }
    // The keys are kept: one row per record of the scope for the path sorted by.
    const kept = await sql(
      'SELECT count(*) AS n FROM search_sort_keys AS k JOIN search_sort_paths AS p ON p.id = k.path_id WHERE p.connector_id = $1 AND p.path = $2',
      [scope.connectorId, 'v'],
    );
    expect(Number(kept[0]?.n)).toBe(MIXED.length);
  });

  it('sorts typed paths by their value (instants, decimal strings), the unreadable ones last', async () => {
    const scope = await fresh(TYPED);
    expect((await pages(scope, { sort: [{ at: 'asc' }] }, 3, true)).flat()).toEqual(['t3', 't6', 't1', 't2', 't5', 't4', 't7', 't8']);
    expect((await pages(scope, { sort: [{ 'o.n': 'desc' }] }, 2, true)).flat()).toEqual(['t1', 't4', 't7', 't2', 't6', 't3', 't5', 't8']);
    for (const query of [{ sort: [{ at: 'desc' }] }, { sort: [{ 'o.n': 'asc' }, { at: 'desc' }] }]) {
      expect(await pages(scope, query, 2, true)).toEqual(await pages(scope, query, 2, false));
    }
  });

  it('orders later sort keys within the first key ties, with a filter, as an unindexed sort', async () => {
    const records = Array.from({ length: 40 }, (_, i) => ({
      id: `m${String(i).padStart(2, '0')}`,
      w: i % 4,
      v: ['q', 'p', 'r'][i % 3],
      o: { n: String(i % 5) },
    }));
    const scope = await fresh(records);
    const query = { filter: { neq: { v: 'r' } }, sort: [{ w: 'desc' }, { v: 'asc' }] };
    const indexed = await pages(scope, query, 3, true);
    expect(indexed).toEqual(await pages(scope, query, 3, false));
    expect(indexed.flat().slice(0, 6)).toEqual(['m07', 'm19', 'm31', 'm03', 'm15', 'm27']);
    expect(indexed.flat()).toHaveLength(27);
  });

  it('seeks from the cursor: records written between pages are seen where they now sort', async () => {
    const scope = await fresh(Array.from({ length: 12 }, (_, i) => ({ id: `k${String(i + 1).padStart(2, '0')}`, w: i + 1 })));
    const first = await runSearch(
      backend.db,
      backend.dialect,
      scope,
      parseSearchParams({ query: { sort: [{ w: 'asc' }] }, limit: 3 }, FIELDS, VALUE_TYPES, INDEXED),
    );
    expect(first.hits.map((hit) => hit.id)).toEqual(['k01', 'k02', 'k03']);
    // k05 moves before the cursor (skipped), k06 goes, k13 arrives after it, k02 (seen) moves to the end (seen again).
    await backend.upsert(
      scope,
      [
        { id: 'k05', w: 0 },
        { id: 'k13', w: 4.5 },
        { id: 'k02', w: 100 },
      ],
      'id',
    );
    await sql('DELETE FROM search_records WHERE connector_id = $1 AND entity = $2 AND id = $3', [scope.connectorId, scope.entity, 'k06']);
    const rest: string[][] = [];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await runSearch(
        backend.db,
        backend.dialect,
        scope,
        parseSearchParams({ query: { sort: [{ w: 'asc' }] }, limit: 3, cursor }, FIELDS, VALUE_TYPES, INDEXED),
      );
      rest.push(page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    }
    expect(rest).toEqual([
      ['k04', 'k13', 'k07'],
      ['k08', 'k09', 'k10'],
      ['k11', 'k12', 'k02'],
    ]);
    // The kept keys followed every write: a fresh sort agrees with the unindexed one.
    expect(await pages(scope, { sort: [{ w: 'desc' }] }, 5, true)).toEqual(await pages(scope, { sort: [{ w: 'desc' }] }, 5, false));
  });
});

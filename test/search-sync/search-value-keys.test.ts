import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesFilter, parseSearchParams, runSearch, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { openPostgresSearchBackend, type SearchBackend, SEARCH_BACKENDS, rawSql } from '../support/search-records.js';

/**
 * An equality on a path inside an object or through an array reads that path's value keys (one
 * row per record and distinct scalar it holds there, started on the first such search): each
 * page must be the in-memory evaluator's answer in id order, page by page, with mixed types,
 * duplicates, nulls, missing values, arrays where objects are expected and the reverse, and after
 * inserts, updates and deletes.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', o: 'object', a: 'array', f: 'array', n: 'integer' };

const O = [
  { g: 'x' },
  { g: 2 },
  { g: true },
  { g: '' },
  { g: null },
  {},
  { g: 'X' },
  [{ g: 'x' }],
  'x',
  null,
  undefined,
  { g: 'é' },
  { g: 2.5 },
  { g: { h: 'x' } },
];
const A = [['x'], ['x', 'x', 2], [2, true, null], [], 'x', null, undefined, [['x']], [{ g: 'x' }], ['', 'é'], [1, 2.5]];
const F = [
  [{ g: 'x' }],
  [{ g: 'x' }, { g: 'x' }, { g: 2 }],
  [{ g: 2 }, 'x', null],
  [{}, { g: null }],
  { g: 'x' },
  [[{ g: 'x' }]],
  [],
  undefined,
  [{ g: 'y' }, { g: true }],
  [{ g: ['x'] }],
  [{ g: '' }],
];

/** 66 records whose values cycle through the lists above at different strides. */
const RECORDS = Array.from({ length: 66 }, (_, i) => {
  const record: Record<string, unknown> = { id: `r${String(i).padStart(2, '0')}`, n: i % 3 };
  const o = O[(i * 5) % O.length];
  const a = A[(i * 7) % A.length];
  const f = F[(i * 3) % F.length];
  if (o !== undefined) record.o = o;
  if (a !== undefined) record.a = a;
  if (f !== undefined) record.f = f;
  return record;
});

const QUERIES: unknown[] = [
  { eq: { 'o.g': 'x' } },
  { eq: { 'o.g': 2 } },
  { eq: { 'o.g': true } },
  { eq: { 'o.g': '' } },
  { eq: { 'o.g': 'é' } },
  { eq: { a: 'x' } },
  { eq: { a: 2 } },
  { eq: { a: true } },
  { eq: { 'f.g': 'x' } },
  { eq: { 'f.g': 2 } },
  { and: [{ eq: { 'f.g': 'x' } }, { neq: { n: 1 } }] },
  { in: { 'f.g': ['x', 'x'] } },
  { in: { 'f.g': ['x', 'y'] } },
  { eq: { 'f.g': 'nobody' } },
];

describe.each(SEARCH_BACKENDS)('equality through value keys on $name', ({ open }) => {
  let backend: SearchBackend;
  let scopes = 0;
  beforeAll(async () => {
    backend = await open();
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  const sql = (text: string, values: unknown[] = []) => rawSql(backend, text, values);

  async function pages(scope: SearchScope, filter: unknown, size: number): Promise<string[][]> {
    const found: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await runSearch(backend.db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS));
      found.push(page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    } while (cursor && found.length < 80);
    return found;
  }

  /** The evaluator's pages: the matching records in id order, `size` at a time. */
  function expected(records: ReadonlyArray<Record<string, unknown>>, filter: unknown, size: number): string[][] {
    const node = parseSearchParams({ query: { filter } }, FIELDS).filter!;
    const ids = records
      .filter((record) => matchesFilter(node, record))
      .map((record) => String(record.id))
      .sort();
    const found: string[][] = [];
    for (let i = 0; i < ids.length; i += size) found.push(ids.slice(i, i + size));
    return found.length > 0 ? found : [[]];
  }

  const paths = async (scope: SearchScope) =>
    (await sql('SELECT path FROM search_value_paths WHERE connector_id = $1 ORDER BY id', [scope.connectorId])).map((row) => row.path);

  it('answers every equality as the evaluator, page by page, and keeps the keys of the paths it read', async () => {
    const scope = { connectorId: `values-${++scopes}`, entity: 'rows' };
    await backend.upsert(scope, RECORDS, 'id');
    for (const filter of QUERIES) {
      for (const size of [1, 3, 100]) expect(await pages(scope, filter, size), `${JSON.stringify(filter)} by ${size}`).toEqual(expected(RECORDS, filter, size));
    }
    expect(await paths(scope)).toEqual(['o.g', 'a', 'f.g']);
    // One key per record and distinct scalar: r04 holds 'x' twice and 2 once in f.
    const keys = await sql(
      `SELECT k.rank, k.num, k.str FROM search_value_keys AS k JOIN search_value_paths AS p ON p.id = k.path_id WHERE p.connector_id = $1 AND p.path = 'f.g' AND k.id = 'r04' ORDER BY k.rank, k.num, k.str`,
      [scope.connectorId],
    );
    expect(keys.map((key) => [Number(key.rank), Number(key.num), key.str])).toEqual([
      [0, 2, ''],
      [1, 0, 'x'],
    ]);
  });

  it('reads the value keys of one equality when another one, on a sortable path, has no keys', async () => {
    const scope = { connectorId: `values-${++scopes}`, entity: 'rows' };
    await backend.upsert(scope, RECORDS, 'id');
    const filter = { and: [{ eq: { n: 1 } }, { eq: { 'f.g': 'x' } }] };
    for (const size of [2, 100]) expect(await pages(scope, filter, size)).toEqual(expected(RECORDS, filter, size));
    expect(await paths(scope)).toEqual(['f.g']);
    expect(await sql('SELECT path FROM search_sort_paths WHERE connector_id = $1', [scope.connectorId]).catch(() => [])).toEqual([]);
  });

  it('follows inserts, updates and deletes, and a cursor taken before them', async () => {
    const scope = { connectorId: `values-${++scopes}`, entity: 'rows' };
    let records = RECORDS.map((record) => ({ ...record }));
    await backend.upsert(scope, records, 'id');
    const filter = { eq: { 'f.g': 'x' } };
    const first = await runSearch(backend.db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: 2 }, FIELDS));
    const seen = first.hits.map((hit) => hit.id);
    expect(seen).toEqual(expected(records, filter, 2)[0]);
    // Updates that hold one value twice, as inserts do (the keys hold it once).
    const changed = records.map((record, i) =>
      i % 4 === 0 ? { ...record, f: [{ g: i % 8 === 0 ? 'x' : 'z' }, { g: i % 8 === 0 ? 'x' : 'z' }, 2, { g: 2 }] } : record,
    );
    const added = [
      { id: 'r70', f: [{ g: 'x' }, { g: 'x' }] },
      { id: 'r71', f: ['x'] },
      { id: 'r00x', f: [{ g: 'x' }] },
    ];
    await backend.upsert(scope, [...changed, ...added], 'id');
    await sql('DELETE FROM search_records WHERE connector_id = $1 AND entity = $2 AND id IN ($3, $4)', [scope.connectorId, scope.entity, 'r03', 'r06']);
    records = [...changed, ...added].filter((record) => record.id !== 'r03' && record.id !== 'r06');
    const rest: string[] = [];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await runSearch(backend.db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: 2, cursor }, FIELDS));
      rest.push(...page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    }
    const now = expected(records, filter, 1000)[0] as string[];
    expect(rest).toEqual(now.filter((id) => id > (seen[seen.length - 1] as string)));
    for (const size of [1, 4]) expect(await pages(scope, filter, size)).toEqual(expected(records, filter, size));
  });

  it('keeps value keys for at most 8 paths per entity; an equality on another is read as before, with the same answers', async () => {
    const scope = { connectorId: `values-${++scopes}`, entity: 'rows' };
    const wide = RECORDS.map((record, i) => ({
      ...record,
      o: { g: ['x', 'y'][i % 2], h1: i % 2, h2: i % 3, h3: 'x', h4: i % 5, h5: i % 4, h6: 'y', h7: i % 7, h8: i },
    }));
    await backend.upsert(scope, wide, 'id');
    const filters = ['g', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8'].map((key) => ({
      eq: { [`o.${key}`]: key === 'g' || key === 'h3' ? 'x' : 1 },
    }));
    filters.push({ eq: { 'f.g': 'x' } });
    for (const filter of filters) expect(await pages(scope, filter, 4), JSON.stringify(filter)).toEqual(expected(wide, filter, 4));
    expect(await paths(scope)).toEqual(['o.g', 'o.h1', 'o.h2', 'o.h3', 'o.h4', 'o.h5', 'o.h6', 'o.h7']);
  });
});

describe('value keys on postgres, numbers no float8 holds', () => {
  let backend: SearchBackend;
  const scope: SearchScope = { connectorId: 'values', entity: 'huge' };
  const RAW: Array<[string, string]> = [
    ['a', '{"id": "a", "o": {"g": 1e400}, "f": [{"g": 1e-400}, {"g": 5e-324}]}'],
    ['b', '{"id": "b", "o": {"g": 5e-324}, "f": [{"g": 1.7976931348623157e308}]}'],
    ['c', '{"id": "c", "o": {"g": 0}, "f": [{"g": 1e-400}]}'],
  ];
  beforeAll(async () => {
    backend = await openPostgresSearchBackend();
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('keeps writing records whose numbers overflow or underflow a float8, and finds the ones it holds', async () => {
    const search = async (filter: unknown) =>
      (await runSearch(backend.db, 'postgres', scope, parseSearchParams({ query: { filter }, limit: 10 }, FIELDS))).hits.map((hit) => hit.id);
    // The value keys start before the records arrive, so the trigger meets every number.
    expect(await search({ eq: { 'o.g': 0 } })).toEqual([]);
    expect(await search({ eq: { 'f.g': 0 } })).toEqual([]);
    for (const [id, json] of RAW) {
      await (backend.db as pg.Pool).query(`INSERT INTO search_records (connector_id, entity, id, data, updated_at) VALUES ($1, $2, $3, $4::jsonb, now())`, [
        scope.connectorId,
        scope.entity,
        id,
        json,
      ]);
    }
    expect(await search({ eq: { 'o.g': 5e-324 } })).toEqual(['b']);
    expect(await search({ eq: { 'o.g': 0 } })).toEqual(['c']);
    expect(await search({ eq: { 'f.g': 5e-324 } })).toEqual(['a']);
    expect(await search({ eq: { 'f.g': 1.7976931348623157e308 } })).toEqual(['b']);
    expect(await search({ eq: { 'f.g': 0 } })).toEqual([]);
  });
});

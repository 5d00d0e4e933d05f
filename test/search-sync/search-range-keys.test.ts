import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchScope, type ValueTypes } from '../../engine/search/index.js';
import { openPostgresSearchBackend, type SearchBackend, SEARCH_BACKENDS, rawSql } from '../support/search-records.js';

/**
 * A range every hit must be in, on a sortable path, is read from the path's kept keys when the
 * range holds few of them (range-keys.ts): the answers, page by page, must be those of the
 * id-ordered scan (the probe says "too many", or no path is sortable), with mixed types, ties,
 * nulls, missing values and typed paths.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', v: 'string', w: 'number', at: 'string', o: 'object' };
const VALUE_TYPES: ValueTypes = { at: 'date-time', 'o.n': 'number' };
const SORTABLE = ['v', 'w', 'at', 'o.n'];

const W = [0, 1, 2, 2.5, 3, 4, 5, 6, '3', true, false, null, undefined, 4.000000000000001, 1.9999999999999998, [3], { n: 3 }];
const V = ['a', 'b', 'bb', 'b ', 'c', 'B', 'é', '', 2, null, undefined, true, ['b']];
const AT = ['2024-03-01T10:00:00+02:00', '2024-03-01T08:00:00Z', '2024-03-01', 'not a date', 1709280000000, '2024-02-30', undefined];
const N = ['10', '9.5', 'abc', 10, -3, '1e1', undefined, null];

/** 60 records whose values cycle through the lists above at different strides (every combination of neighbours shows up). */
const RECORDS = Array.from({ length: 60 }, (_, i) => {
  const record: Record<string, unknown> = { id: `r${String(i).padStart(2, '0')}` };
  const w = W[(i * 7) % W.length];
  const v = V[(i * 5) % V.length];
  const at = AT[(i * 3) % AT.length];
  const n = N[i % N.length];
  if (w !== undefined) record.w = w;
  if (v !== undefined) record.v = v;
  if (at !== undefined) record.at = at;
  record.o = n === undefined ? {} : { n };
  return record;
});

const QUERIES: Record<string, unknown>[] = [
  { and: [{ gte: { w: 2 } }, { lt: { w: 4 } }] },
  { and: [{ gt: { w: 2 } }, { lte: { w: 4 } }] },
  { gt: { w: 2 } },
  { lt: { w: 2 } },
  { and: [{ gt: { w: 3 } }, { gte: { w: 1 } }, { lte: { w: 5 } }, { lt: { w: 6 } }] },
  { and: [{ gte: { w: 1 } }, { or: [{ eq: { v: 'b' } }, { lt: { w: 3 } }] }, { not: { eq: { v: 'a' } } }] },
  { and: [{ gte: { v: 'b' } }, { lt: { v: 'c' } }] },
  { gt: { v: 'b' } },
  { and: [{ gte: { at: '2024-03-01T07:00:00Z' } }, { lte: { at: '2024-03-01T09:00:00Z' } }] },
  { and: [{ gt: { 'o.n': 0 } }, { neq: { id: 'r05' } }] },
  { and: [{ gt: { w: 10 } }] },
  // Required values (eq, in) read value by value from the keys the ranges above started.
  { eq: { w: 2 } },
  { in: { w: [6, 2, 4, 3, 2] } },
  { and: [{ in: { w: [1, 2] } }, { neq: { v: 'a' } }] },
  { in: { v: ['b', 'bb', 'B', 'é', 'zz', 'b '] } },
  { eq: { v: '' } },
  { in: { at: ['2024-03-01T08:00:00Z', 1709280000000, '2024-03-01'] } },
  { and: [{ in: { 'o.n': [10, -3] } }, { gte: { w: 0 } }] },
  { in: { w: [2, null] } },
];

const BACKENDS = SEARCH_BACKENDS;

describe.each(BACKENDS)('ranges through kept keys on $name', ({ open }) => {
  let backend: SearchBackend;
  const scope: SearchScope = { connectorId: 'ranges', entity: 'rows' };
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(scope, RECORDS, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  const sql = (text: string, values: unknown[] = []) => rawSql(backend, text, values);

  /** Every page of a filter, `size` hits at a time: through the keys (limit: keys a range may hold), or with no path sortable. */
  async function pages(filter: unknown, size: number, how: { sortable: boolean; rangeKeysLimit?: number; rangeValuesMost?: number }): Promise<string[][]> {
    const found: string[][] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS, VALUE_TYPES, how.sortable ? SORTABLE : []);
      const options = { rangeKeysLimit: how.rangeKeysLimit, rangeValuesMost: how.rangeValuesMost };
      const page = await runSearch(backend.db, backend.dialect, scope, request, options);
      found.push(page.hits.map((hit) => `${hit.id}:${hit.score}:${JSON.stringify(hit.data)}`));
      cursor = page.next_cursor;
    } while (cursor && found.length < 70);
    return found;
  }

  it('answers every range exactly as the id-ordered scan, page by page, on both sides of the probe threshold', async () => {
    for (const filter of QUERIES) {
      for (const size of [1, 3, 100]) {
        const scan = await pages(filter, size, { sortable: false });
        expect(await pages(filter, size, { sortable: true }), `${JSON.stringify(filter)} by ${size}, value by value`).toEqual(scan);
        expect(await pages(filter, size, { sortable: true, rangeValuesMost: 2 }), `${JSON.stringify(filter)} by ${size}, 2 values at most`).toEqual(scan);
        expect(await pages(filter, size, { sortable: true, rangeValuesMost: 0 }), `${JSON.stringify(filter)} by ${size}, keys`).toEqual(scan);
        expect(
          await pages(filter, size, { sortable: true, rangeValuesMost: 0, rangeKeysLimit: 1 }),
          `${JSON.stringify(filter)} by ${size}, probe over`,
        ).toEqual(scan);
      }
    }
  });

  it('finds exactly the records in range, numbers and strings apart, and starts the keys of the path', async () => {
    const ids = async (filter: unknown) => (await pages(filter, 100, { sortable: true })).flat().map((hit) => hit.split(':')[0]);
    // Numbers only (never '3', true or [3]); 1.9999999999999998 below 2; 4.000000000000001 within (3.5, 4.5).
    expect(await ids({ and: [{ gte: { w: 2 } }, { lt: { w: 3 } }] })).toEqual(['r10', 'r15', 'r27', 'r32', 'r44', 'r49']);
    expect(await ids({ and: [{ gt: { w: 3.5 } }, { lt: { w: 4.5 } }] })).toEqual(['r08', 'r14', 'r25', 'r31', 'r42', 'r48', 'r59']);
    // Strings by their bytes: 'b', 'b ' and 'bb', never 'B', 2 or ['b'].
    expect(await ids({ and: [{ gte: { v: 'b' } }, { lt: { v: 'c' } }] })).toEqual([
      'r03',
      'r08',
      'r11',
      'r16',
      'r21',
      'r24',
      'r29',
      'r34',
      'r37',
      'r42',
      'r47',
      'r50',
      'r55',
    ]);
    const kept = await sql('SELECT p.path FROM search_sort_paths AS p WHERE p.connector_id = $1 ORDER BY p.path', [scope.connectorId]);
    expect(kept.map((row) => row.path)).toEqual(['at', 'o.n', 'v', 'w']);
  });

  it('reads required values through keys a range or a sort started, and never starts keys for them', async () => {
    const fresh: SearchScope = { connectorId: 'ranges', entity: 'values' };
    await backend.upsert(fresh, RECORDS, 'id');
    const kept = async () => (await sql('SELECT p.path FROM search_sort_paths AS p WHERE p.entity = $1', [fresh.entity])).map((row) => row.path);
    const ids = async (filter: unknown, size: number) => {
      const found: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await runSearch(
          backend.db,
          backend.dialect,
          fresh,
          parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS, VALUE_TYPES, SORTABLE),
        );
        found.push(...page.hits.map((hit) => hit.id));
        cursor = page.next_cursor;
      } while (cursor);
      return found;
    };
    const expected = RECORDS.filter((record) => [1, 2].includes(record.w as number)).map((record) => record.id);
    expect(await ids({ in: { w: [2, 1] } }, 2)).toEqual(expected);
    expect(await kept()).toEqual([]);
    expect(await ids({ gt: { w: 100 } }, 2)).toEqual([]);
    expect(await kept()).toEqual(['w']);
    expect(await ids({ in: { w: [2, 1] } }, 2)).toEqual(expected);
  });
});

describe('ranges through kept keys on postgres, numbers more precise than a float8 key', () => {
  let backend: SearchBackend;
  const scope: SearchScope = { connectorId: 'ranges', entity: 'precise' };
  // A jsonb number keeps every digit; its key is the nearest float8, so these two sit on key 2 itself.
  const RAW: Array<[string, string]> = [
    ['a0', '2.00000000000000000001'],
    ['a1', '1.99999999999999999999'],
    ...Array.from({ length: 30 }, (_, i): [string, string] => [`b${String(i).padStart(2, '0')}`, String(i % 3 === 0 ? 2 : i % 3)]),
    ['z0', '2.00000000000000000001'],
    ['z1', '1.99999999999999999999'],
  ];
  beforeAll(async () => {
    backend = await openPostgresSearchBackend();
    for (const [id, w] of RAW) {
      await (backend.db as pg.Pool).query(
        `INSERT INTO search_records (connector_id, entity, id, data, updated_at) VALUES ($1, $2, $3, ('{"id": "' || $3 || '", "w": ' || $4 || '}')::jsonb, now())`,
        [scope.connectorId, scope.entity, id, w],
      );
    }
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  async function ids(filter: unknown, size: number, options: { sortable: boolean; rangeValuesMost?: number }): Promise<string[]> {
    const found: string[] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS, VALUE_TYPES, options.sortable ? SORTABLE : []);
      const page = await runSearch(backend.db, backend.dialect, scope, request, { rangeValuesMost: options.rangeValuesMost });
      found.push(...page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    } while (cursor);
    return found;
  }

  it('finds the records just past an excluded bound whichever way the range is read, page by page', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ gt: { w: 2 } }, ['a0', 'z0']],
      [{ and: [{ gt: { w: 1 } }, { lt: { w: 2 } }] }, ['a1', 'z1']],
      [{ and: [{ gte: { w: 1 } }, { lt: { w: 2 } }] }, ['a1', ...RAW.filter(([id, w]) => id.startsWith('b') && w === '1').map(([id]) => id), 'z1']],
      // Required values: the keys of 2 hold the 20-digit numbers next to it too, which are not 2.
      [{ eq: { w: 2 } }, RAW.filter(([id, w]) => id.startsWith('b') && w === '2').map(([id]) => id)],
      [{ in: { w: [1, 2] } }, RAW.filter(([id, w]) => id.startsWith('b') && w !== '0').map(([id]) => id)],
    ];
    for (const [filter, expected] of cases) {
      for (const size of [1, 2, 100]) {
        expect(await ids(filter, size, { sortable: false }), `${JSON.stringify(filter)} by ${size}, scan`).toEqual(expected);
        expect(await ids(filter, size, { sortable: true }), `${JSON.stringify(filter)} by ${size}, value by value`).toEqual(expected);
        expect(await ids(filter, size, { sortable: true, rangeValuesMost: 0 }), `${JSON.stringify(filter)} by ${size}, keys`).toEqual(expected);
      }
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matchesFilter,
  parseSearchParams,
  runSearch,
  scoreRecord,
  type FieldType,
  type RunSearchOptions,
  type SearchScope,
} from '../../engine/search/index.js';
import { type SearchBackend, SEARCH_BACKENDS, rawSql } from '../support/search-records.js';

/**
 * A `like` whose pattern starts with a literal piece, on a path inside an object or a top-level
 * one, reads that path's value keys through their folded index (a prefix is a range of folded
 * strings), for every hit when the `like` is required, on SQLite for the score levels where it matches when
 * it only scores (under an `or`): every page must be the in-memory evaluator's answer and the
 * plain scan's, hits, scores, data and cursors alike, value by value, as a range of keys (sorted
 * in two parts: pages of 1 and 3 end past the first part), and past the probe, with case,
 * non-ASCII letters (folded by neither side), strings next to the range's ends, astral
 * characters, nulls, missing values, and arrays or strings where an object is expected.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', o: 'object', n: 'integer', name: 'string' };

const NAMES: unknown[] = [
  'Dee release',
  'DEE RELEASE',
  'dee rel',
  'dee relz',
  'dee rem',
  'dee rek',
  'dee re',
  'Dee Rel😀 x',
  'dee rel\u{10FFFF}',
  'dee_rel',
  'deeXrel',
  'Éclair',
  'éclair',
  '\u212Aelvin',
  'kelvin',
  'Kelvin',
  '',
  'zz\u{10FFFF}',
  'zz\u{10FFFF}\u{10FFFF}a',
  'zz~',
  5,
  null,
  true,
  { deep: 'dee release' },
];

/** 90 records: o.name cycles through NAMES; some records hold no object, an array or a string at o. */
const RECORDS = Array.from({ length: 90 }, (_, i) => {
  const record: Record<string, unknown> = { id: `r${String(i).padStart(2, '0')}`, n: i % 3 };
  const name = NAMES[(i * 7) % NAMES.length];
  if (i % 23 !== 4) record.name = NAMES[(i * 5) % NAMES.length];
  if (i % 11 === 5) record.o = [{ name }];
  else if (i % 13 === 6) record.o = name;
  else if (i % 17 === 7) record.o = {};
  else if (i % 19 !== 8) record.o = { name };
  return record;
});

const PATTERNS = [
  'dee rel%',
  'DEE REL%',
  'dee rel',
  'dee release',
  'dee%',
  'd%',
  'dee_rel%',
  'dee rel😀%',
  'É%',
  'é%',
  'k%',
  'zz\u{10FFFF}%',
  'zz%',
  'nobody%',
  'dee%rel%',
  '%rel%',
];

const QUERIES: unknown[] = [
  ...PATTERNS.map((pattern) => ({ like: { 'o.name': pattern } })),
  { and: [{ like: { 'o.name': 'dee rel%' } }, { neq: { n: 1 } }] },
  { and: [{ like: { 'o.name': 'dee%' } }, { like: { 'o.name': '%z' } }] },
  { or: [{ like: { 'o.name': 'dee rel%' } }, { eq: { n: 2 } }] },
  { like: { name: 'dee rel%' } },
  { like: { name: 'd%' } },
  { or: [{ like: { name: 'dee rel%' } }, { eq: { n: 2 } }] },
  { or: [{ like: { name: 'd%' } }, { like: { 'o.name': 'k%' } }] },
  {
    or: [
      { and: [{ eq: { n: 2 } }, { not: { like: { 'o.name': 'k%' } } }] },
      { and: [{ like: { name: 'dee%' } }, { not: { or: [{ eq: { n: 1 } }, { eq: { o: null } }] } }] },
    ],
  },
];

describe.each(SEARCH_BACKENDS)('like prefixes through folded value keys on $name', ({ open }) => {
  let backend: SearchBackend;
  const keyed: SearchScope = { connectorId: 'prefix-keys', entity: 'rows' };
  const plain: SearchScope = { connectorId: 'prefix-scan', entity: 'rows' };
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(keyed, RECORDS, 'id');
    await backend.upsert(plain, RECORDS, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  const sql = (text: string, values: unknown[] = []) => rawSql(backend, text, values);

  /** Every page of a filter, `size` hits at a time, each hit as id:score:data. */
  async function pages(scope: SearchScope, filter: unknown, size: number, options: RunSearchOptions): Promise<string[][]> {
    const found: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await runSearch(backend.db, backend.dialect, scope, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS), options);
      found.push(page.hits.map((hit) => `${hit.id}:${hit.score}:${JSON.stringify(hit.data)}`));
      cursor = page.next_cursor;
    } while (cursor && found.length < 100);
    return found;
  }

  /** The evaluator's hits as id:score, best score first, then by id. */
  function expected(filter: unknown): string[] {
    const node = parseSearchParams({ query: { filter } }, FIELDS).filter!;
    return RECORDS.filter((record) => matchesFilter(node, record))
      .map((record) => ({ id: String(record.id), score: scoreRecord(node, record) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .map(({ id, score }) => `${id}:${score}`);
  }

  it('answers every like prefix as the evaluator and the plain scan, page by page, whichever way the keys are read', async () => {
    for (const filter of QUERIES) {
      const ids = expected(filter);
      for (const size of [1, 3, 100]) {
        const scan = await pages(plain, filter, size, { startSortKeys: false });
        expect(
          scan.flat().map((hit) => hit.split(':').slice(0, 2).join(':')),
          `${JSON.stringify(filter)} by ${size}, scan`,
        ).toEqual(ids);
        const how = `${JSON.stringify(filter)} by ${size}`;
        expect(await pages(keyed, filter, size, {}), `${how}, value by value`).toEqual(scan);
        expect(await pages(keyed, filter, size, { rangeValuesMost: 1 }), `${how}, 1 value at most`).toEqual(scan);
        expect(await pages(keyed, filter, size, { rangeValuesMost: 0 }), `${how}, keys`).toEqual(scan);
        expect(await pages(keyed, filter, size, { rangeValuesMost: 0, rangeKeysLimit: 1 }), `${how}, probe over`).toEqual(scan);
      }
    }
    // The prefixes started the path's value keys; the plain scan's scope kept none.
    const kept = await sql('SELECT connector_id, path FROM search_value_paths ORDER BY connector_id, path');
    expect(kept.map((row) => `${row.connector_id} ${row.path}`)).toEqual(['prefix-keys name', 'prefix-keys o.name']);
  });

  it('reads the folded keys of the path: a prefix finds its records whatever their case, and none past its ends', async () => {
    const ids = async (pattern: string) => (await pages(keyed, { like: { 'o.name': pattern } }, 100, {})).flat().map((hit) => hit.split(':')[0] as string);
    const names = (found: string[]) => found.map((id) => (RECORDS.find((record) => record.id === id)?.o as { name: unknown }).name);
    expect(new Set(names(await ids('dee rel%')))).toEqual(new Set(['Dee release', 'DEE RELEASE', 'dee rel', 'dee relz', 'Dee Rel😀 x', 'dee rel\u{10FFFF}']));
    expect(new Set(names(await ids('k%')))).toEqual(new Set(['kelvin', 'Kelvin']));
    expect(new Set(names(await ids('zz\u{10FFFF}%')))).toEqual(new Set(['zz\u{10FFFF}', 'zz\u{10FFFF}\u{10FFFF}a']));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesFilter, parseSearchParams, runSearch, type FieldType, type SearchScope } from '../../engine/search/index.js';
import { evaluatorHits } from '../support/search-evaluator.js';
import { openSqliteSearchBackend, type SearchBackend } from '../support/search-records.js';

/**
 * SQLite reads a search's text index candidates ahead (sqlite-index-lists.ts): a query with few
 * candidates is bound as a list, one with many is left to the exact test while rows are read in
 * id order, and to the index past that. Whichever way each query goes, every page must be the
 * reference answer (matchesFilter, scoreRecord; score desc, then id), for values rarer and more
 * common than the threshold, lowered here to 5 candidates.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', tags: 'array', owner: 'object', followers: 'array', done: 'boolean' };
const TAGS = ['ops', 'ops', 'ops', 'legal', 'sales'];

/** 80 records: 'ops' on most, 'legal' on a few, owners and followers from small pools, names from a few words. */
const RECORDS = Array.from({ length: 80 }, (_, i) => ({
  id: `r${String(i).padStart(2, '0')}`,
  name: `${['launch plan', 'Launch review', 'audit', 'budget launch'][i % 4]} ${i}`,
  tags: i % 7 === 0 ? [] : [TAGS[i % 5], ...(i % 11 === 0 ? ['legal'] : [])],
  owner: i % 9 === 0 ? null : { gid: `u${i % 13}`, name: ['Ann', 'Bob'][i % 2] },
  followers: Array.from({ length: i % 3 }, (_, j) => ({ gid: `u${(i + j) % 17}` })),
  done: i % 3 === 0,
}));

const FILTERS: unknown[] = [
  { eq: { tags: 'ops' } },
  { eq: { tags: 'legal' } },
  { eq: { 'followers.gid': 'u4' } },
  { eq: { 'owner.gid': 'u7' } },
  { and: [{ eq: { done: false } }, { or: [{ eq: { tags: 'ops' } }, { eq: { 'owner.gid': 'u3' } }] }, { not: { eq: { 'owner.gid': 'u1' } } }] },
  { or: [{ and: [{ eq: { tags: 'legal' } }, { not: { eq: { done: true } } }] }, { and: [{ like: { name: 'launch%' } }, { not: { eq: { owner: null } } }] }] },
  { like: { name: '%launch%' } },
  { keyword: { name: 'launch review' } },
  { fuzzy: { name: 'lanch' } },
  { in: { tags: ['legal', 'sales'] } },
];

describe('text index candidates read ahead on sqlite', () => {
  let backend: SearchBackend;
  const scope: SearchScope = { connectorId: 'lists', entity: 'rows' };
  beforeAll(async () => {
    backend = openSqliteSearchBackend();
    await backend.upsert(scope, RECORDS, 'id');
  });
  afterAll(async () => {
    await backend?.close();
  });

  async function pages(filter: unknown, size: number, indexListMost?: number): Promise<string[]> {
    const hits: string[] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS);
      const page = await runSearch(backend.db, 'sqlite', scope, request, indexListMost === undefined ? {} : { indexListMost });
      hits.push(...page.hits.map((hit) => `${hit.id}:${hit.score.toFixed(6)}`));
      cursor = page.next_cursor;
    } while (cursor && hits.length < 200);
    return hits;
  }

  function reference(filter: unknown): string[] {
    return evaluatorHits(filter, FIELDS, RECORDS).map(([id, score]) => `${id}:${score.toFixed(6)}`);
  }

  it('answers every filter as the reference, page by page, with lists bound, left to the exact test, or both', async () => {
    for (const filter of FILTERS) {
      const expected = reference(filter);
      for (const [size, most] of [
        [3, 5],
        [7, 5],
        [3, 0],
        [100, 5],
        [3, undefined],
      ] as const) {
        expect(await pages(filter, size, most), `${JSON.stringify(filter)} by ${size}, lists up to ${most}`).toEqual(expected);
      }
    }
  });

  it('finds exactly the records holding a rare and a common array value', async () => {
    const ids = async (filter: unknown) => (await pages(filter, 4, 5)).map((hit) => hit.split(':')[0]);
    // 'legal' at i % 5 == 3 (not i % 7 == 0), and as a second tag at i % 11 == 0.
    expect(await ids({ eq: { tags: 'legal' } })).toEqual([
      'r03',
      'r08',
      'r11',
      'r13',
      'r18',
      'r22',
      'r23',
      'r33',
      'r38',
      'r43',
      'r44',
      'r48',
      'r53',
      'r55',
      'r58',
      'r66',
      'r68',
      'r73',
      'r78',
    ]);
    expect(await ids({ eq: { tags: 'ops' } })).toHaveLength(40);
  });

  it('stays exact when a query it remembers having many candidates comes to have few, or more', async () => {
    const later: SearchScope = { connectorId: 'lists', entity: 'later' };
    let records = RECORDS.map((record) => ({ ...record }));
    await backend.upsert(later, records, 'id');
    const pagesOf = async (filter: unknown, size: number) => {
      const hits: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await runSearch(backend.db, 'sqlite', later, parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS), { indexListMost: 5 });
        hits.push(...page.hits.map((hit) => hit.id));
        cursor = page.next_cursor;
      } while (cursor && hits.length < 200);
      return hits;
    };
    const expected = (filter: unknown) => {
      const node = parseSearchParams({ query: { filter } }, FIELDS).filter!;
      return records.filter((record) => matchesFilter(node, record)).map((record) => record.id);
    };
    const filters = [{ eq: { tags: 'ops' } }, { and: [{ eq: { tags: 'ops' } }, { eq: { done: false } }] }];
    for (const filter of filters) expect(await pagesOf(filter, 3)).toEqual(expected(filter));
    // 'ops' (40 candidates, remembered as many) comes down to 3 records, then 2 more arrive.
    const keep = new Set(['r01', 'r06', 'r51']);
    records = records.map((record) => (record.tags.includes('ops') && !keep.has(record.id) ? { ...record, tags: ['sales'] } : record));
    await backend.upsert(later, records, 'id');
    for (const filter of filters) expect(await pagesOf(filter, 2)).toEqual(expected(filter));
    records = [
      ...records,
      { ...(records[2] as (typeof records)[number]), id: 'r90', tags: ['ops'] },
      { ...(records[5] as (typeof records)[number]), id: 'r91', tags: ['ops'] },
    ];
    await backend.upsert(later, records, 'id');
    for (const filter of filters) expect(await pagesOf(filter, 2)).toEqual(expected(filter));
    expect(expected(filters[0])).toEqual(['r01', 'r06', 'r51', 'r90', 'r91']);
  });
});

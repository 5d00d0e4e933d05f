import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, projectFields, runSearch, type FieldType, type SearchHit, type SearchResult, type SearchScope } from '../../engine/search/index.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../support/search-records.js';

// A search that names `fields` reads only the top-level members they start with from the database
// (engine/search/projection-sql.ts); its hits must be byte for byte projectFields over the whole
// record as the database gives it (PostgreSQL's jsonb orders an object's keys its own way), and
// equal to projectFields over the record as written.

const FIELDS: Record<string, FieldType> = {
  gid: 'string',
  name: 'string',
  rank: 'number',
  done: 'boolean',
  owner: 'object',
  tags: 'array',
  people: 'array',
  'odd$key@x:y-z': 'object',
  empty: 'object',
};

/** Every kind of value a projected member can be: nested, arrays of objects and of scalars, absent, null, empty, odd keys and text. */
const RECORDS: Record<string, unknown>[] = [
  {
    gid: 'a1',
    name: 'alpha report',
    rank: 3,
    done: false,
    owner: { gid: 'u1', name: 'Ann', deep: { x: { y: 1 } } },
    tags: ['red', 'blue'],
    people: [{ gid: 'p1', role: 'lead' }, { gid: 'p2' }],
    'odd$key@x:y-z': { 'in$ner@:-': 'odd', plain: 0 },
    empty: {},
  },
  { gid: 'a2', name: 'beta report', rank: null, done: true, owner: null, tags: [], people: [], empty: { a: null } },
  { gid: 'a3', name: 'alpha "quoted" \\ back\nline\t\u2028 ünï 😀', done: false, owner: 'just a string', people: 'not an array' },
  {
    gid: 'a4',
    rank: 1e21,
    done: false,
    owner: 7,
    tags: ['red', 5, null, { gid: 'x' }],
    people: [{ gid: 'p3' }, 'scalar', null, [{ gid: 'nested' }], { role: 'x' }],
  },
  { gid: 'a5', name: 'alpha', rank: 0.30000000000000004, owner: { name: 'no gid' }, people: [{ gid: null }, {}], 'odd$key@x:y-z': null },
  { gid: 'a6', name: 'gamma report', rank: 2 ** 60, done: false, owner: {}, tags: [[]], 'odd$key@x:y-z': 'scalar here', extra: 'not searchable' },
  { gid: 'a7', name: 'report alpha', rank: -0.5, done: true, owner: { gid: { nested: ['deeper'] } }, people: [{ gid: 'p1', role: { level: 2 } }] },
];

/** Projections of many shapes: one member, nested paths, paths through arrays, a scalar's "child", overlapping paths, odd characters. */
const PROJECTIONS: string[][] = [
  ['name'],
  ['owner.gid'],
  ['name', 'owner.gid'],
  ['owner.gid', 'name', 'owner.name'],
  ['owner', 'owner.gid'],
  ['owner.gid', 'owner'],
  ['owner.deep.x.y', 'owner.deep.z'],
  ['people.gid'],
  ['people.gid', 'people.role.level', 'tags'],
  ['odd$key@x:y-z.in$ner@:-', 'odd$key@x:y-z'],
  ['empty', 'empty.a', 'rank', 'done'],
  ['gid', 'name', 'rank', 'done', 'owner', 'tags', 'people', 'odd$key@x:y-z', 'empty'],
];

const SCOPE: SearchScope = { connectorId: 'c1', entity: 'tasks' };

/** One query per plan (id order, id order with a text filter: window and rest, sorted, scored levels: keyword and fuzzy, ranked: too many levels), and its hits as `id:score`. */
const QUERIES: [Record<string, unknown>, string][] = [
  [{}, 'a1:1 a2:1 a3:1 a4:1 a5:1 a6:1 a7:1'],
  [{ filter: { eq: { done: false } } }, 'a1:1 a3:1 a4:1 a6:1'],
  [{ filter: { neq: { done: true } } }, 'a1:1 a3:1 a4:1 a5:1 a6:1'],
  [{ filter: { eq: { name: 'alpha' } } }, 'a5:1'],
  [{ filter: { like: { name: '%report%' } } }, 'a1:1 a2:1 a6:1 a7:1'],
  [{ sort: [{ rank: 'desc' }] }, 'a4:1 a6:1 a1:1 a5:1 a7:1 a2:1 a3:1'],
  [{ filter: { eq: { done: false } }, sort: [{ name: 'asc' }] }, 'a3:1 a1:1 a6:1 a4:1'],
  [{ filter: { keyword: { name: 'alpha report' } } }, 'a1:1 a7:1 a2:0.5 a3:0.5 a5:0.5 a6:0.5'],
  [{ filter: { fuzzy: { name: 'alpha reprot' } } }, 'a1:0.6666666666666666 a7:0.5833333333333334'],
  [
    { filter: { or: [{ fuzzy: { name: 'alpha reprot' } }, { keyword: { name: 'gamma beta report alpha x1 x2 x3 x4 x5 x6 x7' } }] } },
    'a1:0.4242424242424242 a7:0.38257575757575757 a3:0.2537878787878788 a5:0.2537878787878788 a2:0.2159090909090909 a6:0.2159090909090909',
  ],
];

describe.each([
  { name: 'sqlite', open: async () => openSqliteSearchBackend() },
  { name: 'postgres', open: () => openPostgresSearchBackend() },
])('projected search on $name', ({ open }) => {
  let backend: SearchBackend;
  const byId = new Map(RECORDS.map((record) => [record.gid as string, record]));
  const search = (params: Record<string, unknown>): Promise<SearchResult> => runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams(params, FIELDS));

  /** Every page of a query, two hits at a time (cursors included), as the JSON text of its hits. */
  async function pages(params: Record<string, unknown>): Promise<{ hits: string; cursors: (string | null)[] }> {
    const hits: unknown[] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchResult = await search({ ...params, limit: 2, cursor });
      hits.push(...page.hits);
      cursor = page.next_cursor;
      cursors.push(cursor);
    } while (cursor);
    return { hits: JSON.stringify(hits), cursors };
  }

  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, RECORDS, 'gid');
  }, 60_000);
  afterAll(async () => backend?.close());

  it('gives the hits of a search without fields, each cut by projectFields from the whole record, key order included', async () => {
    for (const [query, expected] of QUERIES) {
      const whole = JSON.parse((await pages({ query })).hits) as SearchHit[];
      expect(whole.map((hit) => `${hit.id}:${hit.score}`).join(' ')).toBe(expected);
      for (const fields of PROJECTIONS) {
        const projected = await pages({ query, fields });
        expect(projected.hits).toBe(JSON.stringify(whole.map((hit) => ({ ...hit, data: projectFields(hit.data, fields) }))));
        expect(JSON.parse(projected.hits)).toEqual(whole.map((hit) => ({ ...hit, data: projectFields(byId.get(hit.id) as Record<string, unknown>, fields) })));
        expect(projected.cursors).toEqual((await pages({ query })).cursors);
      }
    }
  });

  it('keeps an absent member absent, a null one null, and an empty object empty', async () => {
    const page = await search({ query: {}, fields: ['owner', 'rank', 'empty', 'odd$key@x:y-z.plain', 'people.gid'], limit: 7 });
    expect(page.hits.map((hit) => hit.data)).toEqual([
      { owner: { gid: 'u1', name: 'Ann', deep: { x: { y: 1 } } }, rank: 3, empty: {}, 'odd$key@x:y-z': { plain: 0 }, people: [{ gid: 'p1' }, { gid: 'p2' }] },
      { owner: null, rank: null, empty: { a: null }, people: [] },
      { owner: 'just a string' },
      { owner: 7, rank: 1e21, people: [{ gid: 'p3' }, {}, {}, {}, {}] },
      { owner: { name: 'no gid' }, rank: 0.30000000000000004, people: [{ gid: null }, {}] },
      { owner: {}, rank: 2 ** 60 },
      { owner: { gid: { nested: ['deeper'] } }, rank: -0.5, people: [{ gid: 'p1' }] },
    ]);
  });
});

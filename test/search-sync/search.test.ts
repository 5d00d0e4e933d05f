import fc from 'fast-check';
import pg from 'pg';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../engine/errors.js';
import { migratePostgres, POSTGRES_MIGRATIONS, migrateSqlite, SQLITE_MIGRATIONS } from '../../engine/store/index.js';
import { matchesFilter, parseSearchParams, runSearch, scoreRecord, type FieldType, type SearchResult, type SearchScope } from '../../engine/search/index.js';
import { startPostgres } from '../support/postgres.js';
import { type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = {
  gid: 'string',
  name: 'string',
  notes: 'string',
  num_likes: 'integer',
  ratio: 'number',
  completed: 'boolean',
  due_on: 'string',
  assignee: 'object',
  tags: 'array',
  followers: 'array',
};

const TASKS: Record<string, unknown>[] = [
  {
    gid: '1',
    name: 'Quick brown fox',
    notes: 'Jumps over the lazy dog',
    num_likes: 5,
    ratio: 0.5,
    completed: false,
    due_on: '2024-01-10',
    assignee: { gid: 'u1', name: 'Ann' },
    tags: ['red', 'blue'],
    followers: [{ gid: 'u2' }, { gid: 'u3' }],
  },
  {
    gid: '2',
    name: 'Lazy afternoon',
    notes: 'nothing_to do 100%',
    num_likes: 0,
    ratio: 1.5,
    completed: true,
    due_on: null,
    assignee: null,
    tags: [],
    followers: [],
  },
  {
    gid: '3',
    name: 'Brown bear sighting',
    notes: 'Bears are big; doing today',
    num_likes: 12,
    ratio: -2,
    completed: false,
    due_on: '2024-03-01',
    assignee: { gid: 'u2', name: 'Bob' },
    tags: ['blue'],
    followers: [{ gid: 'u1' }],
  },
  {
    gid: '4',
    name: 'Quarterly report',
    notes: 'Revenue, costs; margins',
    num_likes: 3,
    completed: true,
    due_on: '2023-12-31',
    assignee: { gid: 'u1', name: 'Ann' },
    tags: ['green', 7],
    followers: [{ gid: 'u3' }],
  },
  {
    gid: '5',
    name: "O'Reilly; DROP TABLE search_records;--",
    notes: 'Robert"); DROP TABLE x',
    num_likes: 1,
    ratio: 2.25,
    completed: false,
    due_on: '2024-02-29',
    tags: ['red'],
    followers: [],
  },
  {
    gid: '6',
    name: 'brwn fx quick',
    notes: 'typo laden',
    num_likes: 7,
    ratio: 0,
    completed: false,
    due_on: '2024-01-10',
    assignee: { gid: 'u3' },
    tags: ['RED'],
    followers: [{ gid: 'u1' }, { name: 'x' }],
  },
];

const SCOPE: SearchScope = { connectorId: 'conn-1', entity: 'tasks' };

const BACKENDS = SEARCH_BACKENDS;

function invalid(fn: () => unknown): InvalidParamsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParamsError);
    return error as InvalidParamsError;
  }
  throw new Error('expected InvalidParamsError');
}

describe('parseSearchParams', () => {
  it('applies the defaults of SPEC.md', () => {
    const request = parseSearchParams({ query: {} }, FIELDS);
    expect(request).toMatchObject({ filter: null, sort: [], limit: 1000, cursor: null, fields: null });
  });

  it('names an unknown field and lists the valid ones', () => {
    const error = invalid(() => parseSearchParams({ query: { filter: { eq: { nme: 'x' } } } }, FIELDS));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toEqual([
      {
        path: '/query/filter/eq/nme',
        message: expect.stringContaining('searchable fields are: assignee, completed, due_on, followers, gid, name, notes, num_likes, ratio, tags'),
      },
    ]);
  });

  it('refuses a value of the wrong type for the field', () => {
    const cases: Array<[unknown, string, string]> = [
      [{ eq: { num_likes: 'five' } }, '/query/filter/eq/num_likes', 'integer'],
      [{ eq: { num_likes: 1.5 } }, '/query/filter/eq/num_likes', 'integer'],
      [{ gt: { completed: true } }, '/query/filter/gt/completed', 'boolean'],
      [{ eq: { name: 5 } }, '/query/filter/eq/name', 'string'],
      [{ eq: { assignee: { gid: 'u1' } } }, '/query/filter/eq/assignee', 'object field'],
      [{ like: { num_likes: '1%' } }, '/query/filter/like/num_likes', 'string field'],
      [{ in: { tags: [] } }, '/query/filter/in/tags', 'array of 1'],
      [{ in: { ratio: [1, 'x'] } }, '/query/filter/in/ratio/1', 'number'],
      [{ eq: { tags: null } }, '/query/filter/eq/tags', 'string, number or boolean'],
      [{ keyword: { name: '  ,, ' } }, '/query/filter/keyword/name', 'words'],
      [{ eq: { 'name.first': 'x' } }, '/query/filter/eq/name.first', 'no sub-fields'],
    ];
    for (const [filter, path, message] of cases) {
      const error = invalid(() => parseSearchParams({ query: { filter } }, FIELDS));
      expect(error.details?.[0]?.path, JSON.stringify(filter)).toBe(path);
      expect(error.details?.[0]?.message, JSON.stringify(filter)).toContain(message);
    }
  });

  it('refuses unknown operators and malformed nodes, with their paths, all at once', () => {
    const error = invalid(() =>
      parseSearchParams(
        { query: { filter: { and: [{ equals: { name: 'x' } }, { eq: { name: 'a', gid: 'b' } }, { or: [] }, { not: { like: { nme: 'x' } } }] } }, limit: 0 },
        FIELDS,
      ),
    );
    expect(error.details?.map((detail) => detail.path)).toEqual([
      '/query/filter/and/0/equals',
      '/query/filter/and/1/eq',
      '/query/filter/and/2/or',
      '/query/filter/and/3/not/like/nme',
      '/limit',
    ]);
    expect(error.details?.[0]?.message).toContain(
      'unknown operator "equals"; expected one of eq, neq, gt, gte, lt, lte, in, like, fuzzy, keyword, and, or, not',
    );
  });

  it('bounds depth, size, limit, sort and fields', () => {
    let deep: unknown = { eq: { name: 'x' } };
    for (let i = 0; i < 10; i++) deep = { not: deep };
    expect(invalid(() => parseSearchParams({ query: { filter: deep } }, FIELDS)).details?.[0]?.message).toContain('deeper than 10');
    const wide = { or: Array.from({ length: 100 }, (_, i) => ({ eq: { gid: String(i) } })) };
    expect(invalid(() => parseSearchParams({ query: { filter: wide } }, FIELDS)).details?.[0]?.message).toContain('more than 100 nodes');
    expect(invalid(() => parseSearchParams({ query: {}, limit: 10_001 }, FIELDS)).details?.[0]?.path).toBe('/limit');
    expect(parseSearchParams({ query: {}, limit: 10_000 }, FIELDS).limit).toBe(10_000);
    expect(invalid(() => parseSearchParams({ query: { sort: [{ tags: 'asc' }] } }, FIELDS)).details?.[0]?.path).toBe('/query/sort/0/tags');
    expect(invalid(() => parseSearchParams({ query: { sort: [{ name: 'up' }] } }, FIELDS)).details?.[0]?.message).toContain('"asc" or "desc"');
    expect(invalid(() => parseSearchParams({ query: {}, fields: ['nope'] }, FIELDS)).details?.[0]?.path).toBe('/fields/0');
    expect(invalid(() => parseSearchParams({}, FIELDS)).details?.[0]?.path).toBe('/query');
    expect(invalid(() => parseSearchParams({ query: {}, extra: 1 }, FIELDS)).details?.[0]?.path).toBe('/extra');
    expect(invalid(() => parseSearchParams({ query: {}, cursor: 'not a cursor!' }, FIELDS)).details?.[0]?.path).toBe('/cursor');
  });

  it('refuses field names that try to escape the JSON path', () => {
    for (const name of ['name"); DROP TABLE search_records; --', "assignee.gid') OR 1=1 --", 'assignee.a"b', 'assignee..gid', 'assignee.gid[0]']) {
      const error = invalid(() => parseSearchParams({ query: { filter: { eq: { [name]: 'x' } } } }, FIELDS));
      expect(error.details?.[0]?.path).toBe(`/query/filter/eq/${name}`);
    }
  });
});

describe.each(BACKENDS)('search on $name', ({ open }) => {
  let backend: SearchBackend;
  const search = (params: unknown, scope: SearchScope = SCOPE, fields = FIELDS): Promise<SearchResult> =>
    runSearch(backend.db, backend.dialect, scope, parseSearchParams(params, fields));
  const ids = async (filter: unknown, extra: Record<string, unknown> = {}) => (await search({ query: { filter, ...extra } })).hits.map((hit) => hit.id);
  const sortedIds = async (filter: unknown) => (await ids(filter)).sort();

  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, TASKS, 'gid');
    // Same ids in another connector and entity: scope must keep them out.
    await backend.upsert({ connectorId: 'conn-2', entity: 'tasks' }, TASKS, 'gid');
    await backend.upsert({ connectorId: 'conn-1', entity: 'projects' }, TASKS, 'gid');
  }, 60_000);
  afterAll(async () => backend?.close());

  it('answers each comparison operator', async () => {
    expect(await sortedIds({ eq: { name: 'Lazy afternoon' } })).toEqual(['2']);
    expect(await sortedIds({ eq: { completed: true } })).toEqual(['2', '4']);
    expect(await sortedIds({ eq: { num_likes: 5 } })).toEqual(['1']);
    expect(await sortedIds({ neq: { completed: true } })).toEqual(['1', '3', '5', '6']);
    expect(await sortedIds({ gt: { num_likes: 3 } })).toEqual(['1', '3', '6']);
    expect(await sortedIds({ gte: { num_likes: 3 } })).toEqual(['1', '3', '4', '6']);
    expect(await sortedIds({ lt: { ratio: 0.5 } })).toEqual(['3', '6']);
    expect(await sortedIds({ lte: { ratio: 0.5 } })).toEqual(['1', '3', '6']);
    expect(await sortedIds({ lte: { due_on: '2024-01-10' } })).toEqual(['1', '4', '6']);
    expect(await sortedIds({ in: { num_likes: [0, 12] } })).toEqual(['2', '3']);
    expect(await sortedIds({ eq: { due_on: null } })).toEqual(['2']);
    expect(await sortedIds({ eq: { ratio: null } })).toEqual(['4']);
  });

  it('matches array fields when any element matches, and follows object paths', async () => {
    expect(await sortedIds({ eq: { tags: 'red' } })).toEqual(['1', '5']);
    expect(await sortedIds({ eq: { tags: 7 } })).toEqual(['4']);
    expect(await sortedIds({ in: { tags: ['blue', 'green'] } })).toEqual(['1', '3', '4']);
    expect(await sortedIds({ gt: { tags: 'q' } })).toEqual(['1', '5']);
    expect(await sortedIds({ eq: { 'followers.gid': 'u1' } })).toEqual(['3', '6']);
    expect(await sortedIds({ eq: { 'assignee.gid': 'u1' } })).toEqual(['1', '4']);
    expect(await sortedIds({ eq: { assignee: null } })).toEqual(['2', '5']);
    expect(await sortedIds({ neq: { assignee: null } })).toEqual(['1', '3', '4', '6']);
    expect(await sortedIds({ eq: { 'assignee.name': null } })).toEqual(['2', '5', '6']);
  });

  it('answers like (case-insensitive, % only wildcard)', async () => {
    expect(await sortedIds({ like: { name: 'quick%' } })).toEqual(['1']);
    expect(await sortedIds({ like: { name: '%BROWN%' } })).toEqual(['1', '3']);
    expect(await sortedIds({ like: { notes: '%g_to%' } })).toEqual(['2']);
    expect(await sortedIds({ like: { notes: '%100\\%' } })).toEqual([]);
    expect(await sortedIds({ like: { notes: '%100%' } })).toEqual(['2']);
    expect(await sortedIds({ like: { tags: 'r%' } })).toEqual(['1', '5', '6']);
  });

  it('ranks fuzzy matches by similarity and tolerates typos', async () => {
    expect(await ids({ fuzzy: { name: 'quikc brown' } })).toEqual(['1']);
    const result = await search({ query: { filter: { fuzzy: { name: 'brown fox' } } } });
    expect(result.hits.map((hit) => hit.id)).toEqual(['1', '3']);
    expect(result.hits[0]?.score).toBe(1);
    expect(result.hits[1]?.score).toBeCloseTo(5 / 9, 12);
  });

  it('ranks keyword matches by the share of words found', async () => {
    expect(await ids({ keyword: { notes: 'dog revenue' } })).toEqual(['1', '4']);
    const result = await search({ query: { filter: { keyword: { name: 'bear fox quick' } } } });
    expect(result.hits.map((hit) => [hit.id, Number(hit.score.toFixed(6))])).toEqual([
      ['1', 0.666667],
      ['3', 0.333333],
      ['6', 0.333333],
    ]);
    expect(await ids({ keyword: { name: 'bro' } })).toEqual([]);
  });

  it('counts keyword words across the elements of an array, and splits words at every ASCII character but letters and digits', async () => {
    const scope = { connectorId: 'words', entity: 'tasks' };
    await backend.upsert(
      scope,
      [
        { gid: 'a', name: 'alpha\u0001beta', tags: ['red', 'blue'] },
        { gid: 'b', name: 'alpha\u00a0beta', tags: ['red blue'] },
        { gid: 'c', name: 'Caf\u00e9 CAF\u00c9', tags: ['green'] },
      ],
      'gid',
    );
    const result = await search({ query: { filter: { keyword: { tags: 'red blue green' } } } }, scope);
    expect(result.hits.map((hit) => [hit.id, Number(hit.score.toFixed(6))])).toEqual([
      ['a', 0.666667],
      ['b', 0.666667],
      ['c', 0.333333],
    ]);
    expect((await search({ query: { filter: { keyword: { name: 'beta' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['a']);
    // Folding is ASCII-only: the accented capital stays a different letter.
    expect((await search({ query: { filter: { keyword: { name: 'caf\u00e9' } } } }, scope)).hits.map((hit) => [hit.id, hit.score])).toEqual([['c', 1]]);
    expect((await search({ query: { filter: { keyword: { name: 'caf\u00c9' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['c']);
  });

  it('finds a keyword word whole where its first occurrence is inside a longer word', async () => {
    const scope = { connectorId: 'edges', entity: 'tasks' };
    await backend.upsert(
      scope,
      [
        { gid: 'later', name: 'invoices, then invoice-2' },
        { gid: 'never', name: 'preinvoice invoicex' },
        { gid: 'accent', name: 'invoice\u00e9 \u00e9invoice' },
        { gid: 'edge', name: 'INVOICE' },
        { gid: 'both', name: 'xinvoice_invoices invoice' },
      ],
      'gid',
    );
    const result = await search({ query: { filter: { keyword: { name: 'invoice' } } } }, scope);
    // \u00e9 is a letter of a word: "invoice\u00e9" holds no whole "invoice"; "_" and "-" end words.
    expect(result.hits.map((hit) => hit.id).sort()).toEqual(['both', 'edge', 'later']);
  });

  it('finds text at any searchable depth, and never under keys a path cannot name', async () => {
    const scope = { connectorId: 'paths', entity: 'tasks' };
    const deep = { b: { c: { d: { e: { f: { g: 'needle in a haystack' } } } } } };
    await backend.upsert(
      scope,
      [
        { gid: 'deep', assignee: { a: deep } },
        { gid: 'dotted', assignee: { 'a.b': { c: { d: { e: { f: { g: 'needle' } } } } } } },
        { gid: 'array', assignee: { a: [deep] }, followers: [{ gid: 'needle' }, [{ gid: 'needle' }]] },
        { gid: 'long', notes: `${'x'.repeat(200)} needle`, tags: ['needle'] },
      ],
      'gid',
    );
    const path = 'assignee.a.b.c.d.e.f.g';
    expect((await search({ query: { filter: { keyword: { [path]: 'needle' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['deep']);
    expect((await search({ query: { filter: { like: { [path]: '%haystack' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['deep']);
    expect((await search({ query: { filter: { fuzzy: { [path]: 'nedle in haystak' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['deep']);
    expect((await search({ query: { filter: { eq: { 'followers.gid': 'needle' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['array']);
    expect((await search({ query: { filter: { keyword: { notes: `${'x'.repeat(200)} zzz` } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['long']);
    expect((await search({ query: { filter: { in: { tags: ['needle', 'other'] } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['long']);
  });

  it('searches a record too large for the text index like any other', async () => {
    const scope = { connectorId: 'huge', entity: 'tasks' };
    // Three fields of 150,000 pseudo-random letters and digits: more distinct trigrams than one
    // PostgreSQL tsvector takes, so that record is kept out of the trigram index.
    let state = 7;
    const noise = () =>
      Array.from({ length: 150_000 }, () => {
        state = (state * 48271) % 2147483647;
        return 'abcdefghijklmnopqrstuvwxyz0123456789'[state % 36];
      }).join('');
    const name = `${noise()} giant record`;
    await backend.upsert(
      scope,
      [
        { gid: 'huge', name, notes: noise(), assignee: { name: noise() }, tags: ['giant'] },
        { gid: 'small', name: 'small record', tags: ['tiny'] },
      ],
      'gid',
    );
    expect((await search({ query: { filter: { keyword: { tags: 'giant' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['huge']);
    expect((await search({ query: { filter: { keyword: { name: 'record giant' } } } }, scope)).hits.map((hit) => [hit.id, hit.score])).toEqual([
      ['huge', 1],
      ['small', 0.5],
    ]);
    expect((await search({ query: { filter: { like: { name: `%${name.slice(1000, 1010)}%` } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['huge']);
    expect((await search({ query: { filter: { fuzzy: { name: 'gaint record' } } } }, scope)).hits.map((hit) => hit.id)).toEqual(['huge', 'small']);
  }, 60_000);

  it('nests and/or/not freely', async () => {
    const filter = {
      and: [{ eq: { completed: false } }, { or: [{ gt: { num_likes: 6 } }, { like: { name: '%fox%' } }] }, { not: { eq: { tags: 'blue' } } }],
    };
    expect(await sortedIds(filter)).toEqual(['6']);
    expect(await sortedIds({ not: { or: [{ eq: { gid: '1' } }, { not: { lt: { num_likes: 4 } } }] } })).toEqual(['2', '4', '5']);
  });

  it('gives score 1 without text operators and orders by explicit sort, then id', async () => {
    const result = await search({ query: { sort: [{ due_on: 'asc' }, { num_likes: 'desc' }] } });
    expect(result.hits.map((hit) => hit.id)).toEqual(['4', '6', '1', '5', '3', '2']);
    expect(result.hits.every((hit) => hit.score === 1)).toBe(true);
    const byRatio = await search({ query: { sort: [{ ratio: 'desc' }] } });
    expect(byRatio.hits.map((hit) => hit.id)).toEqual(['5', '2', '1', '6', '3', '4']);
    expect(byRatio.next_cursor).toBeNull();
    expect(byRatio.took_ms).toBeGreaterThan(0);
  });

  it('keeps SQL injection attempts as data', async () => {
    const before = await backend.count();
    expect(await ids({ eq: { name: "O'Reilly; DROP TABLE search_records;--" } })).toEqual(['5']);
    expect(await ids({ like: { notes: '%"); drop table%' } })).toEqual(['5']);
    expect(await ids({ keyword: { name: "'; DROP TABLE search_records; --" } })).toEqual(['5']);
    expect(await ids({ fuzzy: { notes: '") OR 1=1 --' } })).toEqual([]);
    expect(await ids({ eq: { 'assignee.$': "x' OR '1'='1" } })).toEqual([]);
    expect(await backend.count()).toBe(before);
  });

  it('projects data to the requested fields, and to the searchable fields by default', async () => {
    await backend.upsert({ connectorId: 'conn-3', entity: 'tasks' }, [{ ...TASKS[0], secret_extra: 'not searchable' }], 'gid');
    const all = await search({ query: {} }, { connectorId: 'conn-3', entity: 'tasks' });
    expect(all.hits[0]?.data).toEqual(TASKS[0]);
    const some = await search({ query: { filter: { eq: { gid: '1' } } }, fields: ['name', 'assignee.gid', 'followers.gid', 'ratio'] });
    expect(some.hits).toEqual([
      { id: '1', score: 1, data: { name: 'Quick brown fox', assignee: { gid: 'u1' }, followers: [{ gid: 'u2' }, { gid: 'u3' }], ratio: 0.5 } },
    ]);
  });

  it('refuses a cursor from another query', async () => {
    const first = await search({ query: { sort: [{ num_likes: 'asc' }] }, limit: 2 });
    expect(first.next_cursor).toEqual(expect.any(String));
    const error = invalid(() => parseSearchParams({ query: { sort: [{ num_likes: 'desc' }] }, limit: 2, cursor: first.next_cursor }, FIELDS));
    expect(error.details?.[0]).toEqual({ path: '/cursor', message: expect.stringContaining('different query') });
  });

  it('pages through 5,000 records exactly once, while other rows change between pages', async () => {
    const scope = { connectorId: 'paging', entity: 'tasks' };
    const records = Array.from({ length: 5000 }, (_, i) => ({
      gid: `t${String(i).padStart(5, '0')}`,
      name: `task ${i} ${i % 3 === 0 ? 'alpha' : 'beta'}`,
      num_likes: i % 37,
      notes: 'v0',
    }));
    await backend.upsert(scope, records, 'gid');
    // Every plan: id order, explicit sort, score levels (a keyword; a like beside another test; a fuzzy), ranked by score (too many levels).
    const shapes: unknown[] = [
      { query: {} },
      { query: { sort: [{ num_likes: 'desc' }, { name: 'asc' }] } },
      { query: { filter: { keyword: { name: 'alpha beta task' } } } },
      { query: { filter: { or: [{ like: { name: 'task%alpha' } }, { gte: { num_likes: 0 } }] } } },
      { query: { filter: { fuzzy: { name: 'tassk' } } } },
      { query: { filter: { or: [{ fuzzy: { name: 'tassk alpah' } }, { keyword: { name: 'a b c d e f g h i j task' } }] } } },
    ];
    for (const shape of shapes) {
      const seen = new Map<string, number>();
      let cursor: string | null = null;
      let pages = 0;
      let version = 0;
      do {
        const page: SearchResult = await search({ ...(shape as object), limit: 450, cursor }, scope);
        for (const hit of page.hits) seen.set(hit.id, (seen.get(hit.id) ?? 0) + 1);
        cursor = page.next_cursor;
        pages++;
        // Rows already seen and rows not yet reached change (not their sort keys); new rows arrive elsewhere.
        version++;
        const changed = [records[(pages * 97) % 5000], records[(pages * 389 + 2500) % 5000]].map((record) => ({ ...record, notes: `v${version}` }));
        await backend.upsert(scope, changed as Record<string, unknown>[], 'gid');
        await backend.upsert({ connectorId: 'paging', entity: 'other' }, [{ gid: `o${pages}`, name: 'task alpha', num_likes: 1 }], 'gid');
      } while (cursor && pages < 100);
      expect(pages, JSON.stringify(shape)).toBe(12);
      expect(seen.size).toBe(5000);
      expect([...seen.values()].every((count) => count === 1)).toBe(true);
    }
  });

  describe('agrees with the in-memory evaluator on random filters', () => {
    // x_y: a name SQLite quotes in JSON paths; o.d.e: a path two objects deep.
    const PROP_FIELDS: Record<string, FieldType> = { s: 'string', x_y: 'string', n: 'integer', x: 'number', b: 'boolean', o: 'object', a: 'array', f: 'array' };
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', 'B', ' ', '_', '%', '"', "'", '\\', 'é'), maxLength: 6 });
    const int = fc.integer({ min: -3, max: 3 });
    const num = fc.oneof(int, fc.constantFrom(-1.5, 0.5, 2.25));
    const scalar = fc.oneof(text, num, fc.boolean());
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.option(arb, { nil: null }), { nil: undefined });
    const record = fc
      .record({
        s: maybe(text),
        x_y: maybe(fc.oneof(text, scalar)),
        n: maybe(int),
        x: maybe(num),
        b: maybe(fc.boolean()),
        // Mostly well-typed, sometimes not: the copy holds whatever the upstream sent.
        o: maybe(
          fc.oneof(
            fc.record({ p: maybe(scalar), q: maybe(text), d: maybe(fc.oneof(fc.record({ e: maybe(text) }), text)) }),
            fc.record({ p: maybe(scalar) }),
            text,
          ),
        ),
        a: maybe(fc.oneof(fc.array(scalar, { maxLength: 3 }), fc.array(scalar, { maxLength: 3 }), scalar)),
        f: maybe(fc.array(fc.oneof(fc.record({ g: maybe(scalar) }), text), { maxLength: 3 })),
      })
      .map((r) => Object.fromEntries(Object.entries(r).filter(([, value]) => value !== undefined)));

    const words = fc.array(fc.constantFrom('ab', 'abc', 'ba', 'cab', 'a', 'bca', 'b_a', 'AB'), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
    const pattern = fc.array(fc.constantFrom('%', 'a', 'b', 'c', '_', 'ab', 'A'), { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    const eqValue: Record<string, fc.Arbitrary<unknown>> = {
      s: fc.option(text, { nil: null }),
      n: fc.option(int, { nil: null }),
      x: fc.option(num, { nil: null }),
      b: fc.option(fc.boolean(), { nil: null }),
      o: fc.constant(null),
      'o.p': fc.option(scalar, { nil: null }),
      'o.d.e': fc.option(text, { nil: null }),
      x_y: fc.option(text, { nil: null }),
      a: scalar,
      'f.g': scalar,
    };
    const rangeValue: Record<string, fc.Arbitrary<unknown>> = {
      s: text,
      n: int,
      x: num,
      'o.p': fc.oneof(text, num),
      a: fc.oneof(text, num),
      'f.g': fc.oneof(text, num),
    };
    const textFields = ['s', 'x_y', 'o.p', 'o.q', 'o.d.e', 'a', 'f.g', 'f'];
    const leaf: fc.Arbitrary<unknown> = fc.oneof(
      fc
        .constantFrom(...Object.keys(eqValue))
        .chain((field) => fc.tuple(fc.constantFrom('eq', 'neq'), eqValue[field] as fc.Arbitrary<unknown>).map(([op, value]) => ({ [op]: { [field]: value } }))),
      fc
        .constantFrom(...Object.keys(rangeValue))
        .chain((field) =>
          fc.tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte'), rangeValue[field] as fc.Arbitrary<unknown>).map(([op, value]) => ({ [op]: { [field]: value } })),
        ),
      fc
        .constantFrom(...Object.keys(eqValue))
        .chain((field) => fc.array(eqValue[field] as fc.Arbitrary<unknown>, { minLength: 1, maxLength: 3 }).map((values) => ({ in: { [field]: values } }))),
      fc.tuple(fc.constantFrom(...textFields), pattern).map(([field, value]) => ({ like: { [field]: value } })),
      fc.tuple(fc.constantFrom(...textFields), words).map(([field, value]) => ({ fuzzy: { [field]: value } })),
      fc.tuple(fc.constantFrom(...textFields), words).map(([field, value]) => ({ keyword: { [field]: value } })),
    );
    const tree = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((nodes) => ({ and: nodes })),
        fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((nodes) => ({ or: nodes })),
        tie('node').map((node) => ({ not: node })),
      ),
    })).node;

    let run = 0;
    it('matches the same ids with the same scores, in score then id order, and pages through them exactly', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(record, { maxLength: 12 }), tree, fc.integer({ min: 1, max: 4 }), async (records, filter, pageSize) => {
          const scope = { connectorId: `prop-${++run}`, entity: 'rows' };
          const rows = records.map((data, i) => ({ ...data, id: `r${i}` }));
          await backend.upsert(scope, rows, 'id');
          const fields = { ...PROP_FIELDS, id: 'string' as const };
          const request = parseSearchParams({ query: { filter }, limit: 10_000 }, fields);
          const result = await runSearch(backend.db, backend.dialect, scope, request);
          const expected = rows.filter((row) => matchesFilter(request.filter!, row));
          expect(result.hits.map((hit) => hit.id).sort()).toEqual(expected.map((row) => row.id).sort());
          const scores = new Map(result.hits.map((hit) => [hit.id, hit.score]));
          for (const row of expected) expect(scores.get(row.id)).toBeCloseTo(scoreRecord(request.filter, row), 9);
          // Default order: score descending, then id.
          result.hits.slice(1).forEach((hit, i) => {
            const before = result.hits[i]!;
            expect(before.score > hit.score || (before.score === hit.score && before.id < hit.id), `${before.id} before ${hit.id}`).toBe(true);
          });
          // Small pages through the cursor give the same hits in the same order, each once.
          const paged: string[] = [];
          let cursor: string | null = null;
          do {
            const page: SearchResult = await runSearch(
              backend.db,
              backend.dialect,
              scope,
              parseSearchParams({ query: { filter }, limit: pageSize, cursor }, fields),
            );
            paged.push(...page.hits.map((hit) => hit.id));
            cursor = page.next_cursor;
          } while (cursor && paged.length <= rows.length);
          expect(paged).toEqual(result.hits.map((hit) => hit.id));
        }),
        { numRuns: 200 },
      );
    }, 120_000);
  });
});

describe('schema version 3 (search text indexes) on a database that already holds records', () => {
  const INSERT = `INSERT INTO search_records (connector_id, entity, id, data, updated_at) VALUES ($1, $2, $3, $4, '2024-01-01T00:00:00.000Z')`;
  const scope = { connectorId: 'conn-1', entity: 'tasks' };
  const upTo2 = <T extends { version: number }>(migrations: readonly T[]) => migrations.filter((m) => m.version <= 2);
  const hitIds = (result: SearchResult) => result.hits.map((hit) => hit.id).sort();

  /** The checks after the upgrade: the old rows are found, and later writes keep the index in step. */
  async function check(search: (params: unknown) => Promise<SearchResult>, run: (sql: string, values: unknown[]) => Promise<void>): Promise<void> {
    expect(hitIds(await search({ query: { filter: { keyword: { name: 'brown' } } } }))).toEqual(['1', '3']);
    expect(hitIds(await search({ query: { filter: { like: { 'assignee.name': 'b%' } } } }))).toEqual(['3']);
    expect(hitIds(await search({ query: { filter: { fuzzy: { name: 'quik brwn' } } } }))).toEqual(['1', '6']);
    expect(hitIds(await search({ query: { filter: { eq: { tags: 'red' } } } }))).toEqual(['1', '5']);
    // Words side by side (PostgreSQL's word pairs, schema version 11, built for the rows present).
    expect(hitIds(await search({ query: { filter: { like: { name: '%brown bear%' } } } }))).toEqual(['3']);
    await run('UPDATE search_records SET data = $1 WHERE id = $2', [JSON.stringify({ ...TASKS[2], name: 'Grey owl' }), '3']);
    await run('DELETE FROM search_records WHERE id = $1', ['1']);
    expect(hitIds(await search({ query: { filter: { keyword: { name: 'brown owl' } } } }))).toEqual(['3']);
    expect(hitIds(await search({ query: { filter: { like: { name: 'grey owl' } } } }))).toEqual(['3']);
  }

  it('sqlite: indexes the rows present and follows later writes', async () => {
    const db = new Database(':memory:');
    migrateSqlite(db, upTo2(SQLITE_MIGRATIONS));
    const insert = db.prepare(INSERT.replace(/\$\d/g, '?'));
    for (const task of TASKS) insert.run(scope.connectorId, scope.entity, task.gid, JSON.stringify(task));
    migrateSqlite(db);
    await check(
      (params) => runSearch(db, 'sqlite', scope, parseSearchParams(params, FIELDS)),
      async (sql, values) => void db.prepare(sql.replace(/\$\d/g, '?')).run(...values),
    );
    db.close();
  });

  it('postgres: indexes the rows present and follows later writes', async () => {
    const cluster = await startPostgres();
    const pool = new pg.Pool({ connectionString: await cluster.createDatabase() });
    try {
      await migratePostgres(pool, upTo2(POSTGRES_MIGRATIONS));
      for (const task of TASKS) await pool.query(INSERT, [scope.connectorId, scope.entity, task.gid, JSON.stringify(task)]);
      await migratePostgres(pool);
      await check(
        // The first walk in id order cut to one row: the upgraded text index answers the rest.
        (params) => runSearch(pool, 'postgres', scope, parseSearchParams(params, FIELDS), { walkRows: { first: 1, budget: 0 } }),
        async (sql, values) => void (await pool.query(sql, values)),
      );
    } finally {
      await pool.end();
      await cluster.stop();
    }
  }, 60_000);
});

/**
 * Hostile input through the library (open-source mode), where no HTTP body parser stands in
 * front: errors stay small, deep values are refused as typed errors, and search values the stores
 * cannot hold are refused on both dialects while the largest `in` lists match exactly.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, EngineError, ERROR_LIMITS, findManifest, InvalidParamsError, openStore, type Connection } from '../../engine/index.js';
import { matchesFilter, parseSearchParams, runSearch, type FieldType } from '../../engine/search/index.js';
import { runSync, searchCopy } from '../../engine/sync/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../support/search-records.js';

let cluster: PostgresCluster | undefined;
const postgres = async () => (cluster ??= await startPostgres());
afterAll(async () => cluster?.stop());

function deepArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

async function failure(run: () => unknown): Promise<EngineError> {
  const error = await (async () => run())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('errors of the library stay small', () => {
  // No request is sent: params are checked first, so the unreachable base URL is never called.
  const hubspot = () => connect('hubspot', { credentials: { access_token: 'pat-test' }, baseUrl: 'http://127.0.0.1:9' });

  it('80,000 unknown params give 20 details, the count of the rest, and a short message', async () => {
    const params = Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`p${i}`, 1]));
    const error = await failure(() => hubspot().execute('contacts', 'list', params));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toHaveLength(ERROR_LIMITS.maxDetails);
    expect(error.detailsOmitted).toBe(80_000 - ERROR_LIMITS.maxDetails);
    expect(error.message.length).toBeLessThanOrEqual(ERROR_LIMITS.maxMessageLength);
    expect(error.message).toMatch(/\(and 79997 more\)$/);
    const body = JSON.stringify(error.toJSON());
    expect(body.length).toBeLessThan(8 * 1024);
    expect(JSON.parse(body).error.details_omitted).toBe(79_980);
  });

  it('a megabyte-long key is clipped in the path it is reported at', async () => {
    const error = await failure(() => hubspot().execute('contacts', 'list', { ['k'.repeat(1_000_000)]: 1 }));
    expect(error.details?.[0]?.path.length).toBeLessThanOrEqual(ERROR_LIMITS.maxPathLength);
    expect(JSON.stringify(error.toJSON()).length).toBeLessThan(4 * 1024);
  });

  it('100,000-deep params and config are typed errors, not a stack overflow', async () => {
    // @ts-expect-error TypeScript refuses the unknown param too; this checks what JavaScript callers get.
    const params = await failure(() => hubspot().execute('contacts', 'list', { x: deepArray(100_000) }));
    expect(params).toBeInstanceOf(InvalidParamsError);
    expect(params.details?.[0]?.message).toBe('nests deeper than 64 levels');
    const config = await failure(() => connect('hubspot', { credentials: { access_token: 'pat-test' }, config: { x: deepArray(100_000) } }));
    expect(config.code).toBe('INVALID_CONFIG');
    expect(config.details?.[0]?.path).toMatch(/^\/config\/x\/0\/0/);
  });
});

const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', n: 'integer', x: 'number', b: 'boolean', o: 'object', tags: 'array', f: 'array' };

describe('search params refuse text no store can hold', () => {
  const refused = (filter: unknown) => {
    try {
      parseSearchParams({ query: { filter } }, FIELDS);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidParamsError);
      return (error as InvalidParamsError).details?.[0];
    }
    throw new Error(`accepted ${JSON.stringify(filter)}`);
  };

  it('U+0000 and lone surrogates in every operator, located', () => {
    for (const bad of ['a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800']) {
      for (const [op, value] of [
        ['eq', bad],
        ['neq', bad],
        ['gt', bad],
        ['like', `%${bad}%`],
        ['fuzzy', `${bad} ada`],
        ['keyword', `ada ${bad}`],
      ] as const) {
        expect(refused({ [op]: { name: value } })).toEqual({
          path: `/query/filter/${op}/name`,
          message: expect.stringContaining('U+0000 or an unpaired surrogate'),
        });
      }
      expect(refused({ in: { 'o.p': ['ok', bad] } })).toEqual({ path: '/query/filter/in/o.p/1', message: expect.stringContaining('U+0000') });
    }
    // A surrogate pair is one character, like any other.
    expect(parseSearchParams({ query: { filter: { eq: { name: 'smile \u{1F600}' } } } }, FIELDS).filter).toMatchObject({ op: 'eq', value: 'smile \u{1F600}' });
  });

  it('a hand-made cursor cannot smuggle U+0000 into the query', () => {
    const request = parseSearchParams({ query: { sort: [{ name: 'asc' }] } }, FIELDS);
    const cursor = Buffer.from(JSON.stringify({ h: request.queryHash, k: [1, 0, 'a\u0000', 'id\u0000'] })).toString('base64url');
    expect(() => parseSearchParams({ query: { sort: [{ name: 'asc' }] }, cursor }, FIELDS)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });

  it('a deep value where a filter, sort or fields should be is described in a bounded message', () => {
    for (const params of [
      { query: { filter: { eq: { name: deepArray(100_000) } } } },
      { query: { sort: deepArray(100_000) } },
      { query: deepArray(100_000) },
      { query: {}, fields: { a: deepArray(100_000) } },
    ]) {
      try {
        parseSearchParams(params, FIELDS);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidParamsError);
        expect((error as InvalidParamsError).message.length).toBeLessThan(400);
      }
    }
  });
});

describe.each([
  { name: 'sqlite', open: async () => openSqliteSearchBackend() },
  { name: 'postgres', open: async () => openPostgresSearchBackend(await postgres()) },
])('`in` lists at the maximum on $name', ({ open }) => {
  let backend: SearchBackend;
  const scope = { connectorId: 'conn-in', entity: 'rows' };
  // Values of every kind where the field is declared loosely (nested paths, array elements), so a
  // list mixes strings, integers, reals, booleans and null, and records hold look-alikes: "1" and 1,
  // 1 and 1.0, arrays and objects where a scalar is compared, and elements nested one level too deep.
  const rows = Array.from({ length: 1500 }, (_, i) => ({
    id: `r${String(i).padStart(4, '0')}`,
    name: i % 9 === 0 ? null : `name ${i % 700}`,
    n: i % 11 === 0 ? String(i) : i,
    x: i % 13 === 0 ? i + 0.5 : i,
    b: i % 2 === 0,
    o: i % 5 === 0 ? { p: [i] } : i % 7 === 0 ? { p: { q: i } } : { p: i % 3 === 0 ? `${i}` : i % 3 === 1 ? i : i % 4 === 0 },
    tags: i % 17 === 0 ? `t${i}` : [`t${i % 300}`, i % 50, [`t${i}`], { t: i }],
    f: [{ g: `g${i % 400}` }, `g${i}`, [{ g: `g${i}` }]],
  }));

  beforeAll(async () => {
    backend = await open();
    await backend.upsert(scope, rows, 'id');
  }, 60_000);
  afterAll(() => backend?.close());

  const lists: Array<[string, (size: number) => unknown[]]> = [
    ['id', (size) => Array.from({ length: size }, (_, i) => (i % 2 === 0 ? `r${String(i * 3).padStart(4, '0')}` : `nope${i}`))],
    ['name', (size) => [null, ...Array.from({ length: size - 1 }, (_, i) => `name ${i * 2}`)]],
    ['n', (size) => Array.from({ length: size }, (_, i) => i * 2)],
    ['x', (size) => Array.from({ length: size }, (_, i) => (i % 2 === 0 ? i + 0.5 : i))],
    ['o.p', (size) => [null, true, false, ...Array.from({ length: size - 3 }, (_, i) => (i % 2 === 0 ? i : `${i}`))]],
    ['tags', (size) => Array.from({ length: size }, (_, i) => (i % 3 === 0 ? i % 60 : `t${i}`))],
    ['f.g', (size) => Array.from({ length: size }, (_, i) => `g${i * 2}`)],
  ];

  for (const size of [999, 1000]) {
    for (const [field, values] of lists) {
      it(`${size} values on ${field} match the in-memory evaluation`, async () => {
        const request = parseSearchParams({ query: { filter: { in: { [field]: values(size) } } }, limit: 10_000 }, FIELDS);
        const result = await runSearch(backend.db, backend.dialect, scope, request);
        const expected = rows.filter((row) => matchesFilter(request.filter!, row)).map((row) => row.id);
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(rows.length);
        expect(result.hits.map((hit) => hit.id).sort()).toEqual(expected.sort());
      });
    }
  }

  it('1,001 values are INVALID_PARAMS', () => {
    expect(() => parseSearchParams({ query: { filter: { in: { n: Array.from({ length: 1001 }, (_, i) => i) } } } }, FIELDS)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS', details: [{ path: '/query/filter/in/n', message: expect.stringContaining('1 to 1000 values') }] }),
    );
  });

  it('the longest lists answer exactly: ten of them OR-ed over 1,500 rows', async () => {
    const filter = { or: lists.map(([field, values]) => ({ in: { [field]: values(1000) } })) };
    const request = parseSearchParams({ query: { filter }, limit: 10_000 }, FIELDS);
    const result = await runSearch(backend.db, backend.dialect, scope, request);
    expect(result.hits.map((hit) => hit.id).sort()).toEqual(
      rows
        .filter((row) => matchesFilter(request.filter!, row))
        .map((row) => row.id)
        .sort(),
    );
  });
});

describe.each(['sqlite', 'postgres'] as const)('a synced record holding U+0000 or a lone surrogate on %s', (backend) => {
  it('is stored with U+FFFD in their place, the pass succeeds, and search finds it', async () => {
    const url = backend === 'sqlite' ? `sqlite:${join(mkdtempSync(join(tmpdir(), 'storable-')), 'copy.db')}` : await (await postgres()).createDatabase();
    const store = await openStore(url);
    try {
      const record = {
        id: 'c\u00001',
        properties: { firstname: 'Ada\u0000 \ud800Lovelace', ['key\udc00']: 'x' },
        createdAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
        archived: false,
      };
      // The upstream's list answers with that record (live), then nothing (archived); the portal
      // defines one property, `firstname`.
      const connection = {
        async discoverFields() {
          return [{ name: 'firstname', type: 'string', hidden: false, archived: false }];
        },
        async *records(_entity: string, _action: string, params: Record<string, unknown>) {
          if (!params.archived) yield record;
        },
      } as unknown as Connection;
      const manifest = findManifest('hubspot').manifest;
      const [state] = await runSync({ connection, manifest, store, connectorId: 'conn_storable', entities: ['contacts'], mode: 'full' });
      expect(state).toMatchObject({ status: 'succeeded', records: 1, last_error: null });
      const found = await searchCopy({ store, manifest, connectorId: 'conn_storable' }, 'contacts', {
        query: { filter: { eq: { 'properties.firstname': 'Ada\ufffd \ufffdLovelace' } } },
      });
      expect(found.hits).toEqual([
        { id: 'c\ufffd1', score: 1, data: expect.objectContaining({ properties: { firstname: 'Ada\ufffd \ufffdLovelace', 'key\ufffd': 'x' } }) },
      ]);
    } finally {
      await store.close();
    }
  });
});

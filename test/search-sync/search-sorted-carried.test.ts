/**
 * A filtered sort read from kept keys on PostgreSQL carries each row's data from the record its
 * filter read (plan-sorted.ts sortedCarries) instead of looking the page's records up again: its
 * statement reads the record table once. Pages (ids, scores, data, projected or whole, and
 * cursors) must be those of the same search where no keys are kept (every record's keys computed
 * and sorted at query time, the page's records looked up).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type SearchResult, type SearchScope } from '../../engine/search/index.js';
import { recordSchemaDdl } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { watchQueries } from '../support/query-watch.js';

const FIELDS: Record<string, FieldType> = { id: 'string', k: 'integer', t: 'string', flag: 'boolean', o: 'object' };
/** Searched with kept keys (started on its first sorted search). */
const KEPT: SearchScope = { connectorId: 'carried', entity: 'rows' };
/** The same records, searched with no keys ever kept. */
const COMPUTED: SearchScope = { connectorId: 'computed', entity: 'rows' };

/** 60 records: ties on k, on k and t, a missing t, a nested object. */
const RECORDS = Array.from({ length: 60 }, (_, i) => {
  const record: Record<string, unknown> = { id: `c${String(i).padStart(2, '0')}`, k: i % 5, flag: i % 3 !== 0, o: { a: `a${i % 7}`, b: i } };
  if (i % 11 !== 0) record.t = 'xyz'[i % 3];
  return record;
});

const QUERIES: Array<Record<string, unknown>> = [
  { query: { filter: { eq: { flag: true } }, sort: [{ k: 'asc' }, { t: 'desc' }] } },
  { query: { filter: { eq: { flag: true } }, sort: [{ k: 'desc' }, { t: 'asc' }] }, fields: ['t', 'o.a'] },
  { query: { filter: { gte: { k: 2 } }, sort: [{ k: 'desc' }] } },
  { query: { filter: { eq: { flag: false } }, sort: [{ t: 'asc' }] }, fields: ['o'] },
];

describe('filtered sorts through kept keys on PostgreSQL carry their data', () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  /** The last search statement sent (rows as arrays), with its values. */
  let last: { text: string; values: unknown[] } | undefined;

  beforeAll(async () => {
    cluster = await startPostgres();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase(), max: 1 });
    watchQueries(pool, (args) => {
      const config = args[0] as { text?: string; values?: unknown[]; rowMode?: string };
      if (typeof config === 'object' && config.rowMode === 'array' && config.text) last = { text: config.text, values: config.values ?? [] };
    });
    await pool.query(recordSchemaDdl('postgres'));
    for (const scope of [KEPT, COMPUTED]) {
      await pool.query(
        `INSERT INTO search_records (connector_id, entity, id, data, updated_at)
         SELECT $1, $2, r.id, r.data, now() FROM unnest($3::text[], $4::jsonb[]) AS r(id, data)`,
        [scope.connectorId, scope.entity, RECORDS.map((record) => String(record.id)), RECORDS.map((record) => JSON.stringify(record))],
      );
    }
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  /** Every page of a search, 7 hits at a time, each from the cursor of the one before. */
  async function pages(scope: SearchScope, params: Record<string, unknown>, startSortKeys: boolean): Promise<SearchResult[]> {
    const found: SearchResult[] = [];
    let cursor: string | null = null;
    do {
      const page = await runSearch(pool, 'postgres', scope, parseSearchParams({ ...params, limit: 7, cursor }, FIELDS), { startSortKeys });
      found.push({ ...page, took_ms: 0 });
      cursor = page.next_cursor;
    } while (cursor && found.length < 20);
    return found;
  }

  /** The relations the last statement's plan reads, one entry per scan. */
  async function scannedRelations(): Promise<string[]> {
    const statement = last as { text: string; values: unknown[] };
    const plan = (await pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values)).rows[0]?.['QUERY PLAN'];
    const relations: string[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray(node)) return node.forEach(walk);
      const relation = (node as Record<string, unknown>)['Relation Name'];
      if (typeof relation === 'string') relations.push(relation);
      Object.values(node).forEach(walk);
    };
    walk(plan);
    return relations.sort();
  }

  it.each(QUERIES)('answers %j as a search with no kept keys does', async (params) => {
    const expected = await pages(COMPUTED, params, false);
    // The first search starts the keys; the next reads them.
    await pages(KEPT, params, true);
    const found = await pages(KEPT, params, true);
    expect(found).toEqual(expected);
    expect(found.length).toBeGreaterThan(1);
  });

  it('reads each record once: one scan of the records for each of the kept keys (a cursor page reads a range per key column)', async () => {
    for (const params of QUERIES) {
      await pages(KEPT, params, true);
      // The last page's statement, after a cursor: its branches each walk the keys and test their records.
      const relations = await scannedRelations();
      const kept = relations.filter((relation) => relation === 'search_sort_pairs' || relation === 'search_sort_keys').length;
      expect({ params, kept: kept > 0, records: relations.filter((relation) => relation === 'search_records').length }).toEqual({
        params,
        kept: true,
        records: kept,
      });
    }
  });
});

/**
 * PostgreSQL takes a range's last probe on the pool (range-values.ts: its few values, or whether
 * its keys are few enough to read) as a guess that the range's read checks in its own snapshot
 * (range-keys.ts KeyRangeRead, postgres-guarded.ts): a repeated range search is one statement, the
 * probe's none of its own. Pages must stay what the evaluator answers when writes between searches
 * move the range's values and keys across what the guess assumed (a guess that fails, then holds).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldType, RunSearchOptions, SearchScope } from '../../engine/search/index.js';
import { recordSchemaDdl } from '../../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { watchQueries } from '../support/query-watch.js';
import { evaluatorPages, searchPages, type SearchTarget } from '../support/search-evaluator.js';

const FIELDS: Record<string, FieldType> = { id: 'string', n: 'integer', s: 'string' };
const SCOPE: SearchScope = { connectorId: 'guess', entity: 'rows' };

/** 90 records: n cycles through 0..8 (10 records each), s through 'a'..'f'. */
const START: Array<Record<string, unknown>> = Array.from({ length: 90 }, (_, i) => ({
  id: `g${String(i).padStart(2, '0')}`,
  n: i % 9,
  s: 'abcdef'[i % 6],
}));

/** Ranges read value by value (3 values), from their keys (rangeValuesMost 2), and in id order (rangeKeysLimit 1). */
const RANGES: Array<{ filter: Record<string, unknown>; options: RunSearchOptions }> = [
  { filter: { and: [{ gte: { n: 2 } }, { lt: { n: 5 } }] }, options: {} },
  { filter: { and: [{ gt: { s: 'a' } }, { lte: { s: 'c' } }] }, options: {} },
  { filter: { and: [{ gte: { n: 2 } }, { lt: { n: 5 } }] }, options: { rangeValuesMost: 2 } },
  { filter: { and: [{ gte: { n: 2 } }, { lt: { n: 5 } }] }, options: { rangeValuesMost: 2, rangeKeysLimit: 1 } },
];

describe('range reads on PostgreSQL that check their last probe as a guess', () => {
  let cluster: PostgresCluster;
  let pool: pg.Pool;
  /** Statements sent on the pool's connections (every query call a client makes). */
  let sent = 0;
  const records = new Map<string, Record<string, unknown>>();

  async function upsert(rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    for (const row of rows) records.set(String(row.id), row);
    await pool.query(
      `INSERT INTO search_records (connector_id, entity, id, data, updated_at)
       SELECT $1, $2, r.id, r.data, now() FROM unnest($3::text[], $4::jsonb[]) AS r(id, data)
       ON CONFLICT (connector_id, entity, id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
      [SCOPE.connectorId, SCOPE.entity, rows.map((row) => String(row.id)), rows.map((row) => JSON.stringify(row))],
    );
  }

  beforeAll(async () => {
    cluster = await startPostgres();
    // One connection: what a search sends is all that is sent between two reads of the count.
    pool = new pg.Pool({ connectionString: await cluster.createDatabase(), max: 1 });
    watchQueries(pool, () => sent++);
    await pool.query(recordSchemaDdl('postgres'));
    await upsert(START);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  const target = (): SearchTarget => ({ db: pool, dialect: 'postgres', scope: SCOPE, fields: FIELDS });
  const expected = (filter: Record<string, unknown>, size: number) => evaluatorPages(filter, FIELDS, [...records.values()], size);

  it('sends one statement for a repeated range search, whichever way the range is read', async () => {
    for (const { filter, options } of RANGES) {
      // The first search starts the path's keys and probes the range.
      expect(await searchPages(target(), filter, 100, options)).toEqual(expected(filter, 100));
      sent = 0;
      expect(await searchPages(target(), filter, 100, options)).toEqual(expected(filter, 100));
      expect({ filter, options, sent }).toEqual({ filter, options, sent: 1 });
    }
  });

  /** Runs of the search statements kept on the pool's one connection (postgres-statements.ts), by name. */
  async function keptRuns(): Promise<Map<string, number>> {
    const { rows } = await pool.query<{ name: string; runs: string }>(
      "SELECT name, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE name LIKE 'ce\\_search\\_%'",
    );
    return new Map(rows.map((row) => [row.name, Number(row.runs)]));
  }

  /** How many runs each kept statement gained over `searches` (those gaining none left out). */
  async function keptGains(searches: () => Promise<void>): Promise<number[]> {
    const before = await keptRuns();
    await searches();
    return [...(await keptRuns())].map(([name, runs]) => runs - (before.get(name) ?? 0)).filter((gain) => gain > 0);
  }

  it('keeps a read value by value named and plans it for every value, not a read of a range from its keys', async () => {
    // Values 2 to 5 and 5 to 8 (the excluded bound's too: untyped numbers' keys are inexact, key-range-sql.ts): one text, the values its parameters.
    const byValue = [{ and: [{ gte: { n: 2 } }, { lt: { n: 5 } }] }, { and: [{ gte: { n: 5 } }, { lt: { n: 8 } }] }];
    for (const filter of byValue) await searchPages(target(), filter, 100);
    expect(
      await keptGains(async () => {
        for (let round = 0; round < 4; round++) for (const filter of byValue) expect(await searchPages(target(), filter, 100)).toEqual(expected(filter, 100));
      }),
    ).toEqual([8]);
    const fromKeys = { rangeValuesMost: 2 };
    expect(
      await keptGains(async () => {
        for (let round = 0; round < 4; round++)
          for (const filter of byValue) expect(await searchPages(target(), filter, 100, fromKeys)).toEqual(expected(filter, 100));
      }),
    ).toEqual([]);
  });

  it('stays exact, page by page, when writes move the range across its guess', async () => {
    const writes: Array<Array<Record<string, unknown>>> = [
      // A value the range did not hold (between two it held, and past the last), then gone again.
      [{ id: 'w1', n: 3.5, s: 'bb' }],
      [{ id: 'w2', n: 4.5, s: 'cc' }],
      [
        { id: 'w1', n: 9, s: 'z' },
        { id: 'w2', n: 'x', s: 0 },
      ],
      // A value the range held taken out of every record that held it.
      START.filter((row) => row.n === 2 || row.s === 'b').map((row) => ({ ...row, n: -1, s: 'y' })),
      // And brought back.
      START.filter((row) => row.n === 2 || row.s === 'b'),
      // Many values in the range: past what a range is read value by value.
      Array.from({ length: 40 }, (_, i) => ({ id: `m${String(i).padStart(2, '0')}`, n: 2 + i / 20, s: `b${i}` })),
    ];
    for (const { filter, options } of RANGES) await searchPages(target(), filter, 4, options);
    for (const [step, rows] of writes.entries()) {
      await upsert(rows);
      for (const { filter, options } of RANGES) {
        for (const size of [4, 100]) {
          expect({ step, filter, options, size, pages: await searchPages(target(), filter, size, options) }).toEqual({
            step,
            filter,
            options,
            size,
            pages: expected(filter, size),
          });
        }
      }
    }
  }, 60_000);
});

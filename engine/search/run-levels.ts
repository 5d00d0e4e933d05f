import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { presenceProbe } from './gram-presence.js';
import { knownAbsent, rememberAbsent } from './known-absent.js';
import { sqliteDataVersion } from './sqlite-data-version.js';
import { commonTerms } from './pg-common-terms.js';
import { postgresDialect } from './postgres-dialect.js';
import type { ScoreLevel } from './score-levels.js';
import { compileRead, postgresRows, sqliteRows, type ReadOptions, type SearchDatabase, type SearchRow } from './search-rows.js';
import { scoringNodes } from './scoring-nodes.js';
import { planSearch } from './search-plan.js';
import type { AbsentGrams } from './sql-dialect.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { preparedStatement } from './sqlite-statements.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';

/** One statement of a levels read: its levels, and the rows it stops at. */
type LevelRead = { levels: readonly ScoreLevel[]; need: number };

/**
 * The statements of a levels read, one level each, best first, from the cursor's level: each is
 * sent the rows the one before found, and none follows once the page and one more row are found.
 * A page of the best level is one statement; a level with fewer rows than a page hands on to the
 * next.
 */
function* levelReads(request: SearchRequest, absent: AbsentGrams | undefined): Generator<LevelRead, SearchRow[], SearchRow[]> {
  const plan = planSearch(request, absent);
  if (plan.kind !== 'levels') throw new TypeError('a levels read needs a levels plan');
  const cursorScore = request.cursor?.[0];
  const rows: SearchRow[] = [];
  for (const level of plan.levels) {
    if (typeof cursorScore === 'number' && level.score > cursorScore) continue;
    rows.push(...(yield { levels: [level], need: request.limit + 1 - rows.length }));
    if (rows.length > request.limit) break;
  }
  return rows;
}

/**
 * The rows of a `levels` plan (search-plan.ts), read in one snapshot: first which fuzzy trigrams
 * no record holds (gram-presence.ts, when a fuzzy node scores), then level by level from the best
 * that can hold a row (plan-levels.ts), so that levels no page reaches cost nothing, neither a
 * plan nor a candidate list. The snapshot makes the levels one answer: no record is seen on two
 * levels or on none by a write between two statements, and no gram the probe found absent is in
 * a row the levels test. SQLite reads in a transaction (its statements run synchronously, so
 * nothing else uses the connection in between); PostgreSQL, when it probes, in a REPEATABLE READ
 * READ ONLY transaction on a connection of the pool. With nothing to probe (no fuzzy node), or
 * given a lone PostgreSQL client (which may be in a transaction of its caller's, and then nothing
 * is probed), PostgreSQL reads every level in one statement: each statement costs a round trip
 * and a plan, and a transaction two more round trips, where SQLite's cost about nothing. SQLite
 * does not probe where its connection probed the same request at the same data version
 * (sqlite-data-version.ts), which nothing was written since; at that version its statements also
 * read the loose levels' candidates in id order the connection kept (sqlite-level-lists.ts).
 */
export async function levelRows(
  db: SearchDatabase,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  read: ReadOptions,
): Promise<SearchRow[]> {
  if (dialect === 'sqlite') {
    const sqlite = db as BetterSqlite3.Database;
    const probe = presenceProbe(sqliteDialect, scope, request);
    const all = (): SearchRow[] => {
      // Read first: it starts the snapshot the probe and the levels read.
      const version = probe ? sqliteDataVersion(sqlite) : '';
      let absent = probe && knownAbsent(sqlite, scope, request, version);
      if (probe && !absent) {
        absent = probe.absent(
          preparedStatement(sqlite, probe.sql)
            .raw(false)
            .get(...probe.params) as Record<string, unknown> | undefined,
        );
        rememberAbsent(sqlite, scope, request, absent, version);
      }
      const reads = levelReads(request, absent);
      let step = reads.next();
      const options = { ...read, absent, ...(probe ? { dataVersion: version } : {}) };
      while (!step.done) step = reads.next(sqliteRows(sqlite, compileRead(sqlite, dialect, scope, request, { ...options, levels: step.value })));
      return step.value;
    };
    return sqlite.inTransaction ? all() : sqlite.transaction(all)();
  }
  // Nothing to probe, or a lone client: every level in one statement (it is one snapshot), read as far as the page needs.
  const probes = scoringNodes(request.filter).some((node) => node.op === 'fuzzy');
  if (!probes || !('totalCount' in db)) return postgresRows(db as pg.Pool | pg.PoolClient | pg.Client, compileRead(db, dialect, scope, request, read));
  const client = await (db as pg.Pool).connect();
  let broken: Error | undefined;
  try {
    // The probe reads the index for every term it asks (pg-common-terms.ts): a table scan stops at the first row only where one is.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL enable_seqscan = off');
    const termShares = await commonTerms(db, client);
    const probe = presenceProbe(postgresDialect, scope, request, termShares.shares);
    const absent = probe?.absent((await client.query<Record<string, unknown>>(probe.sql, probe.params)).rows[0]);
    const reads = levelReads(request, absent);
    let step = reads.next();
    while (!step.done)
      step = reads.next(await postgresRows(client, compileRead(client, dialect, scope, request, { ...read, absent, termShares, levels: step.value })));
    await client.query('COMMIT');
    return step.value;
  } catch (error) {
    // A connection that cannot even roll back is not handed to the next caller.
    await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
    throw error;
  } finally {
    client.release(broken);
  }
}

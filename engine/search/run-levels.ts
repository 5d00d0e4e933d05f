import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { presenceProbe, type PresenceProbe } from './gram-presence.js';
import { knownAbsent, rememberAbsent } from './known-absent.js';
import { sqliteDataVersion } from './sqlite-data-version.js';
import { checkIn, checkOut } from '../store/index.js';
import { commonTerms } from './pg-common-terms.js';
import { postgresDialect } from './postgres-dialect.js';
import type { CompiledSearch } from './compile-search.js';
import { hitsAfter } from './pg-level-lists.js';
import { keptHitsOf, levelReaderRows, type KeptHits, type LevelRead } from './pg-level-reader.js';
import type { ScoreLevel } from './score-levels.js';
import { guarded } from './postgres-guarded.js';
import { compileRead, postgresRows, sqliteRows, type ReadOptions, type SearchDatabase, type SearchRow } from './search-rows.js';
import { scoringNodes } from './scoring-nodes.js';
import { planSearch } from './search-plan.js';
import type { AbsentGrams } from './sql-dialect.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { preparedStatement } from './sqlite-statements.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';

/** How a PostgreSQL levels read starts its transaction: the probe reads the index for every term it asks (pg-common-terms.ts), a table scan stops at the first row only where one is. */
const BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL enable_seqscan = off';

/** The version PostgreSQL's absent grams are kept at (known-absent.ts): it has no data version, so they are only a guess its statement checks. */
const GUESS = 'guessed';

/**
 * The statements of a levels read, one level each, best first, from the cursor's level: each is
 * sent the rows the one before found, and none follows once the page and one more row are found.
 * A page of the best level is one statement; a level with fewer rows than a page hands on to the
 * next. On PostgreSQL (`kept`), a level whose hits the pool keeps for the read's snapshot is read
 * by the statement of the level before it, from its first hits (at 10,000 records,
 * scripts/bench-search.ts, "quartrly reprot": the 36 rows of the second level a page needs).
 */
function* levelReads(request: SearchRequest, absent: AbsentGrams | undefined, kept?: KeptHits): Generator<LevelRead, SearchRow[], SearchRow[]> {
  const plan = planSearch(request, absent);
  if (plan.kind !== 'levels') throw new TypeError('a levels read needs a levels plan');
  const cursorScore = request.cursor?.[0];
  const rows: SearchRow[] = [];
  const levels = plan.levels.filter((level) => typeof cursorScore !== 'number' || level.score <= cursorScore);
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as ScoreLevel;
    const need = request.limit + 1 - rows.length;
    // A next level whose hits are kept for this snapshot is read by the same statement, from its first hits (pg-level-lists.ts): a round trip fewer.
    const next = levels[i + 1];
    const hits = next && kept?.(absent, next);
    if (next && hits) i++;
    rows.push(...(yield next && hits ? { levels: [level, next], need, hits: hitsAfter(hits, null, need) } : { levels: [level], need }));
    if (rows.length > request.limit) break;
  }
  return rows;
}

/** levelRows on SQLite: the probe (unless this connection probed the same request at this data version) and every level, in one transaction. */
function sqliteLevelRows(sqlite: BetterSqlite3.Database, scope: SearchScope, request: SearchRequest, read: ReadOptions): SearchRow[] {
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
    // The levels read one snapshot: an index query's candidates read for one level hold for the next.
    const shared = {};
    while (!step.done) step = reads.next(sqliteRows(sqlite, compileRead(sqlite, 'sqlite', scope, request, { ...options, levels: step.value }, shared)));
    return step.value;
  };
  return sqlite.inTransaction ? all() : sqlite.transaction(all)();
}

/**
 * The rows of a `levels` plan (search-plan.ts), read in one snapshot: first which fuzzy trigrams
 * no record holds (gram-presence.ts, when a fuzzy node scores), then level by level from the best
 * that can hold a row (plan-levels.ts), so that levels no page reaches cost nothing, neither a
 * plan nor a candidate list. The snapshot makes the levels one answer: no record is seen on two
 * levels or on none by a write between two statements, and no gram the probe found absent is in
 * a row the levels test. SQLite reads in a transaction (its statements run synchronously, so
 * nothing else uses the connection in between); PostgreSQL, when it probes, in a REPEATABLE READ
 * READ ONLY transaction on a connection of the pool (the answer does not wait for its COMMIT). With nothing to probe (no fuzzy node), or
 * given a lone PostgreSQL client (which may be in a transaction of its caller's, and then nothing
 * is probed), PostgreSQL reads every level in one statement: each statement costs a round trip
 * and a plan, and a transaction two more round trips, where SQLite's cost about nothing. When
 * PostgreSQL probed the same request on the pool before, it takes what that probe found as a
 * guess: the first level's statement is shaped by it and checks it in its own snapshot (guarded),
 * reading nothing when it fails, and only then is the probe run (a write since that brought or
 * took a gram): a statement fewer a search. Its statements are compiled once per query and kept
 * (pg-level-compiles.ts). SQLite
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
  if (dialect === 'sqlite') return sqliteLevelRows(db as BetterSqlite3.Database, scope, request, read);
  // Nothing to probe, or a lone client: every level in one statement (it is one snapshot), read as far as the page needs.
  const probes = scoringNodes(request.filter).some((node) => node.op === 'fuzzy');
  if (!probes || !('totalCount' in db)) return postgresRows(db as pg.Pool | pg.PoolClient | pg.Client, compileRead(db, dialect, scope, request, read));
  const pool = db as pg.Pool;
  const client = await checkOut(pool);
  let broken: Error | undefined;
  let committing = false;
  try {
    // The snapshot is taken here, and named: a level's hits kept for it hold for the whole read (pg-level-lists.ts).
    const begun = (await client.query(`${BEGIN}; SELECT pg_current_snapshot()::text AS snapshot`)) as unknown as Array<pg.QueryResult<{ snapshot?: unknown }>>;
    const named = begun[2]?.rows[0]?.snapshot;
    const snapshot = typeof named === 'string' && named !== '' ? named : undefined;
    const termShares = await commonTerms(db, client);
    const reader = { client, pool, snapshot, termShares, scope, request, read };
    // Written only when needed: a kept statement that checks a guess needs no probe of its own (pg-level-compiles.ts).
    let written: PresenceProbe | undefined;
    // A fuzzy node scores (probes), so there is a probe.
    const probe = () => (written ??= presenceProbe(postgresDialect, scope, request, termShares.shares) as PresenceProbe);
    let absent = knownAbsent(pool, scope, request, GUESS);
    const kept = keptHitsOf(reader);
    let reads = levelReads(request, absent, kept);
    let step = reads.next();
    let first: SearchRow[] | undefined;
    if (absent && !step.done) {
      // The grams this request's last probe found absent, checked by its first level's statement in its own snapshot: one statement fewer.
      const guessed = absent;
      const guard = { key: 'guessed', wrap: (compiled: CompiledSearch) => guarded(compiled, (params) => probe().guard(params, guessed)) };
      first = await levelReaderRows(reader, guessed, step.value, guard);
    }
    if (first === undefined) {
      const { sql, params, absent: found } = probe();
      absent = found((await client.query<Record<string, unknown>>(sql, params)).rows[0]);
      rememberAbsent(pool, scope, request, absent, GUESS);
      reads = levelReads(request, absent, kept);
      step = reads.next();
    }
    if (first !== undefined && !step.done) step = reads.next(first);
    while (!step.done) step = reads.next((await levelReaderRows(reader, absent, step.value)) as SearchRow[]);
    // Every row is read: the answer waits for no COMMIT (a round trip, 0.3 to 0.6 ms under load at
    // 100k records), which ends a read-only transaction and cannot change what it read. The
    // connection goes back to the pool once the COMMIT is done, and is dropped if it fails.
    committing = true;
    client.query('COMMIT').then(
      () => checkIn(client),
      (error: unknown) => checkIn(client, error instanceof Error ? error : new Error(String(error))),
    );
    return step.value;
  } catch (error) {
    // A connection that cannot even roll back is not handed to the next caller.
    await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
    throw error;
  } finally {
    if (!committing) checkIn(client, broken);
  }
}

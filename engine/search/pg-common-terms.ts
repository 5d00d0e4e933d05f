import type pg from 'pg';
import { RECORD_TABLE } from '../store/index.js';

/** How long the common terms read from the statistics are used before they are read again. */
const KEEP_MS = 60_000;

const read = new WeakMap<object, { at: number; terms: Promise<ReadonlySet<string>> }>();

/**
 * The text index terms PostgreSQL's statistics list as the most common of the record table's
 * trigram column (pg_stats most_common_elems, from the last ANALYZE), per pool, read at most once
 * a minute. Why: the presence probe (gram-presence.ts) must read the index for a term no row may
 * hold, or the planner, which takes a term missing from these statistics for a rare one, may scan
 * the table for it and meet no row (at 1,000,000 records, seconds per term); and a common term's
 * posting list is long (140,000 rows at 1,000,000 records), so it is not asked: a term listed here
 * is held by some row, or was at the last ANALYZE, which only makes a level read that finds
 * nothing. Empty before the first ANALYZE.
 */
export function commonTerms(pool: object, client: pg.PoolClient): Promise<ReadonlySet<string>> {
  const known = read.get(pool);
  if (known && Date.now() - known.at < KEEP_MS) return known.terms;
  const terms = client
    .query<{ terms: string[] | null }>(
      `SELECT most_common_elems::text::text[] AS terms FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1 AND attname = 'search_trigrams'`,
      [RECORD_TABLE],
    )
    .then((result) => new Set(result.rows[0]?.terms ?? []));
  read.set(pool, { at: Date.now(), terms });
  // A failed read is not kept: the next search reads again.
  terms.catch(() => read.delete(pool));
  return terms;
}

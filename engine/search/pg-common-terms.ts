import type pg from 'pg';
import { RECORD_TABLE } from '../store/index.js';
import type { TermShares } from './sql-dialect.js';

/** How long the common terms read from the statistics are used before they are read again. */
const KEEP_MS = 60_000;

const read = new WeakMap<object, { at: number; terms: Promise<TermShares> }>();

/**
 * The text index terms PostgreSQL's statistics list as the most common of the record table's
 * trigram column (pg_stats most_common_elems, from the last ANALYZE), with the share of rows
 * holding each, per pool, read at most once a minute. Why: the presence probe (gram-presence.ts)
 * must read the index for a term no row may hold, or the planner, which takes a term missing from
 * these statistics for a rare one, may scan the table for it and meet no row (at 1,000,000
 * records, seconds per term); and a common term's posting list is long (140,000 rows at 1,000,000
 * records), so it is not asked: a term listed here is held by some row, or was at the last
 * ANALYZE, which only makes a level read that finds nothing. The shares bound how many rows a
 * score level's index query can name (plan-levels.ts). Empty before the first ANALYZE, and a term
 * not listed may then be held by every row.
 */
export function commonTerms(pool: object, client: pg.PoolClient): Promise<TermShares> {
  const known = read.get(pool);
  if (known && Date.now() - known.at < KEEP_MS) return known.terms;
  const terms = client
    .query<{ terms: string[] | null; shares: number[] | null }>(
      `SELECT most_common_elems::text::text[] AS terms, most_common_elem_freqs AS shares FROM pg_stats WHERE schemaname = current_schema() AND tablename = $1 AND attname = 'search_trigrams'`,
      [RECORD_TABLE],
    )
    .then(({ rows: [row] }) => {
      const listed = row?.terms ?? [];
      // most_common_elem_freqs holds one share per term, then the least and the greatest of them and the share of NULLs.
      const shares = row?.shares ?? [];
      return { shares: new Map(listed.map((term, i) => [term, shares[i] ?? 1])), rest: listed.length > 0 ? (shares[listed.length] ?? 1) : 1 };
    });
  read.set(pool, { at: Date.now(), terms });
  // A failed read is not kept: the next search reads again.
  terms.catch(() => read.delete(pool));
  return terms;
}

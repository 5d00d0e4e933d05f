import { KeptPerOwner } from './kept-per-owner.js';
import type { SearchRow } from './search-rows.js';
import { compareCodePoints } from './text-match.js';

/** Most levels' hits a pool keeps (the least recently used go first): at most LEVEL_HITS_MOST ids each (plan-level-hits.ts). */
const KEPT = 16;

/**
 * How long a pool remembers that a level has more candidates than are worth reading, whatever the
 * snapshot: the read that finds it out costs that bounded read, and the level's size changes
 * little from one write to the next. A stale verdict costs no exactness: the level is walked.
 */
const MANY_KEPT_MS = 300_000;

/** What a pool knows of a level: its hits in id order at a snapshot, that a page read it there without them ('seen'), or that it has too many. */
type Kept = { snapshot: string; found: readonly string[] | 'seen' } | { until: number; found: 'many' };

const kept = new KeptPerOwner<Kept>(KEPT);

/** One statement's read of a listable level (CompiledSearch.listable) in a PostgreSQL levels read (run-levels.ts). */
export interface ListedLevelRead {
  /** The pool: lists are kept per pool (a database). */
  owner: object;
  /** The read's snapshot, as pg_current_snapshot() names it in its REPEATABLE READ transaction. */
  snapshot: string;
  /** Everything the level's hits follow from but the data: scope, filter, level, absent grams. */
  key: string;
  /** The cursor's id when the page starts inside the level, else null. */
  after: string | null;
  /** The rows the statement needs of the level. */
  need: number;
  /** Runs the level's statement: as compiled, or reading the given hits instead; undefined when a guess it checks failed (run-levels.ts). */
  rows(hits?: readonly string[]): Promise<SearchRow[] | undefined>;
  /** Reads the level's hits in id order (plan-level-hits.ts), or finds they are too many; undefined when a guess it checks failed. */
  readHits(): Promise<readonly string[] | 'many' | undefined>;
}

/**
 * The rows of a listable score level, from its hits kept in id order when this pool read them in
 * the very snapshot this read has. Why: a deep page inside a sparse level otherwise walks every row
 * between its hits (at 100,000 records, scripts/bench-search.ts, the page after 1,000 hits of
 * "quartrly reprot" walks 5,549 rows for 101, 5 to 8 ms), where its hits are 101 lookups by
 * primary key. Two REPEATABLE READ snapshots that pg_current_snapshot() names alike (the same xmax
 * and transactions in progress) see the same committed transactions, hence the same rows: no write
 * anywhere in the cluster committed between them, so the hits read in one are the other's. As on
 * SQLite (sqlite-level-lists.ts), a level is read in full only on its second read at a snapshot:
 * with writes between pages (a sync) every page is the first at its snapshot, and the read (10 to
 * 20 ms at 100,000 records) would be lost.
 */
export async function listedLevelRows(read: ListedLevelRead): Promise<SearchRow[] | undefined> {
  const { owner, snapshot, key } = read;
  const known = kept.get(owner, key);
  if (known?.found === 'many' && 'until' in known && known.until > Date.now()) return read.rows();
  let hits = known && 'snapshot' in known && known.snapshot === snapshot ? known.found : undefined;
  if (hits === undefined) {
    kept.set(owner, key, { snapshot, found: 'seen' });
    return read.rows();
  }
  if (hits === 'seen') {
    const found = await read.readHits();
    if (found === undefined) return undefined;
    if (found === 'many') {
      kept.set(owner, key, { until: Date.now() + MANY_KEPT_MS, found });
      return read.rows();
    }
    hits = found;
  }
  kept.set(owner, key, { snapshot, found: hits });
  return read.rows(hitsAfter(hits, read.after, read.need));
}

/** The hits `owner` keeps of a level (by its key) for this very snapshot, if it read them there. */
export function keptHits(owner: object, key: string, snapshot: string): readonly string[] | undefined {
  const known = kept.get(owner, key);
  return known && 'snapshot' in known && known.snapshot === snapshot && typeof known.found !== 'string' ? known.found : undefined;
}

/** The first `need` of `hits` (ids in id order) after `after` (from the first for null): the rows a page takes from the level. */
export function hitsAfter(hits: readonly string[], after: string | null, need: number): readonly string[] {
  let low = 0;
  let high = after === null ? 0 : hits.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareCodePoints(hits[middle] as string, after as string) <= 0) low = middle + 1;
    else high = middle;
  }
  return hits.slice(low, low + need);
}

/** The level's hits out of the one row of its read (compileLevelHits): undefined for none (a guess failed), 'many' past the most worth reading. */
export function foundHits(rows: readonly SearchRow[] | undefined): readonly string[] | 'many' | undefined {
  const row = rows?.[0];
  if (!row) return undefined;
  const [candidates, most, ids] = row as [number, number, string[]];
  return candidates > most ? 'many' : ids;
}

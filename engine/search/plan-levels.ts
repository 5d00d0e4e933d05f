import { asksTextIndex, compileFilter } from './compile-filter.js';
import { boundCandidates } from './bound-candidates.js';
import { foldFilter } from './fold-filter.js';
import { fuzzyGate } from './fuzzy-gate.js';
import { carriedColumn, carriedPage } from './plan-carried.js';
import { drivenRows, drivenTable, drivingNodes } from './plan-driven.js';
import { joinPlanned, orderBy } from './plan-sql.js';
import { levelHitRows } from './plan-level-hits.js';
import { idOrderedRows, type WindowOptions } from './plan-window.js';
import { seqsAfter, type IdOrderedList } from './sqlite-level-lists.js';
import type { KeyRange } from './key-range.js';
import { keyRangeRows } from './plan-key-range.js';
import type { ScoreLevel } from './score-levels.js';
import type { TextNode } from './scoring-nodes.js';
import type { IndexQuery } from './index-query.js';
import type { CompileContext, TermShares } from './sql-dialect.js';
import { matchingCount, textIndexQuery, textPrefilter } from './text-sql.js';
import type { FilterNode, SearchRequest } from './types.js';

/**
 * Whether the index can name a fuzzy count of `count` only loosely: as "k of n" parts rather than
 * trigrams that must all be there. Such a query costs a posting list read per trigram it names,
 * and over a common word's trigrams it names most rows (at 100,000 records, scripts/bench-search.ts,
 * "8 of 9" leaves 4,083 candidates for 2,492 rows), so its rows are better met in id order.
 */
function loose(node: TextNode, count: number, ctx: CompileContext): boolean {
  if (node.op !== 'fuzzy' || count <= 0) return false;
  const { query } = textIndexQuery(node, ctx, count);
  return typeof query === 'object' && 'op' in query && query.op === 'or';
}

/**
 * "This text node's count is exactly `count`": the index for at least that many, then the exact
 * count (behind a fuzzy gate, fuzzy-gate.ts). A loose fuzzy count (see loose) asks no index where
 * rows are tested in id order, and is not read ahead (sqlite-index-lists.ts) for the rows past
 * them: a page met in id order never reads it.
 */
function countIs(node: TextNode, count: number, ctx: CompileContext): string {
  const exact = `(${ctx.d.textCount(node, ctx, fuzzyGate(node, count, ctx))}) = ${count}`;
  if (count <= 0) return exact;
  // A row read in id order meets a cheaper test first where the dialect has one (SqlDialect.textGate).
  const gate = ctx.probe ? ctx.d.textGate?.(node, count, ctx) : undefined;
  if (gate) return `(${gate} AND ${exact})`;
  const isLoose = loose(node, count, ctx);
  if (isLoose && ctx.probe) return exact;
  const { lists: _lists, ...unlisted } = ctx;
  const prefilter = textPrefilter(node, isLoose ? unlisted : ctx, count);
  return prefilter ? `(${prefilter} AND ${exact})` : exact;
}

/**
 * The filter of one level, per group of its combinations of counts: the filter folded with each
 * text node's match fixed by its count (a node matches when its count reaches matchingCount), so
 * the rows a level reads skip the branches that cannot matter there. Combinations whose folded
 * filters are the same share one; those that cannot match at all are left out (none left: the
 * level is empty).
 */
function levelGroups(filter: FilterNode, scoring: readonly TextNode[], counts: readonly number[][]): Array<{ rest: FilterNode | true; counts: number[][] }> {
  const groups = new Map<string, { rest: FilterNode | true; counts: number[][] }>();
  for (const combination of counts) {
    const known = new Map<FilterNode, boolean>(scoring.map((node, j) => [node, (combination[j] as number) >= matchingCount(node)]));
    const rest = foldFilter(filter, known);
    if (rest === false) continue;
    const key = JSON.stringify(rest);
    const group = groups.get(key);
    if (group) group.counts.push(combination);
    else groups.set(key, { rest, counts: [combination] });
  }
  return [...groups.values()];
}

/** The most of the table's rows an index query can name, by its terms' shares (pg-common-terms.ts): the least of an AND's, the sum of an OR's. */
function queryShare(query: IndexQuery, shares: TermShares): number {
  if (typeof query === 'boolean') return query ? 1 : 0;
  if ('term' in query) return shares.shares.get(query.term) ?? shares.rest;
  const parts = query.items.map((item) => queryShare(item, shares));
  return query.op === 'and'
    ? Math.min(...parts)
    : Math.min(
        1,
        parts.reduce((sum, part) => sum + part, 0),
      );
}

/**
 * The index test every row of a level passes (plan-window.ts WindowOptions.narrow): for each
 * combination of counts, every count's index query; undefined when some combination asks the
 * index nothing (a count of 0 of a node not every hit must match). `listed`: every query's
 * candidates are read ahead already (sqliteDialect.indexListed). `share`: the most of the table's
 * rows the test can pass, by the statistics (1 without them).
 */
export function levelIndex(
  level: ScoreLevel,
  scoring: readonly TextNode[],
  ctx: CompileContext,
): { narrow: (inner: CompileContext) => string; listed: boolean; share: number } | undefined {
  const asks = level.counts.map((counts) =>
    counts.flatMap((count, j) => {
      const node = scoring[j] as TextNode;
      if (count <= 0) return [];
      const { space, query } = textIndexQuery(node, ctx, count);
      return query === true ? [] : [{ node, count, space, query }];
    }),
  );
  if (asks.some((combination) => combination.length === 0)) return undefined;
  const listed = asks.every((combination) => combination.every(({ node, space, query }) => ctx.d.indexListed(node.field, space, query, ctx)));
  const narrow = (inner: CompileContext) => {
    const { lists: _lists, ...unlisted } = inner;
    const tests = asks.map((combination) =>
      combination.map(({ node, count }) => textPrefilter(node, loose(node, count, inner) ? unlisted : inner, count) as string).join(' AND '),
    );
    return `(${tests.map((test) => `(${test})`).join(' OR ')})`;
  };
  const shares = ctx.termShares;
  const share = shares
    ? Math.min(
        1,
        asks.reduce((sum, combination) => sum + Math.min(...combination.map(({ query }) => queryShare(query, shares))), 0),
      )
    : 1;
  return { narrow, listed, share };
}

/**
 * Rows of a level read in id order before the index is asked (plan-window.ts): by default enough
 * for a page when a few percent of rows pass. A fuzzy level the index names exactly (all of some
 * trigrams) asks it after fewer, about 10 per row wanted: its rows are few where it is not a common
 * word (a misspelt query's best level), and each row read costs as much as an index candidate. A
 * loose one (see loose) reads many more: at 100,000 records, reading 10,000 rows costs about what
 * the index query alone costs over a common word's trigrams.
 */
function levelWindow(level: ScoreLevel, scoring: readonly TextNode[], need: number, ctx: CompileContext): number | undefined {
  if (ctx.levelWindowRows !== undefined) return ctx.levelWindowRows;
  const fuzzy = level.counts.flatMap((counts) => counts.flatMap((count, j) => (scoring[j]?.op === 'fuzzy' ? [loose(scoring[j] as TextNode, count, ctx)] : [])));
  if (fuzzy.length === 0) return undefined;
  return fuzzy.some(Boolean) ? Math.max(10_000, 100 * need) : Math.max(1_000, 10 * need);
}

/** How a level's rows are read in id order (plan-window.ts): its window, its kept list, and the index test past it. */
function windowOptions(
  level: ScoreLevel,
  scoring: readonly TextNode[],
  need: number,
  candidates: readonly number[] | null,
  after: string | null,
  ctx: CompileContext,
): WindowOptions {
  const index = levelIndex(level, scoring, ctx);
  const windowSize = levelWindow(level, scoring, need, ctx);
  // Where fewer rows than the window would need to fill the page hold the level's index terms, the window cannot fill it: the index at once.
  // A window the tests set is kept, and one of 0 rows is none.
  const forced = ctx.levelWindowRows;
  const few = forced === undefined ? windowSize !== undefined && (index?.share ?? 1) * windowSize < need : forced === 0;
  const nearless = index !== undefined && (index.listed || few);
  const listed = levelList(level, scoring, ctx, need);
  return {
    candidates,
    ...(listed ? { idOrdered: seqsAfter(listed, after) } : {}),
    // A level of no window of its own walks as far as its density found near the start says a page needs (plan-walk.ts), as a keyed read does:
    // a fixed window then the index read every candidate of a sparse level past the window (at 1,000,000 records, scripts/bench-search.ts,
    // the deep page by score met 76 of its 101 rows in 5,000 rows, then read the level's 14,108 candidates for the other 25: 150 ms).
    walk: windowSize === undefined && forced === undefined,
    // A level with no window of its own shrinks it on a small table (plan-window.ts windowLimit); a window of 0 rows (tests) is one row where the index cannot be asked.
    ...(windowSize === undefined ? { scaled: true } : { windowSize: Math.max(1, windowSize) }),
    ...(index ? { narrow: index.narrow, nearless } : {}),
  };
}

/**
 * The kept keys range a level reads instead of its rows in id order: the range of a scoring
 * `like`'s prefix (like-prefix.ts scoringPrefix, found small enough by range-keys.ts) when the
 * level's every combination of counts has that `like` match, so every row of the level is in it.
 * Its keys are sorted by id and each record tested with the level's filter (plan-key-range.ts): a
 * page costs the range's keys and the page's lookups, not the records walked between its rows.
 */
function levelRange(level: ScoreLevel, scoring: readonly TextNode[], ctx: CompileContext): KeyRange | undefined {
  const range = ctx.keyRange;
  const j = range?.like ? scoring.indexOf(range.like) : -1;
  if (j < 0) return undefined;
  return level.counts.every((counts) => (counts[j] as number) >= matchingCount(scoring[j] as TextNode)) ? range : undefined;
}

/**
 * The candidates of a loose level (see loose) in id order, when the dialect keeps them
 * (SqlDialect.levelList: SQLite, per data version): for a level of one combination of counts with
 * one index query, the only kind whose rows are met in id order at a cost per row however few of
 * them hit. A page of the level then tests about its own rows' candidates instead of every row
 * between them (at 100,000 records, scripts/bench-search.ts, 101 hits among 5,400 rows, or among
 * about 170 of the 4,083 candidates). `readFor` (the rows a page needs): a list not known yet is
 * read for the next compile, from the level's second read at a data version on (the first notes
 * it). A page that goes on into the level from its first row asks too: where the levels above
 * leave a page short and the loose level is sparse, its window walks as far as a deep page's (at
 * 10,000 records, "quartrly reprot": 1,893 rows for the 36 the first page needs, 5.4 ms; from
 * the list 1.7 ms). A common level costs a bounded read once a version, then is kept as 'many'.
 */
function levelList(level: ScoreLevel, scoring: readonly TextNode[], ctx: CompileContext, readFor: number | undefined): IdOrderedList | undefined {
  const ask = ctx.d.levelList ? looseAsk(level, scoring, ctx) : undefined;
  if (!ask || !ctx.d.levelList) return undefined;
  const { space, query } = textIndexQuery(ask.node, ctx, ask.count);
  return ctx.d.levelList(ask.node.field, space, query, ctx, readFor);
}

/** The one text count a level of one combination asks the index for, when that is a loose fuzzy count (see loose): the levels kept as lists. */
function looseAsk(level: ScoreLevel, scoring: readonly TextNode[], ctx: CompileContext): { node: TextNode; count: number } | undefined {
  if (level.counts.length !== 1) return undefined;
  const asks = (level.counts[0] as number[]).flatMap((count, j) => (count > 0 ? [{ node: scoring[j] as TextNode, count }] : []));
  const [ask] = asks;
  return asks.length === 1 && ask && loose(ask.node, ask.count, ctx) ? ask : undefined;
}

/**
 * Whether a PostgreSQL statement of this one level may read its rows from the level's hits kept in
 * id order for the snapshot it reads (pg-level-lists.ts): a loose level (looseAsk), whose deep
 * pages otherwise walk every row between their hits (at 100,000 records, scripts/bench-search.ts,
 * the page after 1,000 fuzzy hits walks 5,549 rows for its 101), read through the level's index
 * test (levelIndex), not empty (levelFilter), and not driven by an equality (plan-driven.ts), whose read is its own.
 */
export function levelListable(request: SearchRequest, scoring: readonly TextNode[], level: ScoreLevel, ctx: CompileContext): boolean {
  if (!ctx.d.windowAsSubquery || !asksTextIndex(request.filter, ctx.d) || drivingNodes(request.filter).length > 0) return false;
  if (!request.filter || !levelFilter(request.filter, scoring, level)) return false;
  return looseAsk(level, scoring, ctx) !== undefined && levelIndex(level, scoring, ctx) !== undefined;
}

/**
 * A level's exact test, per group of its combinations of counts (levelGroups), over the record row
 * `r`; undefined when no combination can match (the level is empty).
 */
export function levelFilter(filter: FilterNode, scoring: readonly TextNode[], level: ScoreLevel): ((inner: CompileContext) => string) | undefined {
  const groups = levelGroups(filter, scoring, level.counts);
  if (groups.length === 0) return undefined;
  return (inner: CompileContext) => {
    const tests = groups.map(({ rest, counts: group }) => {
      const counted = group.map((combination) => `(${combination.map((count, j) => countIs(scoring[j] as TextNode, count, inner)).join(' AND ')})`);
      return rest === true ? `(${counted.join(' OR ')})` : `((${counted.join(' OR ')}) AND ${compileFilter(rest, inner)})`;
    });
    return `(${tests.join(' OR ')})`;
  };
}

/**
 * The `levels` plan: one branch per score a hit can have (score-levels.ts; all of them, or one per
 * statement, run-levels.ts), best first, each the level's rows in id order read through the
 * id-ordered window (plan-window.ts; on PostgreSQL, a level with no window of its own walks as far
 * as its density says, plan-walk.ts): the level's combinations of counts, then the filter as that
 * level folds it (levelGroups). The counts come first: a text count rules out most rows at the cost
 * of one test. UNION ALL runs the branches in order and
 * stops once `need` rows are found (the page and one more), so a page costs about what its rows
 * cost, however deep the cursor. The score is a literal per level, so a cursor's score names its
 * level exactly.
 */
export function levelsSql(request: SearchRequest, scoring: readonly TextNode[], levels: readonly ScoreLevel[], need: number, ctx: CompileContext): string {
  const { d, params } = ctx;
  const [cursorScore, cursorId] = (request.cursor ?? []) as [number?, string?];
  // The scoring nodes are text operators, so the filter asks a text index.
  const split = asksTextIndex(request.filter, d);
  // Every level's hits pass the request's filter, so its bound candidates hold them all.
  const candidates = boundCandidates(request.filter, ctx);
  // PostgreSQL's levels carry their rows' data (plan-carried.ts): a page of a level is read in id order, or sorted by id as candidates before their rows are read.
  const carried = split && d.windowAsSubquery;
  const data = carried ? carriedColumn(ctx) : '';
  // PostgreSQL has no read-ahead lists: a string equality every hit passes drives each level when it names few records (plan-driven.ts).
  const driving = carried ? drivingNodes(request.filter) : [];
  const drive = driving.length > 0 ? drivenTable(driving, ctx) : '';
  const branches: string[] = [];
  for (const level of levels) {
    const { score } = level;
    if (cursorScore !== undefined && score > cursorScore) continue;
    const filter = levelFilter(request.filter as FilterNode, scoring, level);
    if (!filter) continue;
    const start = { after: cursorScore === score ? (cursorId as string) : null };
    const select = `${d.rowRef} AS ref, ${d.keyParam('score', score, ctx)} AS k0, r.id AS k1${data}`;
    // A carried page (PostgreSQL) reads no kept range: its branches must all carry the data column.
    const range = carried ? undefined : levelRange(level, scoring, ctx);
    // The last level's hits after the cursor, kept for the snapshot the statement reads (pg-level-lists.ts), stand for its read.
    const hits = ctx.levelHits && level === levels[levels.length - 1] && levelListable(request, scoring, level, ctx) ? ctx.levelHits : undefined;
    const rows = hits
      ? levelHitRows(ctx, select, hits)
      : range
        ? keyRangeRows(ctx, need - 1, select, filter, start, range)
        : idOrderedRows(ctx, need - 1, select, filter, start, split, windowOptions(level, scoring, need, candidates, start.after, ctx));
    const read = drive ? drivenRows(ctx, need - 1, select, filter, start, rows) : rows;
    const alias = `l${branches.length}`;
    // A range read value by value carries one column more (plan-key-range.ts): the union takes the three every branch has.
    branches.push(`SELECT ${range ? `${alias}.ref, ${alias}.k0, ${alias}.k1` : '*'} FROM (${read}) AS ${alias}`);
  }
  const planned =
    branches.length === 0
      ? `SELECT ${d.rowRef} AS ref, ${d.keyParam('score', 0, ctx)} AS k0, r.id AS k1${data} FROM ${d.table} AS r WHERE 1 = 0`
      : `SELECT * FROM (${branches.join(' UNION ALL ')}) AS u LIMIT ${params.add(need)}`;
  const order = orderBy(
    [
      { slot: 'score', expression: 'q.k0', direction: 'desc' },
      { slot: 'id', expression: 'q.k1', direction: 'asc' },
    ],
    ctx,
  );
  return carried ? `${drive}${carriedPage(planned, ['score', 'id'], order, 'q.k0')}` : joinPlanned(planned, ['score', 'id'], order, ctx, 'q.k0');
}

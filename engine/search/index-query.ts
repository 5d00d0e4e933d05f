/**
 * Boolean queries over index terms (FTS5 tokens, pg_trgm trigrams), the shape both text indexes
 * can answer in one pass: terms joined by AND and OR. `true` means "the index cannot narrow this
 * down" (every row may match), `false` means "no row can match". Rows an index query accepts are
 * always a superset of the rows the exact test accepts; the exact test then decides.
 */
export type IndexQuery = boolean | { readonly term: string } | { readonly op: 'and' | 'or'; readonly items: readonly IndexQuery[] };

/** One index term. */
export const term = (text: string): IndexQuery => ({ term: text });

/** All of the queries; flattened, `true` dropped, `false` absorbing. */
export function allOf(queries: readonly IndexQuery[]): IndexQuery {
  return combine('and', queries);
}

/** Any of the queries; flattened, `false` dropped, `true` absorbing. */
export function anyOf(queries: readonly IndexQuery[]): IndexQuery {
  return combine('or', queries);
}

function combine(op: 'and' | 'or', queries: readonly IndexQuery[]): IndexQuery {
  const neutral = op === 'and';
  const items: IndexQuery[] = [];
  const seen = new Set<string>();
  for (const query of queries) {
    if (query === neutral) continue;
    if (query === !neutral) return !neutral;
    for (const item of typeof query === 'object' && 'op' in query && query.op === op ? query.items : [query]) {
      const key = JSON.stringify(item);
      if (!seen.has(key)) {
        seen.add(key);
        items.push(item);
      }
    }
  }
  if (items.length === 0) return neutral;
  return items.length === 1 ? (items[0] as IndexQuery) : { op, items };
}

/** How many sub-queries of "k of n" the planner may write before it settles for a weaker form (at least n are always allowed). */
const MAX_COMBINATIONS = 64;

/**
 * A query true for every row that holds at least `k` of the `units` (each unit itself an index
 * query: one term, or several that must all be present). Exact when the combinations are few
 * (any k of them, spelled out); otherwise a weaker form that is still a superset, by pigeonhole:
 * split the units into groups and give group j a threshold t_j with sum(t_j - 1) <= k - 1. A row
 * short of t_j in every group holds at most k - 1 units, so a row with k units reaches t_j in some
 * group. Fewer, larger groups are more selective; the planner takes the fewest that stay within
 * the budget (64 sub-queries, or one per unit when there are more units). Units are dealt round-robin, so the units of one group lie far apart in the text
 * (a common word's trigrams rarely fill a whole group together).
 *
 * With `maxUnits`, the budget is the units the query names in all (each sub-query names
 * t_j): what an index pays for, one posting list read per unit named, whatever the others hold.
 */
export function atLeast(units: readonly IndexQuery[], k: number, maxUnits?: number): IndexQuery {
  const open = units.filter((unit) => unit !== true && unit !== false);
  const certain = units.filter((unit) => unit === true).length;
  const need = k - certain;
  if (need <= 0) return true;
  if (need > open.length) return false;
  const budget = maxUnits ?? Math.max(MAX_COMBINATIONS, open.length);
  for (let groups = 1; groups <= open.length; groups++) {
    const split = dealGroups(open, groups);
    const thresholds = groupThresholds(
      split.map((group) => group.length),
      need,
    );
    const cost = split.reduce(
      (sum, group, j) => sum + binomial(group.length, thresholds[j] as number) * (maxUnits === undefined ? 1 : (thresholds[j] as number)),
      0,
    );
    if (cost <= budget || groups === open.length) {
      return anyOf(split.flatMap((group, j) => subsets(group, thresholds[j] as number).map(allOf)));
    }
  }
  return true;
}

function dealGroups<T>(items: readonly T[], count: number): T[][] {
  const groups: T[][] = Array.from({ length: count }, () => []);
  items.forEach((item, i) => (groups[i % count] as T[]).push(item));
  return groups;
}

/** Thresholds with sum(t - 1) = need - 1, shared in proportion to group size, each at most its size. */
function groupThresholds(sizes: readonly number[], need: number): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const extra = need - 1;
  const thresholds = sizes.map((size) => 1 + Math.min(size - 1, Math.floor((extra * size) / total)));
  let left = extra - thresholds.reduce((sum, t) => sum + t - 1, 0);
  for (let j = 0; left > 0 && j < sizes.length; j = (j + 1) % sizes.length) {
    if ((thresholds[j] as number) < (sizes[j] as number)) {
      thresholds[j] = (thresholds[j] as number) + 1;
      left--;
    } else if (thresholds.every((t, i) => t >= (sizes[i] as number))) {
      break;
    }
  }
  return thresholds;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

function subsets<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  if (items.length < size) return [];
  const [head, ...tail] = items as [T, ...T[]];
  return [...subsets(tail, size - 1).map((rest) => [head, ...rest]), ...subsets(tail, size)];
}

/**
 * Writes a query in an index's syntax: `quote` turns one term into a literal, and the operators
 * are the index's own words. Never called with `true` or `false` (callers skip the index then).
 */
export function renderIndexQuery(query: IndexQuery, quote: (term: string) => string, and: string, or: string): string {
  if (typeof query === 'boolean') throw new TypeError('a constant index query has no text form');
  if ('term' in query) return quote(query.term);
  const joined = query.items.map((item) => renderIndexQuery(item, quote, and, or)).join(query.op === 'and' ? and : or);
  return `(${joined})`;
}

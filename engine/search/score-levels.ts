import type { AbsentGrams } from './sql-dialect.js';
import type { TextNode } from './scoring-nodes.js';
import { countAtMost, countOutOf, matchingCount } from './text-sql.js';
import type { FilterNode } from './types.js';

/** Most combinations of text counts a query may have for its scores to be read level by level. */
const MAX_COMBINATIONS = 64;

/** One score a hit can have, and every combination of text counts (one per scoring node) that gives it. */
export interface ScoreLevel {
  score: number;
  counts: number[][];
}

/** The least count of a node's hits: its matching count when every hit must match it, else 0. */
const leastCount = (node: TextNode, required: ReadonlySet<FilterNode>) => (required.has(node) ? matchingCount(node) : 0);

/**
 * Whether a query's scores are few enough to be read level by level: at most 64 combinations of
 * text counts, counted over every count the query allows (like 0 or 1, keyword 0..words, fuzzy
 * 0..trigrams, a node every hit must match from its matching count), so that the answer follows
 * from the request alone.
 */
export function fewLevels(scoring: readonly TextNode[], required: ReadonlySet<FilterNode>): boolean {
  let combinations = 1;
  for (const node of scoring) combinations *= countOutOf(node) - leastCount(node, required) + 1;
  return combinations <= MAX_COMBINATIONS;
}

/**
 * The scores a query's hits can have, best first, and the combinations of text counts that give
 * each. A fuzzy node's counts stop at its trigrams that some record holds (`absent`,
 * gram-presence.ts): the levels above are empty, and usually most of them are (a misspelt query's
 * own trigrams are rarely all found), so they are not read at all.
 *
 * A level's score is computed exactly as the evaluator and the `ranked` plan compute it (each
 * share count / outOf in floating point, their sum divided by the node count), and combinations
 * are grouped by that value: hits of one level are then ordered by id, as the evaluator orders
 * hits of equal score, and a cursor's score names its level exactly.
 */
export function scoreLevels(scoring: readonly TextNode[], required: ReadonlySet<FilterNode>, absent?: AbsentGrams): ScoreLevel[] {
  let combinations: number[][] = [[]];
  for (const node of scoring) {
    const next: number[][] = [];
    for (const head of combinations) for (let count = leastCount(node, required); count <= countAtMost(node, absent); count++) next.push([...head, count]);
    combinations = next;
  }
  const levels = new Map<number, number[][]>();
  for (const counts of combinations) {
    const shares = counts.map((count, j) => count / countOutOf(scoring[j] as TextNode));
    const score = shares.length === 1 ? (shares[0] as number) : shares.reduce((sum, share) => sum + share, 0) / shares.length;
    levels.set(score, [...(levels.get(score) ?? []), counts]);
  }
  return [...levels.entries()].sort(([a], [b]) => b - a).map(([score, counts]) => ({ score, counts }));
}

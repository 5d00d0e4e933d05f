import type { TextNode } from './scoring-nodes.js';
import { countOutOf, matchingCount } from './text-sql.js';
import type { FilterNode } from './types.js';

/** Most combinations of text counts a query may have for its scores to be read level by level. */
const MAX_COMBINATIONS = 64;

/** One score a hit can have, and every combination of text counts (one per scoring node) that gives it. */
export interface ScoreLevel {
  score: number;
  counts: number[][];
}

/**
 * The scores a query's hits can have, best first, when there are few: every scoring node is a
 * `like` (count 0 or 1) or a `keyword` (0..n words), each node every hit must match starting at
 * its least matching count. Null when there are too many combinations, or a `fuzzy` (its counts
 * run up to its trigram count, and the best levels are usually empty).
 */
export function scoreLevels(scoring: readonly TextNode[], required: ReadonlySet<FilterNode>): ScoreLevel[] | null {
  if (scoring.some((node) => node.op === 'fuzzy')) return null;
  let combinations: number[][] = [[]];
  for (const node of scoring) {
    const from = required.has(node) ? matchingCount(node) : 0;
    const next: number[][] = [];
    for (const head of combinations) for (let count = from; count <= countOutOf(node); count++) next.push([...head, count]);
    if (next.length > MAX_COMBINATIONS) return null;
    combinations = next;
  }
  // Equal scores must share one level (hits of equal score are ordered by id across it), so
  // combinations are grouped by their exact score: sum(count * D / outOf) over a common denominator D.
  const denominator = scoring.reduce((d, node) => lcm(d, countOutOf(node)), 1);
  const levels = new Map<number, number[][]>();
  for (const counts of combinations) {
    const numerator = counts.reduce((sum, count, j) => sum + (count * denominator) / countOutOf(scoring[j] as TextNode), 0);
    levels.set(numerator, [...(levels.get(numerator) ?? []), counts]);
  }
  return [...levels.entries()].sort(([a], [b]) => b - a).map(([numerator, counts]) => ({ score: numerator / denominator / scoring.length, counts }));
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a / gcd(a, b)) * b;
}

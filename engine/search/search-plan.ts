import { andNodes } from './and-nodes.js';
import type { AbsentGrams } from './sql-dialect.js';
import { fewLevels, scoreLevels, type ScoreLevel } from './score-levels.js';
import { scoringNodes, type TextNode } from './scoring-nodes.js';
import type { FilterNode, SearchRequest } from './types.js';

/**
 * How a request is answered, chosen from its shape alone (never from the data), so every page of
 * one query uses the same plan and the same keyset:
 *
 * - `keyed`: an explicit sort, or no text operator, or a score every hit shares (only `like`s
 *   every hit must match, each worth 1). Rows come in key order straight from the record index,
 *   so the first page stops early; the score is computed for the page's rows only.
 * - `levels`: ordered by score where the score can only take a few values (score-levels.ts).
 *   Each level is read in id order, best first, so a page stops as soon as it is full.
 * - `ranked`: any other score order. Text counts are computed once per candidate the indexes
 *   leave, then sorted by score.
 */
export type SearchPlan =
  | { kind: 'keyed'; constantScore: boolean }
  | { kind: 'levels'; scoring: TextNode[]; required: Set<FilterNode>; levels: ScoreLevel[] }
  | { kind: 'ranked'; scoring: TextNode[]; required: Set<FilterNode> };

/** The text nodes every hit must match: those joined to the root by `and` alone. */
export function requiredTextNodes(filter: FilterNode | null): TextNode[] {
  return andNodes(filter).filter((node): node is TextNode => node.op === 'like' || node.op === 'fuzzy' || node.op === 'keyword');
}

/**
 * Picks the plan of a validated request (see SearchPlan). `absent` (gram-presence.ts) only
 * narrows the score levels a `levels` plan reads, never the plan.
 */
export function planSearch(request: SearchRequest, absent?: AbsentGrams): SearchPlan {
  const scoring = scoringNodes(request.filter);
  const required = new Set<FilterNode>(requiredTextNodes(request.filter));
  const allRequired = scoring.every((node) => required.has(node));
  const constantScore = allRequired && scoring.every((node) => node.op === 'like');
  if (request.sort.length > 0 || constantScore) return { kind: 'keyed', constantScore };
  if (!fewLevels(scoring, required)) return { kind: 'ranked', scoring, required };
  return { kind: 'levels', scoring, required, levels: scoreLevels(scoring, required, absent) };
}

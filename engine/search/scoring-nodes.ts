import type { FilterNode, TextOp } from './types.js';

/** A text-operator node: the only kind that carries relevance. */
export type TextNode = Extract<FilterNode, { op: TextOp }>;

/**
 * The text nodes that make up `score`: every `like`/`fuzzy`/`keyword` that is not beneath a `not`
 * (a negated text match says what a record is not about, so it cannot rank it). `score` is the
 * mean of their relevances, or 1 when there is none.
 */
export function scoringNodes(filter: FilterNode | null): TextNode[] {
  const found: TextNode[] = [];
  const visit = (node: FilterNode): void => {
    switch (node.op) {
      case 'and':
      case 'or':
        node.nodes.forEach(visit);
        return;
      case 'not':
        return;
      case 'like':
      case 'fuzzy':
      case 'keyword':
        found.push(node);
        return;
      default:
        return;
    }
  };
  if (filter) visit(filter);
  return found;
}

import type { FilterNode } from './types.js';

/**
 * The filter with some nodes known true or false (`known`), simplified: an `and` with a false
 * member is false, an `or` with a true member is true, and known members drop out. Why: a score level fixes whether each text node matches (its count
 * is fixed), so the rest of the filter, tested on every row the level reads, loses the branches
 * that cannot matter there. Nodes not known are returned as they are (the same objects).
 */
export function foldFilter(node: FilterNode, known: ReadonlyMap<FilterNode, boolean>): FilterNode | boolean {
  const fixed = known.get(node);
  if (fixed !== undefined) return fixed;
  // A `not` is kept whole: the nodes a level knows are scoring nodes, which are never beneath one.
  if (node.op !== 'and' && node.op !== 'or') return node;
  // The value that decides an `and` (false) or an `or` (true) on its own.
  const decisive = node.op === 'or';
  const kept: FilterNode[] = [];
  for (const child of node.nodes) {
    const folded = foldFilter(child, known);
    if (folded === decisive) return decisive;
    if (typeof folded !== 'boolean') kept.push(folded);
  }
  if (kept.length === 0) return !decisive;
  if (kept.length === 1) return kept[0] as FilterNode;
  return kept.length === node.nodes.length && kept.every((child, i) => child === node.nodes[i]) ? node : { op: node.op, nodes: kept };
}

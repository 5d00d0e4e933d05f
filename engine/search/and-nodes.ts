import type { FilterNode } from './types.js';

/**
 * The nodes joined to the root by `and` alone (an `and`'s own children, flattened; any other node
 * as it is): the tests every hit must pass, which is what lets a plan read an index for one of them.
 */
export function andNodes(filter: FilterNode | null): FilterNode[] {
  const nodes: FilterNode[] = [];
  const visit = (node: FilterNode): void => {
    if (node.op === 'and') node.nodes.forEach(visit);
    else nodes.push(node);
  };
  if (filter) visit(filter);
  return nodes;
}

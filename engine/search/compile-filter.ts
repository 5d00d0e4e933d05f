import { anyOf } from './index-query.js';
import { INDEXED_IN_VALUES, type CompileContext } from './sql-dialect.js';
import { textMatch, textPrefilter } from './text-sql.js';
import { foldCase } from './text-match.js';
import type { FilterNode, ScalarValue } from './types.js';

/**
 * Compiles a filter tree into a SQL predicate over the record row `r`, never NULL. `replace`
 * lets a plan write some nodes itself (a required text node it tests on a computed column, a
 * keyword node it splits by score level); every other node is compiled here.
 */
export function compileFilter(node: FilterNode, ctx: CompileContext, replace?: ReadonlyMap<FilterNode, string>): string {
  const replaced = replace?.get(node);
  if (replaced !== undefined) return replaced;
  const { d } = ctx;
  switch (node.op) {
    case 'and':
    case 'or':
      return `(${node.nodes.map((child) => compileFilter(child, ctx, replace)).join(node.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `(NOT ${compileFilter(node.node, { ...ctx, negated: true }, replace)})`;
    case 'eq': {
      if (node.value === null) return d.isNull(node.field, ctx);
      const exact = d.compare(node.field, 'eq', node.value, ctx);
      if (typeof node.value !== 'string' || !d.prefiltersEquality || ctx.negated) return exact;
      const query = d.indexText(node.field, foldCase(node.value), true, true);
      return query === true ? exact : `(${d.indexFilter(node.field, 'text', query, ctx)} AND ${exact})`;
    }
    case 'neq':
      return `(NOT ${compileFilter({ op: 'eq', field: node.field, value: node.value }, { ...ctx, negated: true })})`;
    case 'in': {
      const present = node.values.filter((value): value is Exclude<ScalarValue, null> => value !== null);
      const tests = present.length > 0 ? [d.anyEqual(node.field, present, ctx)] : [];
      if (present.length < node.values.length) tests.push(d.isNull(node.field, ctx));
      const exact = `(${tests.join(' OR ')})`;
      // One index test for the whole list (any of the values), not one per value; long lists skip it.
      if (!d.prefiltersEquality || ctx.negated || node.values.length > INDEXED_IN_VALUES || !node.values.every((value) => typeof value === 'string'))
        return exact;
      const query = anyOf(node.values.map((value) => d.indexText(node.field, foldCase(value as string), true, true)));
      return query === true ? exact : `(${d.indexFilter(node.field, 'text', query, ctx)} AND ${exact})`;
    }
    case 'like':
    case 'fuzzy':
    case 'keyword': {
      const exact = textMatch(node, ctx);
      const prefilter = ctx.negated ? null : textPrefilter(node, ctx);
      return prefilter ? `(${prefilter} AND ${exact})` : exact;
    }
    default:
      if (node.value === null) throw new TypeError(`"${node.op}" cannot compare with null`);
      return d.compare(node.field, node.op, node.value, ctx);
  }
}

/**
 * Whether the compiled filter asks a text index (a text operator, or a string equality where the
 * dialect prefilters those). Only then is an id-ordered read split into a window and the rest
 * (plan-window.ts): the planners estimate every other test well enough on their own.
 */
export function asksTextIndex(node: FilterNode | null, d: CompileContext['d']): boolean {
  if (!node) return false;
  switch (node.op) {
    case 'and':
    case 'or':
      return node.nodes.some((child) => asksTextIndex(child, d));
    case 'not':
    case 'neq':
      // Negated tests never ask an index (CompileContext.negated).
      return false;
    case 'eq':
      return d.prefiltersEquality && typeof node.value === 'string';
    case 'in':
      return d.prefiltersEquality && node.values.length <= INDEXED_IN_VALUES && node.values.every((value) => typeof value === 'string');
    case 'like':
    case 'fuzzy':
    case 'keyword':
      return true;
    default:
      return false;
  }
}

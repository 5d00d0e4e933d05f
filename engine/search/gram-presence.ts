import { indexPath } from './field-path.js';
import { scoringNodes } from './scoring-nodes.js';
import type { AbsentGrams, SqlDialect } from './sql-dialect.js';
import { SqlParams } from './sql-params.js';
import { fuzzyGrams } from './text-match.js';
import type { SearchRequest, SearchScope } from './types.js';

/** A statement that finds a request's absent grams, and how to read its one row. */
export interface PresenceProbe {
  sql: string;
  params: unknown[];
  absent(row: Record<string, unknown> | undefined): AbsentGrams;
  /**
   * A statement-level SQL boolean, bound through `params`, true exactly when this probe, run in
   * the same snapshot, would find `assumed` absent (absent() returning the same grams), so a
   * statement may read levels shaped by a guess and check it in its own snapshot
   * (run-levels.ts). Undefined when the probe could never find `assumed` (it names a gram the
   * probe does not ask).
   */
  guard(params: SqlParams, assumed: AbsentGrams): string | undefined;
}

/**
 * The statement that asks the text index, one existence probe per trigram of each fuzzy node that
 * scores (an index lookup each, stopping at the first row), which of them no record of the scope
 * holds; a trigram whose index term is `common` (the database's statistics say so) is taken to be
 * held without asking. Undefined when the request has no fuzzy node that scores.
 *
 * What is absent decides which score levels are read, never the plan or its keyset (both follow
 * from the request alone, search-plan.ts), so a cursor stays valid whatever the probe finds on the
 * next page. The probe and the reads it shapes must see one snapshot (run-levels.ts): a gram
 * found absent is then absent from every row those reads test.
 */
export function presenceProbe(d: SqlDialect, scope: SearchScope, request: SearchRequest, common?: { has(term: string): boolean }): PresenceProbe | undefined {
  const fuzzy = scoringNodes(request.filter).filter((node) => node.op === 'fuzzy');
  if (fuzzy.length === 0) return undefined;
  const ctx = { d, params: new SqlParams(), scope };
  const asks = new Map<string, { path: string; gram: string; sql: string; may: (params: SqlParams) => string }>();
  for (const node of fuzzy) {
    const path = indexPath(node.field);
    for (const gram of fuzzyGrams(node.text)) {
      const key = JSON.stringify([path, gram]);
      const query = d.indexGram(node.field, gram);
      // A gram the index cannot see (pg_trgm keeps no trigram of it), or one whose term is common, may be present: it is not asked.
      if (asks.has(key) || query === true || (typeof query === 'object' && 'term' in query && common?.has(query.term))) continue;
      const may = (params: SqlParams) => d.indexMayHold(node.field, 'text', query, { d, params, scope });
      asks.set(key, { path, gram, sql: may(ctx.params), may });
    }
  }
  const probes = [...asks.values()];
  const columns = [`${d.indexHoldsEveryRow(ctx)} AS complete`, ...probes.map((probe, i) => `${probe.sql} AS p${i}`)];
  const { sql, params } = ctx.params.finish(`SELECT ${columns.join(', ')}`, d.name);
  const no = (value: unknown) => value === 0 || value === false;
  return {
    sql,
    params,
    absent(row) {
      const absent = new Map<string, Set<string>>();
      // A record the index could not take may hold any gram.
      if (!row || no(row.complete)) return absent;
      probes.forEach((probe, i) => {
        if (no(row[`p${i}`])) absent.set(probe.path, (absent.get(probe.path) ?? new Set()).add(probe.gram));
      });
      return absent;
    },
    guard(params, assumed) {
      const named = [...assumed].reduce((sum, [, grams]) => sum + grams.size, 0);
      const gone = probes.filter((probe) => assumed.get(probe.path)?.has(probe.gram));
      if (gone.length !== named) return undefined;
      const inner = { d, params, scope };
      const held = probes.filter((probe) => !gone.includes(probe)).map((probe) => probe.may(params));
      // Nothing absent: a record the index could not take (absent() finds nothing then), or every gram asked held.
      if (named === 0) return held.length === 0 ? 'true' : `(NOT ${d.indexHoldsEveryRow(inner)} OR (${held.join(' AND ')}))`;
      return `(${[d.indexHoldsEveryRow(inner), ...gone.map((probe) => `NOT ${probe.may(params)}`), ...held].join(' AND ')})`;
    },
  };
}

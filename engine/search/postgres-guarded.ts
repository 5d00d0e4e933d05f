import type { CompiledSearch } from './compile-search.js';
import { SqlParams } from './sql-params.js';

/**
 * A PostgreSQL statement that reads only when `guard` holds in its own snapshot: its rows, each
 * led by true, or one row of false and NULLs when the guard fails (then it reads nothing: the
 * guard is a one-time filter of the lateral read), or one of true and NULLs when it holds and the
 * statement has no row. The guard's parameters follow the statement's. Why: a search whose shape
 * follows from an earlier read (gram-presence.ts's absent grams, range-guess.ts's range values)
 * can take that read's last answer as a guess and check it in the statement itself, one round
 * trip and one statement to parse and plan fewer than reading it first.
 */
export function guarded(compiled: CompiledSearch, guard: (params: SqlParams) => string | undefined): CompiledSearch {
  const params = new SqlParams();
  // A guess the guard could never confirm (what it asks changed) fails, and the read it stands for is made.
  const finished = params.finish(guard(params) ?? 'false', 'postgres');
  const shift = compiled.params.length;
  const test = finished.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
  // OFFSET 0 keeps the guard one column computed once, not copied into each place that reads it, and
  // the lateral read a subquery of its own, where a test of the guard alone is a one-time filter
  // (flattened, it is a join filter: the statement is read and each row dropped).
  const sql = `SELECT g.ok, f.* FROM (SELECT ${test} AS ok OFFSET 0) AS g LEFT JOIN LATERAL (SELECT * FROM (${compiled.sql}) AS s WHERE g.ok OFFSET 0) AS f ON true`;
  return { ...compiled, sql, params: [...compiled.params, ...finished.params] };
}

/** The statement's own rows out of a guarded statement's (see guarded), or undefined when its guard failed. */
export function guardedRows(rows: readonly unknown[][]): unknown[][] | undefined {
  if (rows[0]?.[0] !== true) return undefined;
  // A statement's rows always have an id (their first column), so a NULL there is the empty read's one row.
  return rows.flatMap((row) => (row[1] === null ? [] : [row.slice(1)]));
}

import type BetterSqlite3 from 'better-sqlite3';

/** The most statements kept per connection: searches of one shape share their SQL text (values are bound), so a few dozen shapes cover a service's traffic. */
const KEPT = 128;

const kept = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/**
 * A prepared statement for `sql` on `db`, kept for the next search with the same text (the least
 * recently used one goes past KEPT). Why: SQLite compiles a search's statement on every prepare,
 * and a filter of a few branches compiles to several kilobytes of SQL (0.3 to 0.6 ms of a 5 ms
 * search at 100,000 records); SQLite prepares a kept statement again by itself when the schema changes.
 */
export function preparedStatement(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let statements = kept.get(db);
  if (!statements) kept.set(db, (statements = new Map()));
  const found = statements.get(sql);
  if (found) {
    // Map order is insertion order: moved to the end, it is the most recently used.
    statements.delete(sql);
    statements.set(sql, found);
    return found;
  }
  const statement = db.prepare(sql);
  statements.set(sql, statement);
  if (statements.size > KEPT) statements.delete(statements.keys().next().value as string);
  return statement;
}

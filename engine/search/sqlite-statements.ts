import type BetterSqlite3 from 'better-sqlite3';

/** Most prepared search statements kept per connection (the least recently used go first). */
const MOST_STATEMENTS = 128;

const kept = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/**
 * The prepared statement of `sql` on a connection, kept for the next search that writes the same
 * text (its values are bound, so the text follows the query's shape: the same fuzzy query, or
 * any with as many trigrams, writes the same probe). Preparing costs SQLite a parse and a plan
 * each time: at 100,000 records (scripts/bench-search.ts) a fuzzy search's probe took 0.6 ms to
 * prepare and 0.8 ms to run. A statement follows schema changes by itself (SQLite prepares it
 * again when the schema it was made for changed).
 */
export function sqliteStatement(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let statements = kept.get(db);
  if (!statements) kept.set(db, (statements = new Map()));
  const found = statements.get(sql);
  if (found) {
    // Map keeps insertion order: moved to the end, it is the most recently used.
    statements.delete(sql);
    statements.set(sql, found);
    return found;
  }
  const prepared = db.prepare(sql);
  statements.set(sql, prepared);
  if (statements.size > MOST_STATEMENTS) statements.delete(statements.keys().next().value as string);
  return prepared;
}

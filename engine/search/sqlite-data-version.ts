import type BetterSqlite3 from 'better-sqlite3';
import { preparedStatement } from './sqlite-statements.js';

/**
 * A mark that changes whenever the data this connection reads may have changed: PRAGMA
 * data_version, which SQLite changes when another connection (another process, or another
 * connection of this one) has committed since, with total_changes(), the rows this connection
 * itself has inserted, updated or deleted (trigger programs' too, rolled back or not) since it
 * opened. Read inside a read transaction, it names that transaction's snapshot: so what was
 * found in a snapshot with the same mark holds in this one (known-absent.ts). Costs a statement
 * of a few microseconds, where the presence probe it spares costs one index seek per trigram.
 */
export function sqliteDataVersion(db: BetterSqlite3.Database): string {
  const [data, changes] = preparedStatement(db, 'SELECT data_version, total_changes() FROM pragma_data_version()').raw(true).get() as [number, number];
  return `${data}:${changes}`;
}

/**
 * Collects bound parameters while SQL is assembled out of order. Fragments carry a marker per
 * parameter; `finish` turns markers into `$n` (PostgreSQL) or `?` with the values repeated in text
 * order (better-sqlite3 has no numbered placeholders). Values never enter the SQL text.
 */
/** Encloses a value's index in SQL under assembly; the engine's SQL text never holds it otherwise. */
const MARK = '\u0001';

export class SqlParams {
  private readonly values: unknown[] = [];
  private aliases = 0;

  /**
   * A table alias no other of this statement has (`e1`, `e2`, ...). Why per statement, not per
   * process: the same request must compile to the same text every time, or SQLite's kept prepared
   * statements (sqlite-statements.ts) never match and each search prepares its statement again
   * (0.6 ms of a 5 ms "deep nest" search at 100,000 records, scripts/bench-search.ts).
   */
  alias(prefix: string): string {
    return `${prefix}${++this.aliases}`;
  }

  /** Binds a value and returns its marker; the same marker may appear several times. */
  add(value: unknown): string {
    this.values.push(value);
    return `${MARK}${this.values.length - 1}${MARK}`;
  }

  /** Final SQL and parameter list for the dialect: between two marks stands a value's index. */
  finish(sql: string, dialect: 'sqlite' | 'postgres'): { sql: string; params: unknown[] } {
    const params: unknown[] = [];
    const text = sql
      .split(MARK)
      .map((part, position) => {
        if (position % 2 === 0) return part;
        const index = Number(part);
        if (dialect === 'postgres') return `$${index + 1}`;
        params.push(this.values[index]);
        return '?';
      })
      .join('');
    return { sql: text, params: dialect === 'postgres' ? [...this.values] : params };
  }

  /**
   * The SQL with every value written as a PostgreSQL literal: for DDL (function bodies), which
   * takes no bound parameters. Only strings and finite numbers, the values the dialects bind there.
   */
  inline(sql: string): string {
    return sql
      .split(MARK)
      .map((part, position) => {
        if (position % 2 === 0) return part;
        const value = this.values[Number(part)];
        if (typeof value === 'number' && Number.isFinite(value)) return String(value);
        if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
        throw new TypeError(`cannot inline ${typeof value}`);
      })
      .join('');
  }
}

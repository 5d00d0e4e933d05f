/**
 * Collects bound parameters while SQL is assembled out of order. Fragments carry a marker per
 * parameter; `finish` turns markers into `$n` (PostgreSQL) or `?` with the values repeated in text
 * order (better-sqlite3 has no numbered placeholders). Values never enter the SQL text.
 */
export class SqlParams {
  private readonly values: unknown[] = [];

  /** Binds a value and returns its marker; the same marker may appear several times. */
  add(value: unknown): string {
    this.values.push(value);
    return `\u0001${this.values.length - 1}\u0001`;
  }

  /** Final SQL and parameter list for the dialect. */
  finish(sql: string, dialect: 'sqlite' | 'postgres'): { sql: string; params: unknown[] } {
    /* eslint-disable no-control-regex -- \u0001 marks the placeholders in SQL the engine writes */
    if (dialect === 'postgres') {
      return { sql: sql.replace(/\u0001(\d+)\u0001/g, (_, index: string) => `$${Number(index) + 1}`), params: [...this.values] };
    }
    const params: unknown[] = [];
    const text = sql.replace(/\u0001(\d+)\u0001/g, (_, index: string) => {
      params.push(this.values[Number(index)]);
      return '?';
    });
    return { sql: text, params };
    /* eslint-enable no-control-regex */
  }
}

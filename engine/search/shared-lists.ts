/**
 * Lists one statement computes once and reads wherever its plan needs them, declared as
 * MATERIALIZED CTEs in front of it (SQLite computes one on first use, and never when nothing
 * reads it). Named in the order they were first asked for, keyed by what they hold, so the same
 * list asked for twice (one text node in several score levels) is computed once.
 */
export class SharedLists {
  private readonly lists = new Map<string, { name: string; sql: string }>();

  /** The CTE name of the list `key` names, declared with `sql` the first time it is asked for. */
  name(key: string, sql: string): string {
    const found = this.lists.get(key);
    if (found) return found.name;
    const name = `list${this.lists.size}`;
    this.lists.set(key, { name, sql });
    return name;
  }

  /** The statement with its lists declared in front, or as it is when it asked for none. */
  wrap(statement: string): string {
    if (this.lists.size === 0) return statement;
    const declared = [...this.lists.values()].map(({ name, sql }) => `${name} AS MATERIALIZED (${sql})`);
    return `WITH ${declared.join(', ')} ${statement}`;
  }
}

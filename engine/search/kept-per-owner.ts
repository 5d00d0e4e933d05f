/**
 * Values a search keeps between searches, per owner (a connection, a pool, a dialect, a statistics
 * read) and by key, at most `most` per owner: the oldest filed goes first. Owners are held weakly,
 * so a closed connection's values go with it. Every kept-state table of the search (known absent
 * grams, range guesses, SQLite's level and index lists, text index queries, PostgreSQL's level
 * statements) is one of these, so each is bounded the same way.
 */
export class KeptPerOwner<V> {
  private readonly owners = new WeakMap<object, Map<string, V>>();

  constructor(private readonly most: number) {}

  /** What `owner` keeps under `key`, if anything. */
  get(owner: object, key: string): V | undefined {
    return this.owners.get(owner)?.get(key);
  }

  /** Files `value` under `key` as the newest of `owner`'s (filing again makes it the newest: least recently used goes first). */
  set(owner: object, key: string, value: V): void {
    let kept = this.owners.get(owner);
    if (!kept) this.owners.set(owner, (kept = new Map()));
    kept.delete(key);
    if (kept.size >= this.most) kept.delete(kept.keys().next().value as string);
    kept.set(key, value);
  }
}

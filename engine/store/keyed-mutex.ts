/**
 * Serializes async tasks per key inside one process. The stores put credential locks behind it so
 * that concurrent callers in one process queue here instead of each taking a database connection
 * (PostgreSQL) or polling a lease (SQLite) to wait for the same row.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` after every task queued before it under the same key has settled. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task);
    const tail = current.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

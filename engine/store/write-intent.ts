import type Database from 'better-sqlite3';

/**
 * A flag in shared memory that says "the store's own thread is writing (or waiting to write)".
 * The write thread checks it before each of its short transactions and waits while it is set.
 *
 * Why: SQLite has one write lock per file, and a connection that finds it taken sleeps in its busy
 * handler (1, 2, 5, 10, ... 100 ms naps) and retries. A write thread that commits chunk after chunk
 * leaves gaps of microseconds, so the store's connection, whose waits block the event loop, would
 * almost never catch the lock free (measured: p99 1.4 s waits during a pass). With the flag, it
 * waits at most for the chunk in progress.
 */
export class WriteIntent {
  /** Shared with the write thread: Int32 slot 0 is 1 while the store's thread writes. */
  readonly buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly flag = new Int32Array(this.buffer);
  private depth = 0;

  /** Runs a synchronous write with the flag raised (nested calls keep it raised until the outermost ends). */
  around<T>(write: () => T): T {
    if (this.depth++ === 0) Atomics.store(this.flag, 0, 1);
    try {
      return write();
    } finally {
      if (--this.depth === 0) {
        Atomics.store(this.flag, 0, 0);
        Atomics.notify(this.flag, 0);
      }
    }
  }
}

/** The write thread's side: a check that is true while the flag is raised (cheap enough to ask after every row). */
export function intentRaised(buffer: SharedArrayBuffer): () => boolean {
  const flag = new Int32Array(buffer);
  return () => Atomics.load(flag, 0) !== 0;
}

/** The write thread's side: blocks while the flag is raised (in slices, so termination is never held up). */
export function waitWhileRaised(buffer: SharedArrayBuffer): void {
  const flag = new Int32Array(buffer);
  while (Atomics.load(flag, 0) !== 0) Atomics.wait(flag, 0, 1, 50);
}

type Statement = Database.Statement<unknown[], unknown>;
type Transaction = ReturnType<Database.Database['transaction']>;

/**
 * Makes every write `db` runs announce itself on `intent`: statements that write (better-sqlite3's
 * `readonly` is false: INSERT, UPDATE, DELETE, with or without RETURNING), transactions (their
 * BEGIN IMMEDIATE takes the lock) and `exec`. Applied once to the store's connection before
 * anything prepares a statement on it, so every write path (the store, its sync jobs, its
 * credentials lease, and any added later) is covered without each remembering to.
 */
export function announceWrites(db: Database.Database, intent: WriteIntent): Database.Database {
  const prepare = db.prepare.bind(db);
  const transaction = db.transaction.bind(db);
  const exec = db.exec.bind(db);
  Object.assign(db, {
    prepare: (source: string) => {
      const statement = prepare(source) as Statement;
      return statement.readonly ? statement : announcedStatement(statement, intent);
    },
    transaction: (fn: (...args: unknown[]) => unknown) => announcedTransaction(transaction(fn), intent),
    exec: (source: string) => intent.around(() => exec(source)),
  });
  return db;
}

function announcedStatement(statement: Statement, intent: WriteIntent): Statement {
  for (const name of ['run', 'get', 'all'] as const) {
    const original = statement[name].bind(statement) as (...args: unknown[]) => unknown;
    Object.assign(statement, { [name]: (...args: unknown[]) => intent.around(() => original(...args)) });
  }
  return statement;
}

function announcedTransaction(tx: Transaction, intent: WriteIntent): Transaction {
  const wrap =
    (run: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) =>
      intent.around(() => run(...args));
  return Object.assign(wrap(tx), {
    default: wrap(tx.default),
    deferred: wrap(tx.deferred),
    immediate: wrap(tx.immediate),
    exclusive: wrap(tx.exclusive),
  }) as unknown as Transaction;
}

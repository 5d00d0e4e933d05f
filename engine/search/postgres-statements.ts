import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The most named statements a connection keeps. Each costs the server memory for as long as it is
 * kept: about 0.5 MB for a two-word keyword's statement (4 KB of SQL, its parse tree and its plan;
 * pg_backend_memory_contexts at 100,000 records), so 32 of them bound a connection to ~16 MB.
 */
const KEPT = 32;

/**
 * A statement name never given twice in this process (nor by another copy of this module sharing
 * a connection): a statement that is forgotten is named anew when it comes back, so no name can
 * ever stand for two texts, whatever pg's own client still believes it parsed.
 */
const PREFIX = `ce_search_${randomBytes(4).toString('hex')}_`;
let named = 0;

/** Per connection (the pg client object, one per server session): SQL text to statement name, least recently used first. */
const kept = new WeakMap<pg.ClientBase, Map<string, string>>();

/**
 * SQLSTATEs after which a kept statement cannot run again as it is: 26000, it no longer exists (a
 * DEALLOCATE ALL or DISCARD ALL on the session); 0A000, "cached plan must not change result type"
 * (a column the statement returns changed type since it was parsed; the server replans a kept
 * statement by itself after any other schema change).
 */
const STALE = new Set(['26000', '0A000']);

/** Drops a name from pg's own list of parsed statements (memory only: a forgotten name is never sent again). */
function forgetParsed(client: pg.ClientBase, name: string): void {
  const parsed = (client as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
  if (parsed) delete parsed[name];
}

/**
 * Deallocates a statement if the session still has it: a DEALLOCATE of one it no longer has
 * (DEALLOCATE ALL behind our back) would fail, and with it the caller's transaction the statement
 * may run in. Names are ours (PREFIX and a number), so they need no quoting.
 */
async function deallocate(client: pg.ClientBase, name: string): Promise<void> {
  forgetParsed(client, name);
  await client.query(`DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_prepared_statements WHERE name = '${name}') THEN EXECUTE 'DEALLOCATE ${name}'; END IF; END $$`);
}

/** The statement's name on this connection, the most recently used from now on. */
function nameFor(statements: Map<string, string>, sql: string): string {
  const found = statements.get(sql);
  if (found !== undefined) statements.delete(sql);
  const name = found ?? `${PREFIX}${++named}`;
  statements.set(sql, name);
  return name;
}

/**
 * Runs `sql` as a named statement kept on the connection, so the server parses it once per
 * connection and, from its sixth run on, plans it once for every value when that plan costs no
 * more than the plans made for the values (PostgreSQL's plan_cache_mode = auto): at 100,000
 * records planning is 1 to 2 ms of a 3 to 5 ms keyword or `like` search (scripts/bench-search.ts).
 * Only statements whose own shape fixes how they read may be sent here (CompiledSearch.keepPlan):
 * one plan made without the values must read as well as one made with them. The least recently
 * used statement past KEPT is deallocated. A statement found stale (see STALE) is forgotten and,
 * when `retry` (the caller holds the connection outside any transaction of its own), run once more
 * under a new name; else the error is thrown and the next search names it anew.
 */
export async function queryKept<R extends unknown[]>(client: pg.ClientBase, sql: string, params: unknown[], retry: boolean): Promise<pg.QueryResult<R>> {
  let statements = kept.get(client);
  if (!statements) kept.set(client, (statements = new Map()));
  const name = nameFor(statements, sql);
  let result: pg.QueryResult<R>;
  try {
    result = await client.query<R>({ name, text: sql, values: params, rowMode: 'array' });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !STALE.has(code)) throw error;
    if (statements.get(sql) === name) statements.delete(sql);
    forgetParsed(client, name);
    if (!retry) throw error;
    // A statement whose result type changed still exists (outside a transaction, its DEALLOCATE can run).
    await deallocate(client, name);
    return queryKept<R>(client, sql, params, false);
  }
  if (statements.size > KEPT) {
    const [oldest, oldName] = statements.entries().next().value as [string, string];
    statements.delete(oldest);
    await deallocate(client, oldName);
  }
  return result;
}

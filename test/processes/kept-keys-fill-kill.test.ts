/**
 * A crash in the middle of the first fill of kept keys (the first search sorted by two sortable
 * paths registers their pair, fills its keys from every record and builds its index; the first
 * equality on a path inside an array does the same for the path's value keys; each in one
 * transaction) leaves nothing half done: no registration, no keys, no index, so the next search
 * starts them again and answers exactly as a search without them. SQLite: the process that fills
 * is killed with SIGKILL once the fill has spilled into the write-ahead log. PostgreSQL: its
 * session is terminated while the fill's INSERT runs.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSearchParams, registerSearchFunctions, runSearch, type FieldType, type SearchDatabase, type SearchDialect } from '../../engine/search/index.js';
import { openPostgresSearchBackend, openSqliteSearchBackend } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { id: 'string', w: 'integer', v: 'string', f: 'array' };
const SORTABLE = ['w', 'v'];
const SCOPE = { connectorId: 'kill', entity: 'rows' };
const RECORDS = Array.from({ length: 60_000 }, (_, i) => ({
  id: `r${String(i).padStart(6, '0')}`,
  w: i % 50,
  v: `s${(i * 7919) % 997}`,
  f: Array.from({ length: 1 + (i % 2) }, (_, j) => ({ g: `u${(i + j * 31) % 500}` })),
}));
const SEARCH = fileURLToPath(new URL('../../dist/engine/search/index.js', import.meta.url));

/** A fill to kill: the search that starts it, its tables, and how many keys it leaves when whole. */
const FILLS = [
  { name: 'a sort pair', query: { sort: [{ w: 'asc' }, { v: 'desc' }] }, registry: 'search_sort_pair_paths', keys: 'search_sort_pairs', count: RECORDS.length },
  {
    name: 'value keys',
    query: { filter: { eq: { 'f.g': 'u7' } } },
    registry: 'search_value_paths',
    keys: 'search_value_keys',
    count: RECORDS.reduce((n, record) => n + new Set(record.f.map((follower) => follower.g)).size, 0),
  },
];

/** The first pages of a query, with both paths sortable (so a pair serves a sort) or none. */
async function firstPages(db: SearchDatabase, dialect: SearchDialect, query: unknown, sortable: readonly string[]): Promise<string[][]> {
  const found: string[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 3; i++) {
    const page = await runSearch(db, dialect, SCOPE, parseSearchParams({ query, limit: 50, cursor }, FIELDS, {}, sortable));
    found.push(page.hits.map((hit) => hit.id));
    cursor = page.next_cursor;
  }
  return found;
}

/**
 * Runs the search that starts a fill in a process of its own, which a thread of that process kills
 * with SIGKILL once the fill has written 1 MB of uncommitted pages to the log. Why a thread of the
 * child and not this process's polling: on a loaded machine this process may not run for longer
 * than the rest of the fill takes. Returns whether the kill came before the search finished.
 */
async function killMidFill(file: string, query: unknown): Promise<boolean> {
  const watcher = `
    const { statSync } = require('node:fs');
    const tick = () => { try { if (statSync(${JSON.stringify(`${file}-wal`)}).size > 1_000_000) process.kill(process.pid, 'SIGKILL'); } catch {} };
    setInterval(tick, 1);`;
  const script = `
    const Database = require('better-sqlite3');
    const { Worker } = require('node:worker_threads');
    import(${JSON.stringify(SEARCH)}).then(async (search) => {
      const db = new Database(${JSON.stringify(file)});
      db.pragma('journal_mode = WAL');
      search.registerSearchFunctions(db);
      const request = search.parseSearchParams({ query: ${JSON.stringify(query)}, limit: 1 }, ${JSON.stringify(FIELDS)}, {}, ${JSON.stringify(SORTABLE)});
      const watcher = new Worker(${JSON.stringify(watcher)}, { eval: true });
      await new Promise((resolve) => watcher.once('online', resolve));
      await search.runSearch(db, 'sqlite', ${JSON.stringify(SCOPE)}, request);
      process.stdout.write('done\\n');
      process.exit(0);
    });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, how) => resolve(how)));
  return signal === 'SIGKILL' && !out.includes('done');
}

/** A table's row count, or undefined when the table does not exist. */
function rowsOf(db: Database.Database, table: string): number | undefined {
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  return exists ? (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n : undefined;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(FILLS)('the first fill of $name, killed midway', (fill) => {
  it('on sqlite: a SIGKILL during the fill leaves nothing of it; the next search fills it whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ce-keys-kill-'));
    dirs.push(dir);
    const seeded = join(dir, 'seeded.db');
    const seed = openSqliteSearchBackend(seeded);
    await seed.upsert(SCOPE, RECORDS, 'id');
    await seed.close();
    const file = join(dir, 'records.db');
    // A kill that came after the fill's commit leaves the whole fill, which proves nothing: such a
    // try is made again on a fresh copy. A part of a fill, whenever the kill came, fails below.
    let whole = true;
    for (let attempt = 0; attempt < 5 && whole; attempt++) {
      copyFileSync(seeded, file);
      rmSync(`${file}-wal`, { force: true });
      const killed = await killMidFill(file, fill.query);
      const db = new Database(file);
      try {
        whole = rowsOf(db, fill.keys) === fill.count && rowsOf(db, fill.registry) === 1;
        if (!killed) expect(whole, 'a search that finished left its whole fill').toBe(true);
      } finally {
        db.close();
      }
    }
    expect(whole, 'the fill was caught midway in one of five tries').toBe(false);

    const db = new Database(file);
    registerSearchFunctions(db);
    try {
      expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN (?, ?)`).all(fill.registry, fill.keys)).toEqual([]);
      const expected = await firstPages(db, 'sqlite', fill.query, []);
      expect(await firstPages(db, 'sqlite', fill.query, SORTABLE)).toEqual(expected);
      expect(rowsOf(db, fill.keys)).toBe(fill.count);
    } finally {
      db.close();
    }
  }, 120_000);

  it('on postgres: a session terminated during the fill leaves nothing of it; the next search fills it whole', async () => {
    const backend = await openPostgresSearchBackend();
    try {
      await backend.upsert(SCOPE, RECORDS, 'id');
      const pool = backend.db as pg.Pool;
      // The terminated session's client reports its end to the pool too; it is expected here.
      const poolErrors: string[] = [];
      pool.on('error', (error) => poolErrors.push(error.message));
      const filling = firstPages(pool, 'postgres', fill.query, SORTABLE).then(
        () => 'done',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      let terminated = false;
      for (let waited = 0; !terminated; waited += 2) {
        const { rows } = await pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`,
          [`INSERT INTO ${fill.keys} %`],
        );
        if (rows[0]) terminated = (await pool.query('SELECT pg_terminate_backend($1) AS ok', [rows[0].pid])).rows[0]?.ok === true;
        else if (waited > 60_000) throw new Error('the fill was not caught midway');
        else await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(await filling).toMatch(/terminat/);
      expect(poolErrors.every((message) => /terminat/.test(message))).toBe(true);
      const { rows } = await pool.query(`SELECT to_regclass($1) AS registry, to_regclass($2) AS keys`, [fill.registry, fill.keys]);
      expect(rows[0]).toEqual({ registry: null, keys: null });
      const expected = await firstPages(pool, 'postgres', fill.query, []);
      expect(await firstPages(pool, 'postgres', fill.query, SORTABLE)).toEqual(expected);
      const kept = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${fill.keys}`);
      expect(Number(kept.rows[0]?.n)).toBe(fill.count);
    } finally {
      await backend.close();
    }
  }, 120_000);
});

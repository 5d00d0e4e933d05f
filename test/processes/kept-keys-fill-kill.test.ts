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
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
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

/** Runs the search that starts a fill in a process of its own, and kills it with SIGKILL once the fill has written 1 MB of uncommitted pages to the log. */
async function killMidFill(file: string, query: unknown): Promise<void> {
  const script = `
    const Database = require('better-sqlite3');
    import(${JSON.stringify(SEARCH)}).then(async (search) => {
      const db = new Database(${JSON.stringify(file)});
      db.pragma('journal_mode = WAL');
      search.registerSearchFunctions(db);
      const request = search.parseSearchParams({ query: ${JSON.stringify(query)}, limit: 1 }, ${JSON.stringify(FIELDS)}, {}, ${JSON.stringify(SORTABLE)});
      process.stdout.write('start\\n');
      await search.runSearch(db, 'sqlite', ${JSON.stringify(SCOPE)}, request);
      process.stdout.write('done\\n');
    });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const wal = `${file}-wal`;
  const walSize = () => (existsSync(wal) ? statSync(wal).size : 0);
  // The keys and their index are several MB: 1 MB in the log is midway.
  for (let waited = 0; !(out.includes('start') && walSize() > 1_000_000); waited += 2) {
    if (waited > 60_000 || out.includes('done')) throw new Error(`the fill was not caught midway: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(out).not.toContain('done');
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(FILLS)('the first fill of $name, killed midway', (fill) => {
  it('on sqlite: a SIGKILL during the fill leaves nothing of it; the next search fills it whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ce-keys-kill-'));
    dirs.push(dir);
    const file = join(dir, 'records.db');
    const seed = openSqliteSearchBackend(file);
    await seed.upsert(SCOPE, RECORDS, 'id');
    await seed.close();
    await killMidFill(file, fill.query);

    const db = new Database(file);
    registerSearchFunctions(db);
    try {
      expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN (?, ?)`).all(fill.registry, fill.keys)).toEqual([]);
      const expected = await firstPages(db, 'sqlite', fill.query, []);
      expect(await firstPages(db, 'sqlite', fill.query, SORTABLE)).toEqual(expected);
      expect((db.prepare(`SELECT count(*) AS n FROM ${fill.keys}`).get() as { n: number }).n).toBe(fill.count);
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

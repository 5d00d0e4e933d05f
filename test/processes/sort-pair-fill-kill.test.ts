/**
 * A crash in the middle of a sort pair's first fill (the first search sorted by two sortable
 * paths registers the pair, fills its keys from every record and builds its index, in one
 * transaction) leaves nothing half done: no registration, no keys, no index, so the next sorted
 * search starts the pair again and answers exactly as an unindexed sort. SQLite: the process that
 * fills is killed with SIGKILL once the fill has spilled into the write-ahead log. PostgreSQL:
 * its session is terminated while the fill's INSERT runs.
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

const FIELDS: Record<string, FieldType> = { id: 'string', w: 'integer', v: 'string' };
const SORTABLE = ['w', 'v'];
const SCOPE = { connectorId: 'kill', entity: 'rows' };
const QUERY = { sort: [{ w: 'asc' }, { v: 'desc' }] };
const RECORDS = Array.from({ length: 60_000 }, (_, i) => ({ id: `r${String(i).padStart(6, '0')}`, w: i % 50, v: `s${(i * 7919) % 997}` }));
const SEARCH = fileURLToPath(new URL('../../dist/engine/search/index.js', import.meta.url));

/** The first page of the query, with both paths sortable (the pair) or none (computed at query time). */
async function firstPages(db: SearchDatabase, dialect: SearchDialect, sortable: readonly string[]): Promise<string[][]> {
  const found: string[][] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 3; i++) {
    const page = await runSearch(db, dialect, SCOPE, parseSearchParams({ query: QUERY, limit: 50, cursor }, FIELDS, {}, sortable));
    found.push(page.hits.map((hit) => hit.id));
    cursor = page.next_cursor;
  }
  return found;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a sort pair fill killed midway', () => {
  it('on sqlite: a SIGKILL during the fill leaves no pair; the next sorted search fills it whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ce-pair-kill-'));
    dirs.push(dir);
    const file = join(dir, 'records.db');
    const seed = openSqliteSearchBackend(file);
    await seed.upsert(SCOPE, RECORDS, 'id');
    await seed.close();

    // The filling process: it says when it starts the sorted search that registers and fills the pair.
    const script = `
      const Database = require('better-sqlite3');
      import(${JSON.stringify(SEARCH)}).then(async (search) => {
        const db = new Database(${JSON.stringify(file)});
        db.pragma('journal_mode = WAL');
        search.registerSearchFunctions(db);
        const request = search.parseSearchParams({ query: ${JSON.stringify(QUERY)}, limit: 1 }, ${JSON.stringify(FIELDS)}, {}, ${JSON.stringify(SORTABLE)});
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
    // Once the fill has written 1 MB of uncommitted pages to the log, it is midway (the pair's keys and index are several MB).
    for (let waited = 0; !(out.includes('start') && walSize() > 1_000_000); waited += 2) {
      if (waited > 60_000 || out.includes('done')) throw new Error(`the fill was not caught midway: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(out).not.toContain('done');

    const db = new Database(file);
    registerSearchFunctions(db);
    try {
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'search_sort_pair%'`).all();
      expect(tables).toEqual([]);
      const expected = await firstPages(db, 'sqlite', []);
      expect(await firstPages(db, 'sqlite', SORTABLE)).toEqual(expected);
      const kept = db.prepare('SELECT count(*) AS n FROM search_sort_pairs').get() as { n: number };
      expect(kept.n).toBe(RECORDS.length);
    } finally {
      db.close();
    }
  }, 120_000);

  it('on postgres: a session terminated during the fill leaves no pair; the next sorted search fills it whole', async () => {
    const backend = await openPostgresSearchBackend();
    try {
      await backend.upsert(SCOPE, RECORDS, 'id');
      const pool = backend.db as pg.Pool;
      // The terminated session's client reports its end to the pool too; it is expected here.
      const poolErrors: string[] = [];
      pool.on('error', (error) => poolErrors.push(error.message));
      const filling = firstPages(pool, 'postgres', SORTABLE).then(
        () => 'done',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      let terminated = false;
      for (let waited = 0; !terminated; waited += 2) {
        const { rows } = await pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'INSERT INTO search_sort_pairs %' AND pid <> pg_backend_pid()`,
        );
        if (rows[0]) terminated = (await pool.query('SELECT pg_terminate_backend($1) AS ok', [rows[0].pid])).rows[0]?.ok === true;
        else if (waited > 60_000) throw new Error('the fill was not caught midway');
        else await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(await filling).toMatch(/terminat/);
      expect(poolErrors.every((message) => /terminat/.test(message))).toBe(true);
      const { rows } = await pool.query(`SELECT to_regclass('search_sort_pair_paths') AS paths, to_regclass('search_sort_pairs') AS pairs`);
      expect(rows[0]).toEqual({ paths: null, pairs: null });
      const expected = await firstPages(pool, 'postgres', []);
      expect(await firstPages(pool, 'postgres', SORTABLE)).toEqual(expected);
      const kept = await pool.query<{ n: string }>('SELECT count(*) AS n FROM search_sort_pairs');
      expect(Number(kept.rows[0]?.n)).toBe(RECORDS.length);
      const pair = await pool.query<{ id: number }>('SELECT id FROM search_sort_pair_paths');
      const indexes = await pool.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'search_sort_pairs' ORDER BY indexname`);
      expect(indexes.rows.map((row) => row.indexname)).toEqual([`search_sort_pairs_${pair.rows[0]?.id}`, 'search_sort_pairs_pkey']);
    } finally {
      await backend.close();
    }
  }, 120_000);
});

/**
 * Search benchmark: loads generated task records into the record table of each backend (SQLite
 * file, throwaway PostgreSQL) at 10,000, 100,000 and 1,000,000 records, then times every query
 * shape below and prints p50/p95 per shape, size and backend, whether both backends return the
 * same hits (a timing of a wrong answer is worthless), the shapes that miss the goal at each size
 * (p50 <= 5 ms, p95 <= 25 ms), and the growth of each shape from one size to the next. SQLite runs
 * up to 100,000 by default: its single-threaded bulk load (FTS5 fill) of 1M records takes too long
 * on a shared 2-core machine to be part of every run. Everything it creates is removed at the end.
 *
 * Run: node dist/scripts/bench-search.js (after npm run build), or within npm run bench.
 * Env: BENCH_SEARCH_SIZES (comma-separated, default 10000,100000,1000000; BENCH_SEARCH_RECORDS=N
 * runs the one size N), BENCH_SEARCH_SQLITE_MAX (largest SQLite size, default 100000),
 * BENCH_SEARCH_RUNS (default 20), BENCH_SEARCH_SHAPES (comma-separated shape names, default all),
 * BENCH_SEARCH_PG_KEEP (a folder: the PostgreSQL cluster lives there and keeps each size's load as
 * a template database named by the schema it was loaded with; a later run copies it instead of
 * loading again, which at 1M saves ~12 minutes. The copy is fresh: kept keys are filled as on a
 * new load. Delete the folder to drop it).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  parseSearchParams,
  registerSearchFunctions,
  runSearch,
  type FieldType,
  type SearchDatabase,
  type SearchDialect,
  type SearchScope,
} from '../engine/search/index.js';
import { RECORD_TABLE, recordTableDdl, searchIndexDdl, searchWordPairsDdl } from '../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../test/support/postgres.js';

const SIZES = (process.env.BENCH_SEARCH_RECORDS ?? process.env.BENCH_SEARCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const SQLITE_MAX = Number(process.env.BENCH_SEARCH_SQLITE_MAX ?? 100_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
const ONLY = process.env.BENCH_SEARCH_SHAPES?.split(',');
const PG_KEEP = process.env.BENCH_SEARCH_PG_KEEP;
/** A shape's samples stop once they add up to this (at 3 samples at least): a slow shape at 1M must not take the run's whole time. */
const BUDGET_MS = 15_000;
const GOAL_P50 = 5;
const GOAL_P95 = 25;
const BATCH = 2000;
const SCOPE: SearchScope = { connectorId: 'bench', entity: 'tasks' };
const FIELDS: Record<string, FieldType> = {
  gid: 'string',
  name: 'string',
  notes: 'string',
  num_likes: 'integer',
  ratio: 'number',
  completed: 'boolean',
  due_on: 'string',
  assignee: 'object',
  tags: 'array',
  followers: 'array',
};

const WORDS = [
  'alpha',
  'budget',
  'review',
  'quarterly',
  'report',
  'launch',
  'customer',
  'design',
  'migration',
  'invoice',
  'planning',
  'roadmap',
  'sprint',
  'bug',
  'feature',
  'release',
  'audit',
  'hiring',
  'onboarding',
  'security',
];
const TAGS = ['urgent', 'later', 'blocked', 'frontend', 'backend', 'ops', 'legal', 'sales'];

/** A small deterministic PRNG (mulberry32), so both backends get the same records. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The records in batches, generated as they are loaded (1M records would not fit in memory at once); the same sequence every time. */
function* generate(count: number): Generator<Record<string, unknown>[]> {
  const next = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const phrase = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  for (let start = 0; start < count; start += BATCH) {
    yield Array.from({ length: Math.min(BATCH, count - start) }, (_, j) => {
      const i = start + j;
      return {
        gid: String(1_000_000 + i),
        name: `${phrase(3)} ${i}`,
        notes: phrase(12),
        num_likes: Math.floor(next() * 100),
        ratio: Math.round(next() * 10_000) / 100,
        completed: next() < 0.3,
        due_on: `2024-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`,
        assignee: next() < 0.1 ? null : { gid: `u${Math.floor(next() * 500)}`, name: `${pick(['Ann', 'Bob', 'Cy', 'Dee'])} ${pick(WORDS)}` },
        tags: Array.from({ length: Math.floor(next() * 3) }, () => pick(TAGS)),
        followers: Array.from({ length: Math.floor(next() * 4) }, () => ({ gid: `u${Math.floor(next() * 500)}` })),
      };
    });
  }
}

interface Shape {
  name: string;
  params: Record<string, unknown>;
  /** Deep pages: the page starts after this many hits (the cursor is fetched outside the timing). */
  depth?: number;
}

const SHAPES: Shape[] = [
  { name: 'eq string', params: { query: { filter: { eq: { gid: '1050000' } } }, limit: 100 } },
  { name: 'eq boolean', params: { query: { filter: { eq: { completed: true } } }, limit: 100 } },
  { name: 'neq string', params: { query: { filter: { neq: { due_on: '2024-05-05' } } }, limit: 100 } },
  { name: 'in integer', params: { query: { filter: { in: { num_likes: [1, 17, 42, 77, 99] } } }, limit: 100 } },
  { name: 'range integer', params: { query: { filter: { and: [{ gte: { num_likes: 10 } }, { lt: { num_likes: 12 } }] } }, limit: 100 } },
  { name: 'range string', params: { query: { filter: { and: [{ gte: { due_on: '2024-03-01' } }, { lte: { due_on: '2024-03-02' } }] } }, limit: 100 } },
  { name: 'like %infix%', params: { query: { filter: { like: { name: '%roadmap sprint%' } } }, limit: 100 } },
  { name: 'like prefix%', params: { query: { filter: { like: { name: 'security audit%' } } }, limit: 100 } },
  { name: 'fuzzy', params: { query: { filter: { fuzzy: { name: 'quartrly reprot' } } }, limit: 100 } },
  { name: 'keyword', params: { query: { filter: { keyword: { notes: 'invoice hiring' } } }, limit: 100 } },
  { name: 'keyword and eq', params: { query: { filter: { and: [{ keyword: { notes: 'invoice hiring' } }, { eq: { gid: '1005000' } }] } }, limit: 100 } },
  {
    name: 'and/or/not',
    params: {
      query: {
        filter: { and: [{ eq: { completed: false } }, { or: [{ eq: { tags: 'urgent' } }, { gt: { ratio: 99 } }] }, { not: { eq: { 'assignee.gid': 'u1' } } }] },
      },
      limit: 100,
    },
  },
  {
    name: 'deep nest',
    params: {
      query: {
        filter: {
          or: [
            { and: [{ eq: { tags: 'ops' } }, { not: { lt: { num_likes: 90 } } }] },
            { and: [{ like: { name: 'launch%' } }, { not: { or: [{ eq: { completed: true } }, { eq: { assignee: null } }] } }] },
          ],
        },
      },
      limit: 100,
    },
  },
  { name: 'sort integer desc', params: { query: { sort: [{ num_likes: 'desc' }] }, limit: 100 } },
  { name: 'sort 2 keys', params: { query: { filter: { eq: { completed: true } }, sort: [{ due_on: 'asc' }, { name: 'desc' }] }, limit: 100 } },
  { name: 'array-any', params: { query: { filter: { eq: { tags: 'legal' } } }, limit: 100 } },
  { name: 'array of objects', params: { query: { filter: { eq: { 'followers.gid': 'u42' } } }, limit: 100 } },
  { name: 'object path eq', params: { query: { filter: { eq: { 'assignee.gid': 'u7' } } }, limit: 100 } },
  { name: 'object path like', params: { query: { filter: { like: { 'assignee.name': 'dee rel%' } } }, limit: 100 } },
  { name: 'projection 1000', params: { query: { filter: { eq: { completed: false } } }, fields: ['name', 'assignee.gid'], limit: 1000 } },
  { name: 'deep page by id', params: { query: {}, limit: 100 }, depth: 50_000 },
  { name: 'deep page sorted', params: { query: { sort: [{ ratio: 'asc' }] }, limit: 100 }, depth: 50_000 },
  { name: 'deep page by score', params: { query: { filter: { keyword: { name: 'release design' } } }, limit: 100 }, depth: 10_000 },
  { name: 'deep page by fuzzy', params: { query: { filter: { fuzzy: { name: 'quartrly reprot' } } }, limit: 100 }, depth: 1_000 },
];

/** A loaded record table on one backend, ready to search. */
interface Loaded {
  dialect: SearchDialect;
  db: SearchDatabase;
  loadSeconds: number;
  /** With BENCH_SEARCH_PG_KEEP: how the load was had ("loaded now" or "kept from an earlier run"), and the copy's seconds. */
  kept?: string;
  close(): Promise<void>;
}

const INSERT = 'INSERT INTO search_records (connector_id, entity, id, data, updated_at)';

/**
 * SQLite, loaded as a copy that predates the text indexes and then migrated (schema v2 rows, then
 * searchIndexDdl, which fills the FTS5 tables from the rows present, as migration 3 does): the same
 * rows and indexes the engine's writer leaves, in one bulk pass instead of a trigger run per row.
 */
function loadSqlite(file: string, count: number): Loaded {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  registerSearchFunctions(db);
  const started = performance.now();
  db.exec(recordTableDdl('sqlite'));
  for (const kind of ['insert', 'update', 'delete']) db.exec(`DROP TRIGGER ${RECORD_TABLE}_text_${kind}`);
  const insert = db.prepare(`${INSERT} VALUES (?, ?, ?, ?, ?)`);
  const now = new Date().toISOString();
  const load = db.transaction((records: Record<string, unknown>[]) => {
    for (const record of records) insert.run(SCOPE.connectorId, SCOPE.entity, String(record.gid), JSON.stringify(record), now);
  });
  for (const records of generate(count)) load(records);
  db.exec(searchIndexDdl('sqlite'));
  db.exec('ANALYZE');
  const loadSeconds = (performance.now() - started) / 1000;
  return {
    dialect: 'sqlite',
    db,
    loadSeconds,
    close: async () => {
      db.close();
    },
  };
}

/**
 * PostgreSQL, loaded the same way: the latest schema's columns on the empty table (searchIndexDdl,
 * then searchWordPairsDdl, which would build the trigram column twice over rows present), rows in
 * batches of multi-row inserts with no index but the primary key (the trigram column computed as
 * they go in), then the trigram GIN indexes and the containment index of recordTableDdl built once.
 */
async function loadPostgres(cluster: PostgresCluster, count: number): Promise<Loaded> {
  if (PG_KEEP) return copyKeptLoad(cluster, count);
  const started = performance.now();
  const pool = await loadPostgresInto(await cluster.createDatabase(), count);
  const loadSeconds = (performance.now() - started) / 1000;
  return { dialect: 'postgres', db: pool, loadSeconds, close: () => pool.end() };
}

async function loadPostgresInto(url: string, count: number): Promise<pg.Pool> {
  // The GIN builds of a bulk load are bound by maintenance_work_mem (64 MB by default: at 1M records they spill and merge many runs).
  const pool = new pg.Pool({ connectionString: url, max: 4, options: '-c maintenance_work_mem=512MB' });
  const tableDdl = recordTableDdl('postgres');
  await pool.query(tableDdl);
  await pool.query(`DROP INDEX ${RECORD_TABLE}_data; DROP INDEX ${RECORD_TABLE}_text; ALTER TABLE ${RECORD_TABLE} DROP COLUMN search_text`);
  await pool.query(searchIndexDdl('postgres'));
  const pairsDdl = searchWordPairsDdl('postgres');
  await pool.query(pairsDdl);
  const trigramIndexes = pairsDdl.split('\n').filter((line) => line.startsWith(`CREATE INDEX ${RECORD_TABLE}_`));
  if (trigramIndexes.length !== 2) throw new Error('searchWordPairsDdl does not end with the two trigram indexes');
  await pool.query(`DROP INDEX ${RECORD_TABLE}_trigrams; DROP INDEX ${RECORD_TABLE}_untrigrammed`);
  for (const records of generate(count)) {
    await pool.query(`${INSERT} SELECT $1, $2, r.id, r.data, now() FROM unnest($3::text[], $4::jsonb[]) AS r(id, data)`, [
      SCOPE.connectorId,
      SCOPE.entity,
      records.map((record) => String(record.gid)),
      records.map((record) => JSON.stringify(record)),
    ]);
  }
  for (const index of trigramIndexes) await pool.query(index);
  const containment = tableDdl.split('\n').find((line) => line.includes(`INDEX IF NOT EXISTS ${RECORD_TABLE}_data `));
  if (!containment) throw new Error('recordTableDdl has no containment index');
  await pool.query(containment);
  await pool.query(`ANALYZE ${RECORD_TABLE}`);
  return pool;
}

/** The kept load's database name: the size and a digest of the schema and data it was loaded with (a change loads anew). */
function keptName(count: number): string {
  const schema = [recordTableDdl('postgres'), searchIndexDdl('postgres'), searchWordPairsDdl('postgres'), generate.toString(), String(BATCH)].join('\n');
  return `kept_${count}_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
}

/**
 * With BENCH_SEARCH_PG_KEEP: the size's load kept as a template database (loaded on the first run,
 * its load time in its comment), copied into a fresh database for this run.
 */
async function copyKeptLoad(cluster: PostgresCluster, count: number): Promise<Loaded> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const name = keptName(count);
  const run = `run_${count}`;
  try {
    const found = await admin.query<{ seconds: string | null }>("SELECT shobj_description(oid, 'pg_database') AS seconds FROM pg_database WHERE datname = $1", [
      name,
    ]);
    let loadSeconds = Number(found.rows[0]?.seconds);
    const reused = found.rows.length > 0 && Number.isFinite(loadSeconds);
    if (!reused) {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      const started = performance.now();
      await (await loadPostgresInto(await cluster.createDatabase(name), count)).end();
      loadSeconds = (performance.now() - started) / 1000;
      await admin.query(`COMMENT ON DATABASE ${name} IS '${loadSeconds.toFixed(1)}'`);
    }
    await admin.query(`DROP DATABASE IF EXISTS ${run}`);
    const copyStarted = performance.now();
    await admin.query(`CREATE DATABASE ${run} TEMPLATE ${name}`);
    const kept = `${reused ? 'kept from an earlier run' : 'loaded now and kept'}, copied in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`;
    const pool = new pg.Pool({ connectionString: cluster.url.replace(/\/postgres$/, `/${run}`), max: 4 });
    return { dialect: 'postgres', db: pool, loadSeconds, kept, close: () => pool.end() };
  } finally {
    await admin.end();
  }
}

const search = (loaded: Loaded, params: Record<string, unknown>) => runSearch(loaded.db, loaded.dialect, SCOPE, parseSearchParams(params, FIELDS));

/** The cursor that starts at record `depth` of a query (fetched outside the timing). */
async function deepCursor(loaded: Loaded, params: Record<string, unknown>, depth: number): Promise<string | null> {
  let cursor: string | null = null;
  for (let seen = 0; seen < depth;) {
    const page = await search(loaded, { ...params, limit: Math.min(10_000, depth - seen), cursor });
    seen += page.hits.length;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return cursor;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

/** Per shape: p50 and p95 in ms, and the hit ids of the last run (to compare the backends). */
type ShapeResult = [number, number, string[]];

/** One backend at one size: load time, the one-off fill of each sorted path's keys, and every shape's percentiles. */
interface BackendResult {
  loadSeconds: number;
  kept?: string;
  fills: string[];
  rows: Map<string, ShapeResult>;
}

/**
 * Times every shape, round-robin (run r of every shape, then run r + 1), so a burst of load from
 * elsewhere on the machine spreads over the shapes instead of landing on one. Two warm-up rounds;
 * a shape stops after BUDGET_MS of samples once it has 3.
 */
async function timeShapes(loaded: Loaded, shapes: readonly Shape[]): Promise<Map<string, ShapeResult>> {
  const requests = new Map<string, Record<string, unknown>>();
  for (const { name, params, depth } of shapes) requests.set(name, { ...params, cursor: depth ? await deepCursor(loaded, params, depth) : null });
  const samples = new Map<string, number[]>(shapes.map(({ name }) => [name, []]));
  const ids = new Map<string, string[]>();
  for (let run = 0; run < RUNS + 2; run++) {
    for (const { name } of shapes) {
      const taken = samples.get(name) as number[];
      if (taken.length >= 3 && taken.reduce((a, b) => a + b, 0) > BUDGET_MS) continue;
      const t0 = performance.now();
      const result = await search(loaded, requests.get(name) as Record<string, unknown>);
      const elapsed = performance.now() - t0;
      if (run >= 2) taken.push(elapsed);
      ids.set(
        name,
        result.hits.map((hit) => hit.id),
      );
    }
  }
  const rows = new Map<string, ShapeResult>();
  for (const [name, taken] of samples) {
    const sorted = [...taken].sort((a, b) => a - b);
    rows.set(name, [percentile(sorted, 50), percentile(sorted, 95), ids.get(name) ?? []]);
  }
  return rows;
}

/**
 * The first sorted search of each sorted path (or pair of paths: the first two sort keys) fills
 * its kept keys (once): timed here, outside the shapes' timings.
 */
async function fillSortKeys(loaded: Loaded, shapes: readonly Shape[]): Promise<string[]> {
  const fills: string[] = [];
  const done = new Set<string>();
  for (const { params } of shapes) {
    const sort = (params.query as { sort?: Record<string, string>[] }).sort?.slice(0, 2);
    const paths = sort?.map((key) => Object.entries(key)[0]?.join(' ')).join(', ');
    if (!sort || !paths || done.has(paths)) continue;
    done.add(paths);
    const t0 = performance.now();
    await search(loaded, { query: { sort }, limit: 1 });
    fills.push(`${paths} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return fills;
}

async function benchLoaded(loaded: Loaded, shapes: readonly Shape[]): Promise<BackendResult> {
  try {
    const fills = await fillSortKeys(loaded, shapes);
    return { loadSeconds: loaded.loadSeconds, ...(loaded.kept ? { kept: loaded.kept } : {}), fills, rows: await timeShapes(loaded, shapes) };
  } finally {
    await loaded.close();
  }
}

const fmt = (ms: number | undefined) => (ms === undefined ? '-' : ms.toFixed(2)).padStart(8);

/** One size's table: p50/p95 per shape and backend, whether both found the same hits, and the shapes that miss the goal. */
function printSize(size: number, shapes: readonly Shape[], results: Partial<Record<SearchDialect, BackendResult>>): void {
  const { sqlite, postgres } = results;
  console.log(`\nsearch: ${size.toLocaleString('en-US')} records, ${shapes.length} query shapes, up to ${RUNS} runs each, round-robin (ms)`);
  for (const [name, result] of Object.entries(results)) {
    const kept = result.kept ? ` (${result.kept})` : '';
    console.log(`  ${name}: loaded in ${result.loadSeconds.toFixed(1)} s${kept}; sort keys filled (once, on first sorted search): ${result.fills.join(', ')}`);
  }
  console.log(`${'shape'.padEnd(20)} ${'sqlite p50'.padStart(10)} ${'p95'.padStart(8)} ${'pg p50'.padStart(8)} ${'p95'.padStart(8)}  hits`);
  for (const { name } of shapes) {
    const s = sqlite?.rows.get(name);
    const p = postgres?.rows.get(name);
    const same = !s || !p ? '' : s[2].join() === p[2].join() ? ', same on both' : ', DIFFERENT HITS';
    const miss = [s && (s[0] > GOAL_P50 || s[1] > GOAL_P95) ? 'sqlite' : '', p && (p[0] > GOAL_P50 || p[1] > GOAL_P95) ? 'pg' : ''].filter(Boolean);
    const goal = miss.length > 0 ? `  misses p50<=${GOAL_P50}/p95<=${GOAL_P95} on ${miss.join(', ')}` : '';
    console.log(`${name.padEnd(20)} ${fmt(s?.[0]).padStart(10)} ${fmt(s?.[1])} ${fmt(p?.[0])} ${fmt(p?.[1])}  ${(s ?? p)?.[2].length ?? 0}${same}${goal}`);
  }
}

/**
 * Growth from one size to the next, tenfold larger: a p50 ratio under 1.6 is constant or
 * logarithmic (log n grows 1.2 to 1.25 times from 10k to 1M; noise hides the difference), 6 and
 * over is linear (10 with no fixed cost), between is in between.
 */
const growthOf = (ratio: number) => (ratio < 1.6 ? 'const/log' : ratio >= 6 ? 'LINEAR' : 'between');

function printGrowth(shapes: readonly Shape[], bySize: Map<number, Partial<Record<SearchDialect, BackendResult>>>): void {
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  if (sizes.length < 2) return;
  console.log(`\ngrowth of p50 between sizes (ratio, and what it means)`);
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const steps = sizes.slice(1).flatMap((size, i) => {
      const before = bySize.get(sizes[i] as number)?.[dialect];
      const after = bySize.get(size)?.[dialect];
      return before && after ? [{ label: `${(sizes[i] as number) / 1000}k->${size / 1000}k`, before, after }] : [];
    });
    if (steps.length === 0) continue;
    console.log(`${dialect.padEnd(20)} ${steps.map((step) => step.label.padStart(24)).join('')}`);
    for (const { name } of shapes) {
      const cells = steps.map(({ before, after }) => {
        const ratio = (after.rows.get(name)?.[0] ?? NaN) / (before.rows.get(name)?.[0] ?? NaN);
        return `${ratio.toFixed(2).padStart(10)} ${growthOf(ratio).padEnd(13)}`;
      });
      console.log(`  ${name.padEnd(18)} ${cells.join('')}`);
    }
  }
}

/** Runs the search benchmark at every size on both backends (SQLite up to SQLITE_MAX) and prints its tables and the growth per shape. */
export async function benchSearch(): Promise<void> {
  const shapes = ONLY ? SHAPES.filter(({ name }) => ONLY.includes(name)) : SHAPES;
  const dir = mkdtempSync(join(tmpdir(), 'ce-bench-search-'));
  const cluster = await startPostgres(PG_KEEP ? { keepIn: PG_KEEP } : {});
  const bySize = new Map<number, Partial<Record<SearchDialect, BackendResult>>>();
  try {
    for (const size of SIZES) {
      const results: Partial<Record<SearchDialect, BackendResult>> = {};
      if (size <= SQLITE_MAX) results.sqlite = await benchLoaded(loadSqlite(join(dir, `search-${size}.db`), size), shapes);
      results.postgres = await benchLoaded(await loadPostgres(cluster, size), shapes);
      bySize.set(size, results);
      printSize(size, shapes, results);
      rmSync(join(dir, `search-${size}.db`), { force: true });
    }
    printGrowth(shapes, bySize);
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchSearch().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

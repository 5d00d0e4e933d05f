/**
 * Search micro-benchmark: ingests 100,000 generated task records into the record table of each
 * backend (SQLite file, throwaway PostgreSQL), then times every query shape below 20 times each and
 * prints p50/p95 per shape for both backends side by side, plus the ingest rate. It also checks
 * that both backends return the same hits for every shape (a timing of a wrong answer is
 * worthless). Everything it creates is removed at the end.
 *
 * Run: npm run bench:search (alone) or npm run bench (after the other benchmarks).
 * Env: BENCH_SEARCH_RECORDS (default 100000), BENCH_SEARCH_RUNS (default 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseSearchParams, runSearch, type FieldType, type SearchScope } from '../engine/search/index.js';
import { startPostgres } from '../test/support/postgres.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../test/support/search-records.js';

const RECORDS = Number(process.env.BENCH_SEARCH_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
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

function generate(count: number): Record<string, unknown>[] {
  const next = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const phrase = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return Array.from({ length: count }, (_, i) => ({
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
  }));
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

/** The cursor that starts at record `depth` of a query (fetched outside the timing). */
async function deepCursor(backend: SearchBackend, params: Record<string, unknown>, depth: number): Promise<string | null> {
  let cursor: string | null = null;
  for (let seen = 0; seen < depth;) {
    const page = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams({ ...params, limit: Math.min(10_000, depth - seen), cursor }, FIELDS));
    seen += page.hits.length;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return cursor;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

/** Per shape: p50 and p95 in ms, and the hit ids of the last run (to compare the backends). */
type ShapeResult = [number, number, string[]];

async function benchBackend(backend: SearchBackend, records: Record<string, unknown>[]): Promise<{ ingest: number; rows: Map<string, ShapeResult> }> {
  const started = performance.now();
  for (let i = 0; i < records.length; i += BATCH) await backend.upsert(SCOPE, records.slice(i, i + BATCH), 'gid');
  const ingest = records.length / ((performance.now() - started) / 1000);
  if (backend.dialect === 'postgres') await (backend.db as import('pg').Pool).query('ANALYZE search_records');
  else (backend.db as import('better-sqlite3').Database).exec('ANALYZE');

  const rows = new Map<string, ShapeResult>();
  for (const { name, params, depth } of SHAPES) {
    const cursor = depth ? await deepCursor(backend, params, depth) : null;
    const request = { ...params, cursor };
    const samples: number[] = [];
    let ids: string[] = [];
    for (let run = 0; run < RUNS + 2; run++) {
      const t0 = performance.now();
      const result = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams(request, FIELDS));
      const elapsed = performance.now() - t0;
      if (run >= 2) samples.push(elapsed); // two warm-up runs
      ids = result.hits.map((hit) => hit.id);
    }
    samples.sort((a, b) => a - b);
    rows.set(name, [percentile(samples, 50), percentile(samples, 95), ids]);
  }
  return { ingest, rows };
}

/** Runs the search benchmark on both backends and prints its table. */
export async function benchSearch(): Promise<void> {
  const records = generate(RECORDS);
  const dir = mkdtempSync(join(tmpdir(), 'ce-bench-search-'));
  const cluster = await startPostgres();
  const results: Record<string, Awaited<ReturnType<typeof benchBackend>>> = {};
  try {
    const sqlite = openSqliteSearchBackend(join(dir, 'search.db'));
    try {
      results.sqlite = await benchBackend(sqlite, records);
    } finally {
      await sqlite.close();
    }
    const postgres = await openPostgresSearchBackend(cluster);
    try {
      results.postgres = await benchBackend(postgres, records);
    } finally {
      await postgres.close();
    }
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const fmt = (ms: number) => ms.toFixed(2).padStart(8);
  console.log(`search: ${RECORDS.toLocaleString('en-US')} records, ${SHAPES.length} query shapes, ${RUNS} runs each (ms)`);
  console.log(`${'shape'.padEnd(20)} ${'sqlite p50'.padStart(10)} ${'p95'.padStart(8)} ${'pg p50'.padStart(8)} ${'p95'.padStart(8)}  hits`);
  for (const { name } of SHAPES) {
    const s = results.sqlite?.rows.get(name) ?? [NaN, NaN, []];
    const p = results.postgres?.rows.get(name) ?? [NaN, NaN, []];
    const same = s[2].join() === p[2].join() ? 'same on both' : 'DIFFERENT HITS';
    console.log(`${name.padEnd(20)} ${fmt(s[0]).padStart(10)} ${fmt(s[1])} ${fmt(p[0])} ${fmt(p[1])}  ${s[2].length}, ${same}`);
  }
  for (const [name, result] of Object.entries(results)) console.log(`ingest ${name}: ${Math.round(result.ingest).toLocaleString('en-US')} records/s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchSearch().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

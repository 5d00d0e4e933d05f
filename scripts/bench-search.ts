/**
 * Search micro-benchmark: ingests 100,000 generated task records into the record table of each
 * backend (SQLite file, throwaway PostgreSQL), then times 20 query shapes 20 times each and prints
 * p50/p95 per shape and backend, plus the ingest rate. Everything it creates is removed at the end.
 *
 * Run: npx tsc -p tsconfig.build.json && node dist/scripts/bench-search.js
 * Env: BENCH_SEARCH_RECORDS (default 100000), BENCH_SEARCH_RUNS (default 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseSearchParams, runSearch, type FieldType, type SearchScope } from '../engine/search/index.js';
import { startPostgres } from '../test/support/postgres.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../test/support/search-records.js';

const RECORDS = Number(process.env.BENCH_SEARCH_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 20);
const BATCH = 2000;
const SCOPE: SearchScope = { connectorId: 'bench', entity: 'tasks' };
const FIELDS: Record<string, FieldType> = {
  gid: 'string', name: 'string', notes: 'string', num_likes: 'integer', ratio: 'number', completed: 'boolean',
  due_on: 'string', assignee: 'object', tags: 'array', followers: 'array',
};

const WORDS = ['alpha', 'budget', 'review', 'quarterly', 'report', 'launch', 'customer', 'design', 'migration', 'invoice',
  'planning', 'roadmap', 'sprint', 'bug', 'feature', 'release', 'audit', 'hiring', 'onboarding', 'security'];
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

const SHAPES: Array<[string, Record<string, unknown>]> = [
  ['eq string', { query: { filter: { eq: { gid: '1050000' } } }, limit: 100 }],
  ['eq boolean', { query: { filter: { eq: { completed: true } } }, limit: 100 }],
  ['in integer', { query: { filter: { in: { num_likes: [1, 17, 42, 77, 99] } } }, limit: 100 }],
  ['range integer', { query: { filter: { and: [{ gte: { num_likes: 10 } }, { lt: { num_likes: 12 } }] } }, limit: 100 }],
  ['range string', { query: { filter: { and: [{ gte: { due_on: '2024-03-01' } }, { lte: { due_on: '2024-03-02' } }] } }, limit: 100 }],
  ['like %infix%', { query: { filter: { like: { name: '%roadmap sprint%' } } }, limit: 100 }],
  ['like prefix%', { query: { filter: { like: { name: 'security audit%' } } }, limit: 100 }],
  ['fuzzy', { query: { filter: { fuzzy: { name: 'quartrly reprot' } } }, limit: 100 }],
  ['keyword', { query: { filter: { keyword: { notes: 'invoice hiring' } } }, limit: 100 }],
  ['and/or/not', { query: { filter: { and: [{ eq: { completed: false } }, { or: [{ eq: { tags: 'urgent' } }, { gt: { ratio: 99 } }] }, { not: { eq: { 'assignee.gid': 'u1' } } }] } }, limit: 100 }],
  ['deep nest', { query: { filter: { or: [{ and: [{ eq: { tags: 'ops' } }, { not: { lt: { num_likes: 90 } } }] }, { and: [{ like: { name: 'launch%' } }, { not: { or: [{ eq: { completed: true } }, { eq: { assignee: null } }] } }] }] } }, limit: 100 }],
  ['sort integer desc', { query: { sort: [{ num_likes: 'desc' }] }, limit: 100 }],
  ['sort 2 keys', { query: { filter: { eq: { completed: true } }, sort: [{ due_on: 'asc' }, { name: 'desc' }] }, limit: 100 }],
  ['array-any', { query: { filter: { eq: { tags: 'legal' } } }, limit: 100 }],
  ['array of objects', { query: { filter: { eq: { 'followers.gid': 'u42' } } }, limit: 100 }],
  ['object path eq', { query: { filter: { eq: { 'assignee.gid': 'u7' } } }, limit: 100 }],
  ['object path like', { query: { filter: { like: { 'assignee.name': 'dee rel%' } } }, limit: 100 }],
  ['projection 1000', { query: { filter: { eq: { completed: false } } }, fields: ['name', 'assignee.gid'], limit: 1000 }],
  ['deep page by id', { query: {}, limit: 100 }],
  ['deep page by score', { query: { filter: { keyword: { name: 'release design' } } }, limit: 100 }],
];

/** The cursor that starts at record `depth` of a query (fetched outside the timing). */
async function deepCursor(backend: SearchBackend, params: Record<string, unknown>, depth: number): Promise<string | null> {
  let cursor: string | null = null;
  for (let seen = 0; seen < depth; ) {
    const page = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams({ ...params, limit: Math.min(10_000, depth - seen), cursor }, FIELDS));
    seen += page.hits.length;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return cursor;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

async function benchBackend(backend: SearchBackend, records: Record<string, unknown>[]): Promise<{ ingest: number; rows: Map<string, [number, number, number]> }> {
  const started = performance.now();
  for (let i = 0; i < records.length; i += BATCH) await backend.upsert(SCOPE, records.slice(i, i + BATCH), 'gid');
  const ingest = records.length / ((performance.now() - started) / 1000);
  if (backend.dialect === 'postgres') await (backend.db as import('pg').Pool).query('ANALYZE search_records');
  else (backend.db as import('better-sqlite3').Database).exec('ANALYZE');

  const rows = new Map<string, [number, number, number]>();
  for (const [name, params] of SHAPES) {
    const cursor = name.startsWith('deep page') ? await deepCursor(backend, params, Math.floor(records.length / 2)) : null;
    const request = { ...params, cursor };
    const samples: number[] = [];
    let hits = 0;
    for (let run = 0; run < RUNS + 2; run++) {
      const t0 = performance.now();
      const result = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams(request, FIELDS));
      const elapsed = performance.now() - t0;
      if (run >= 2) samples.push(elapsed); // two warm-up runs
      hits = result.hits.length;
    }
    samples.sort((a, b) => a - b);
    rows.set(name, [percentile(samples, 50), percentile(samples, 95), hits]);
  }
  return { ingest, rows };
}

async function main(): Promise<void> {
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
  console.log(`search benchmark: ${RECORDS} records, ${RUNS} runs per shape (ms)`);
  console.log(`${'shape'.padEnd(20)} ${'sqlite p50'.padStart(10)} ${'p95'.padStart(8)} ${'pg p50'.padStart(8)} ${'p95'.padStart(8)}  hits`);
  for (const [name] of SHAPES) {
    const s = results.sqlite?.rows.get(name) ?? [NaN, NaN, 0];
    const p = results.postgres?.rows.get(name) ?? [NaN, NaN, 0];
    console.log(`${name.padEnd(20)} ${fmt(s[0]).padStart(10)} ${fmt(s[1])} ${fmt(p[0])} ${fmt(p[1])}  ${s[2]}/${p[2]}`);
  }
  for (const [name, result] of Object.entries(results)) console.log(`ingest ${name}: ${Math.round(result.ingest)} records/s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Sync ingest benchmark (issue 15, ingest): a first-pass sync of HubSpot contacts through the
 * library, `connect('hubspot', {store}).sync({entities: ['contacts'], full: true})`, against a raw
 * loop over the same data into the same table, on SQLite and on PostgreSQL, interleaved over
 * BENCH_SYNC_ROUNDS rounds (the side that goes first alternates), each run on a fresh database.
 *
 * The raw loop (scripts/bench-sync-raw.ts), precisely:
 * - reads what the pass reads from the same fake, with got: the contact property definitions
 *   (GET /crm/v3/properties/contacts, less hidden and archived ones), then every live and then
 *   every archived contact, `limit=100&associations=companies&properties=<all of them>`, paged with
 *   the `after` cursor, one page at a time, each awaited;
 * - shapes each record into the JSON the engine stores (the sync plan's searchable fields in
 *   order, `companies` plucked from the associations), JSON.stringify once;
 * - every 500 records (the pass's batch), writes them in one transaction with one statement
 *   prepared once: SQLite, one connection (WAL, synchronous=NORMAL), `INSERT` run per row in
 *   `BEGIN IMMEDIATE ... COMMIT`; PostgreSQL, one connection, a named INSERT ... SELECT FROM
 *   unnest($ids::text[], $data::jsonb[]) in BEGIN ... COMMIT;
 * - writes the same columns as the engine (connector_id, entity, id, data, updated_at,
 *   sync_generation), into a table the store created (same schema, same indexes), so the text
 *   index is built by the same triggers (SQLite) or generated column (PostgreSQL): the cheapest
 *   correct way, since the schema computes it once per record either way.
 * Timed on both: everything from the first request to the last commit (the engine's also saves
 * its sync state and sweeps, and opens and migrates the store: the library is given its URL, as
 * the README shows). Not timed: creating the raw loop's schema (through openStore).
 *
 * Each round checks the two copies hold the same rows (ids and data) and give the same search
 * answers (a `like` and a `keyword` search through engine/search), so a timing is never of a wrong
 * copy. Also printed: the engine's rewrite pass (a second full pass over the same data).
 * The fakes run in a process of their own, as real upstreams are elsewhere.
 *
 * Run: node dist/scripts/bench-sync.js (alone), or npm run bench (with the others).
 * Env: BENCH_SYNC_RECORDS (HubSpot `records`, default 20000: 20,400 contacts live and archived),
 * BENCH_SYNC_ROUNDS (default 3), BENCH_SYNC_BACKENDS (default `sqlite,postgres`),
 * BENCH_SYNC_SIDES (default `engine,raw`; one side alone is for profiling).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { connect } from '../engine/index.js';
import type { UpstreamInfo } from '../engine/sandbox/index.js';
import { parseSearchParams, searchRecords } from '../engine/search/index.js';
import { openStore, type Store } from '../engine/store/index.js';
import { startPostgres, type PostgresCluster } from '../test/support/postgres.js';
import { startUpstreamsProcess } from './bench-load-child.js';
import { COPY_ID, postgresWriter, rawPass, sqliteWriter } from './bench-sync-raw.js';

const CONTACTS = Number(process.env.BENCH_SYNC_RECORDS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 3);
const BACKENDS = (process.env.BENCH_SYNC_BACKENDS ?? 'sqlite,postgres').split(',') as Backend[];
const SIDES = (process.env.BENCH_SYNC_SIDES ?? 'engine,raw').split(',') as Side[];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

type Backend = 'sqlite' | 'postgres';
type Side = 'engine' | 'raw';

interface Run {
  records: number;
  rate: number;
  store: Store;
}

interface Figures {
  records: number;
  engine: number[];
  raw: number[];
  rewrite: number[];
}

/** A fresh database of the backend: its URL. */
async function freshUrl(backend: Backend, dir: string, cluster: PostgresCluster | undefined, name: string): Promise<string> {
  return backend === 'sqlite' ? `sqlite:${join(dir, `${name}.db`)}` : cluster!.createDatabase();
}

/**
 * The engine's first full pass (timed), then its rewrite pass (timed apart), with the store given
 * as a URL the way the README shows, so the library opens (and migrates) it within the first pass.
 */
async function enginePass(info: UpstreamInfo, url: string, figures: Figures): Promise<Run> {
  const hubspot = connect('hubspot', { credentials: info.credentials, baseUrl: info.base_url, store: url, rateLimit: false });
  try {
    const rates: number[] = [];
    let records = 0;
    for (let pass = 0; pass < 2; pass++) {
      const started = performance.now();
      const [state] = await hubspot.sync({ entities: ['contacts'], full: true });
      if (state?.status !== 'succeeded') throw new Error(`sync failed: ${state?.last_error}`);
      records = state.records;
      rates.push(records / ((performance.now() - started) / 1000));
    }
    figures.rewrite.push(rates[1]!);
    return { records, rate: rates[0]!, store: await openStore(url) };
  } finally {
    await hubspot.close();
  }
}

/** The raw loop into a database the store created the schema of (not timed). */
async function rawRun(backend: Backend, url: string, info: UpstreamInfo): Promise<Run> {
  const store = await openStore(url);
  const generation = Date.now();
  const started = performance.now();
  let records: number;
  if (backend === 'sqlite') {
    const writer = sqliteWriter(url.slice('sqlite:'.length), generation);
    records = await rawPass(info, writer.write);
    writer.close();
  } else {
    const writer = await postgresWriter(url, generation);
    records = await rawPass(info, writer.write);
    await writer.close();
  }
  return { records, rate: records / ((performance.now() - started) / 1000), store };
}

/** The copy's rows as `id data` lines, in id order. */
async function rows(store: Store): Promise<string[]> {
  const out: string[] = [];
  const request = (cursor?: string) =>
    parseSearchParams({ query: {}, limit: 1000, ...(cursor ? { cursor } : {}) }, { id: 'string', properties: 'object', companies: 'array' });
  for (let cursor: string | undefined; ;) {
    const page = await searchRecords(store, { connectorId: COPY_ID, entity: 'contacts' }, request(cursor));
    for (const hit of page.hits) out.push(`${hit.id} ${JSON.stringify(hit.data)}`);
    if (!page.next_cursor) return out.sort();
    cursor = page.next_cursor;
  }
}

/** Ids a text search finds, sorted: the text indexes answer it. */
async function found(store: Store, query: Record<string, unknown>): Promise<string> {
  const request = parseSearchParams({ query: { filter: query }, limit: 100 }, { id: 'string', properties: 'object', companies: 'array' });
  const page = await searchRecords(store, { connectorId: COPY_ID, entity: 'contacts' }, request);
  return page.hits
    .map((hit) => hit.id)
    .sort()
    .join(',');
}

/** Text searches on values the copy holds: a word of a last name, an email's domain, a misspelled city. */
function textQueries(lines: string[]): Array<Record<string, unknown>> {
  const props = (line: string | undefined) =>
    (JSON.parse(line?.slice(line.indexOf(' ') + 1) ?? '{}') as { properties?: Record<string, string> }).properties ?? {};
  const [first, second, third] = [props(lines[0]), props(lines[1]), props(lines[2])];
  const city = second.city ?? 'boston';
  return [
    { keyword: { 'properties.lastname': (first.lastname ?? 'smith').split(' ')[0] } },
    { like: { 'properties.email': `%${(third.email ?? '@example.com').slice((third.email ?? '@').indexOf('@'))}` } },
    { fuzzy: { 'properties.city': city.slice(0, 1) + city.slice(2) } },
  ];
}

/** Fails the benchmark unless both copies hold the same rows and answer text searches alike. */
async function checkSame(engine: Run, raw: Run): Promise<void> {
  if (engine.records !== raw.records) throw new Error(`engine wrote ${engine.records} records, the raw loop ${raw.records}`);
  const [a, b] = [await rows(engine.store), await rows(raw.store)];
  if (a.length !== engine.records || a.join('\n') !== b.join('\n')) throw new Error('the engine and the raw loop copies differ');
  for (const query of textQueries(a)) {
    const [x, y] = [await found(engine.store, query), await found(raw.store, query)];
    if (x === '' || x !== y) throw new Error(`search ${JSON.stringify(query)} answers differently: engine [${x.slice(0, 80)}], raw [${y.slice(0, 80)}]`);
  }
}

async function round(backend: Backend, index: number, ctx: { dir: string; cluster?: PostgresCluster; info: UpstreamInfo }, figures: Figures): Promise<void> {
  const sides = index % 2 === 0 ? SIDES : [...SIDES].reverse();
  const runs: Partial<Record<Side, Run>> = {};
  for (const side of sides) {
    const url = await freshUrl(backend, ctx.dir, ctx.cluster, `${side}-${index}`);
    runs[side] = side === 'engine' ? await enginePass(ctx.info, url, figures) : await rawRun(backend, url, ctx.info);
    figures[side].push(runs[side].rate);
    figures.records = runs[side].records;
    console.log(`  [${backend} round ${index + 1}] ${side} ${rate(runs[side].rate)} records/s`);
  }
  try {
    if (runs.engine && runs.raw) await checkSame(runs.engine, runs.raw);
  } finally {
    for (const run of Object.values(runs)) await run.store.close();
  }
}

function report(backend: Backend, figures: Figures): void {
  const ratios = figures.engine.map((engine, i) => engine / (figures.raw[i] ?? NaN));
  const list = (values: number[]) => values.map(rate).join(' / ');
  console.log(`${backend}: ${figures.records.toLocaleString('en-US')} records a pass, ${figures.engine.length} rounds (records/s per round)`);
  console.log(`  engine first pass  ${list(figures.engine)}  median ${rate(median(figures.engine))}`);
  console.log(`  raw loop           ${list(figures.raw)}  median ${rate(median(figures.raw))}`);
  console.log(`  engine/raw ratio   ${ratios.map((r) => r.toFixed(2)).join(' / ')}  median ${median(ratios).toFixed(2)} (goal >= 0.90)`);
  console.log(`  engine rewrite     ${list(figures.rewrite)}  median ${rate(median(figures.rewrite))}`);
}

/** Runs the sync ingest benchmark and prints its figures. */
export async function benchSync(): Promise<void> {
  const upstreams = await startUpstreamsProcess(CONTACTS);
  const cluster = BACKENDS.includes('postgres') ? await startPostgres() : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ce-bench-sync-'));
  try {
    const info = upstreams.upstreams.hubspot!;
    console.log('sync ingest: first pass of HubSpot contacts through the library vs a raw got + prepared-insert loop (scripts/bench-sync.ts)');
    for (const backend of BACKENDS) {
      const figures: Figures = { records: 0, engine: [], raw: [], rewrite: [] };
      for (let i = 0; i < ROUNDS; i++) await round(backend, i, { dir, ...(cluster ? { cluster } : {}), info }, figures);
      report(backend, figures);
    }
  } finally {
    await cluster?.stop();
    await upstreams.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchSync();

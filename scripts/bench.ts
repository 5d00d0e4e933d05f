/**
 * `npm run bench`: every figure of issue 15 in one run, each a ratio or a percentile measured side
 * by side in that run (timings are never asserted in tests; they are read here). Each part also
 * runs alone (`node dist/scripts/bench-<part>.js`) and names its environment knobs in its header.
 *
 * 1. The in-process call (scripts/bench-call.ts): `execute('contacts', 'list', {limit: 100})`
 *    against hand-written got and the official HubSpot SDK's getPage(100); `records()` over
 *    100,000 contacts against a got paging loop; a 200 MiB download against got.stream, with RSS.
 * 2. The hosted path (scripts/bench-hosted.ts): POST execute under autocannon (50 connections)
 *    against a bare fastify passthrough of the same upstream call.
 * 3. Search (scripts/bench-search.ts): p50/p95 of every query shape at 10k, 100k and 1M records
 *    on PostgreSQL (SQLite up to 100k), with the growth per shape.
 * 4. Ingest (scripts/bench-sync.ts): the library's first sync pass against a raw paging loop that
 *    inserts with one prepared statement per batch, per backend.
 * 5. Sync under load (scripts/bench-sync-load.ts): the hosted service idle and during a full pass.
 * 6. The OAuth code exchange (scripts/bench-oauth.ts) against a hand-written form POST.
 */
import { benchCall } from './bench-call.js';
import { benchHosted } from './bench-hosted.js';
import { benchOauth } from './bench-oauth.js';
import { benchSearch } from './bench-search.js';
import { benchSync } from './bench-sync.js';
import { benchSyncLoad } from './bench-sync-load.js';

const PARTS: Array<[string, () => Promise<void>]> = [
  ['call', benchCall],
  ['hosted', benchHosted],
  ['search', benchSearch],
  ['ingest', benchSync],
  ['sync-load', benchSyncLoad],
  ['oauth', benchOauth],
];

/** BENCH_PARTS=call,hosted runs only those parts (all by default), for a shorter run while working on one. */
const wanted = new Set((process.env.BENCH_PARTS ?? PARTS.map(([name]) => name).join(',')).split(','));

for (const [name, run] of PARTS) {
  if (!wanted.has(name)) continue;
  console.log(`\n=== ${name} (${new Date().toISOString()})`);
  await run();
}

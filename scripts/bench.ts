/**
 * `npm run bench`: measurements side by side in one run, printed as ratios. Timings are never
 * asserted in tests; they are read here.
 *
 * 1. Per-call overhead: `execute('contacts', 'list', {limit: 100})` against a hand-written got
 *    call for the same request on the HubSpot sandbox, interleaved so both see the same machine.
 * 2. Hosted cost: the same call through the hosted service (HTTP, token check, store lookup) and
 *    its hosted client, against the in-process library.
 * 3. Streaming memory: resident memory growth while a 200 MiB attachment streams through.
 * 4. Search: p50/p95 of every query shape over 100,000 records on SQLite and PostgreSQL, and
 *    their ingest rates (scripts/bench-search.ts, also `npm run bench:search` alone).
 * 5. Sync ingest: records/s of a real HubSpot pass through the library into each backend.
 * 6. Sync under load: execute latency, event-loop delay and download throughput of the hosted
 *    service idle and during a full sync pass in the same process, as ratios
 *    (scripts/bench-sync-load.ts, also `npm run bench:load` alone).
 */
import got from 'got';
import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../engine/index.js';
import { startHostedService } from '../engine/hosted/index.js';
import { LARGE_ATTACHMENT_SIZE, startSandbox } from '../engine/sandbox/index.js';
import { hashSecret } from '../engine/store/index.js';
import { benchSearch } from './bench-search.js';
import { benchSync } from './bench-sync.js';
import { benchSyncLoad } from './bench-sync-load.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
const WARMUP = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function summary(samples: number[]): { p50: number; p95: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function perCallOverhead(): Promise<void> {
  const sandbox = await startSandbox({ rateLimits: false });
  const hubspot = sandbox.upstreams.hubspot!;
  const token = String(hubspot.credentials.access_token);
  const engine = connect('hubspot', { credentials: hubspot.credentials, baseUrl: hubspot.base_url, rateLimit: false });
  const url = `${hubspot.base_url}/crm/v3/objects/contacts?limit=100`;
  const handWritten = async () => {
    const body = await got(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }).json<{ results: unknown[] }>();
    if (body.results.length !== 100) throw new Error('hand-written call got a short page');
  };
  const viaEngine = async () => {
    const result = await engine.execute('contacts', 'list', { limit: 100 });
    if ((result.data as unknown[]).length !== 100) throw new Error('engine got a short page');
  };
  for (let i = 0; i < WARMUP; i++) {
    await viaEngine();
    await handWritten();
  }
  const engineTimes: number[] = [];
  const gotTimes: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    // Alternate which goes first so neither always gets the warmer socket.
    if (i % 2 === 0) {
      engineTimes.push(await timed(viaEngine));
      gotTimes.push(await timed(handWritten));
    } else {
      gotTimes.push(await timed(handWritten));
      engineTimes.push(await timed(viaEngine));
    }
  }
  await sandbox.close();
  const e = summary(engineTimes);
  const g = summary(gotTimes);
  const fmt = (n: number) => n.toFixed(3);
  console.log(`per-call overhead: contacts list limit=100 on the HubSpot sandbox, ${ITERATIONS} interleaved calls each`);
  console.log(`  engine execute   p50 ${fmt(e.p50)} ms  p95 ${fmt(e.p95)} ms  mean ${fmt(e.mean)} ms`);
  console.log(`  hand-written got p50 ${fmt(g.p50)} ms  p95 ${fmt(g.p95)} ms  mean ${fmt(g.mean)} ms`);
  console.log(`  ratio engine/got p50 ${(e.p50 / g.p50).toFixed(2)}x  mean ${(e.mean / g.mean).toFixed(2)}x  (overhead p50 ${fmt(e.p50 - g.p50)} ms)`);
}

async function interleave(label: string, a: [string, () => Promise<unknown>], b: [string, () => Promise<unknown>], iterations: number): Promise<void> {
  for (let i = 0; i < WARMUP; i++) {
    await a[1]();
    await b[1]();
  }
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < iterations; i++) {
    if (i % 2 === 0) {
      first.push(await timed(a[1]));
      second.push(await timed(b[1]));
    } else {
      second.push(await timed(b[1]));
      first.push(await timed(a[1]));
    }
  }
  const x = summary(first);
  const y = summary(second);
  const fmt = (n: number) => n.toFixed(3);
  console.log(`${label}, ${iterations} interleaved calls each`);
  console.log(`  ${a[0].padEnd(16)} p50 ${fmt(x.p50)} ms  p95 ${fmt(x.p95)} ms  mean ${fmt(x.mean)} ms`);
  console.log(`  ${b[0].padEnd(16)} p50 ${fmt(y.p50)} ms  p95 ${fmt(y.p95)} ms  mean ${fmt(y.mean)} ms`);
  console.log(`  ratio ${a[0]}/${b[0]} p50 ${(x.p50 / y.p50).toFixed(2)}x  mean ${(x.mean / y.mean).toFixed(2)}x`);
}

async function hostedCost(): Promise<void> {
  const sandbox = await startSandbox({ rateLimits: false });
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  const service = await startHostedService({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-')), 'engine.db')}`,
    port: 0,
    secret: 'bench',
    upstreams,
    logger: false,
    clientRateLimits: false,
  });
  try {
    const secret = 'bench-secret';
    const client = await service.store.createClient({ name: 'bench', secretHash: await hashSecret(secret) });
    const info = sandbox.upstreams.hubspot!;
    const tokenAnswer = await got
      .post(`${service.url}/v1/auth/token`, { json: { client_id: client.client_id, client_secret: secret, external_user_id: 'bench' } })
      .json<{ access_token: string }>();
    await got.post(`${service.url}/v1/integrations/connectors`, {
      headers: { authorization: `Bearer ${tokenAnswer.access_token}` },
      json: { external_user_id: 'bench', connector_type: 'hubspot', credentials: info.credentials },
    });
    const hosted = connect('hubspot', { hosted: { baseUrl: service.url, externalUserId: 'bench', clientId: client.client_id, clientSecret: secret } });
    const local = connect('hubspot', { credentials: info.credentials, baseUrl: info.base_url, rateLimit: false });
    await interleave(
      'hosted cost: contacts list limit=100, hosted client + service vs in-process library',
      ['hosted', () => hosted.execute('contacts', 'list', { limit: 100 })],
      ['in-process', () => local.execute('contacts', 'list', { limit: 100 })],
      Math.round(ITERATIONS / 2),
    );
  } finally {
    await service.close();
    await sandbox.close();
  }
}

async function streamingMemory(): Promise<void> {
  const sandbox = await startSandbox({ rateLimits: false });
  try {
    const info = sandbox.upstreams.asana!;
    const asana = connect('asana', { credentials: info.credentials, baseUrl: info.base_url, allowOrigins: info.allow_origins, rateLimit: false });
    const gid = sandbox.fakes.asana.anchors.attachments.large;
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let total = 0;
    const started = performance.now();
    for await (const chunk of await asana.execute('attachments', 'download', { attachment_gid: gid })) {
      total += chunk.length;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const seconds = (performance.now() - started) / 1000;
    if (total !== LARGE_ATTACHMENT_SIZE) throw new Error(`streamed ${total} bytes, expected ${LARGE_ATTACHMENT_SIZE}`);
    console.log(`streaming memory: ${(total / 1048576).toFixed(0)} MiB attachment (fake and engine in one process)`);
    console.log(`  rss growth ${((peak - baseline) / 1048576).toFixed(1)} MiB, ${(total / 1048576 / seconds).toFixed(0)} MiB/s`);
  } finally {
    await sandbox.close();
  }
}

await perCallOverhead();
await hostedCost();
await streamingMemory();
await benchSearch();
await benchSync();
await benchSyncLoad();

/**
 * `npm run bench`: measurements side by side in one run, printed as ratios. Timings are never
 * asserted in tests; they are read here.
 *
 * 1. Per-call overhead: `execute('contacts', 'list', {limit: 100})` against a hand-written got
 *    call for the same request on the HubSpot sandbox, interleaved so both see the same machine.
 */
import got from 'got';
import { performance } from 'node:perf_hooks';
import { connect } from '../engine/index.js';
import { startSandbox } from '../engine/sandbox/index.js';

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

await perCallOverhead();

/**
 * The in-process call path (issue 15), each figure a ratio measured side by side in one run,
 * interleaved, over 3 rounds; medians and ranges are printed. The upstreams run in a process of
 * their own (scripts/bench-load-upstreams.ts), so this process's CPU and memory are the client's.
 *
 * 1. Per-call overhead: `execute('contacts', 'list', {limit: 100})` against a hand-written got call
 *    of the same request, against the official HubSpot client (`crm.contacts.basicApi.getPage(100)`
 *    with `basePath` on the fake), and against a bare `undici.request` (the client the engine sends
 *    with, so engine/undici is the engine's own cost), with each side's CPU per call. Goals:
 *    engine/got <= 1.05, engine/SDK <= 0.9.
 * 2. `records()` over 100,000 contacts against a hand-written got loop paging with `after`:
 *    records/s ratio (goal >= 0.95) and each side's RSS growth.
 * 3. Downloads: the 200 MiB Asana attachment through the engine against `got.stream` of the
 *    download_url the same attachment read gives: MiB/s ratio (goal >= 0.95), the engine's RSS
 *    growth (goal < 64 MiB) and each side's CPU per MiB.
 *
 * Run: node dist/scripts/bench-call.js (alone) or through npm run bench.
 * Env: BENCH_CALL_ITERATIONS (calls per side per round, default 300), BENCH_CALL_RECORDS
 * (contacts for records(), default 100000), BENCH_CALL_ROUNDS (default 3).
 */
import { Client } from '@hubspot/api-client';
import got from 'got';
import { Agent, request } from 'undici';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { connect } from '../engine/index.js';
import { LARGE_ATTACHMENT_SIZE, type UpstreamInfo } from '../engine/sandbox/index.js';
import { startUpstreamsProcess } from './bench-load-child.js';

const ITERATIONS = Number(process.env.BENCH_CALL_ITERATIONS ?? 300);
const RECORDS = Number(process.env.BENCH_CALL_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_CALL_ROUNDS ?? 3);
const WARMUP = 50;
const MIB = 1024 * 1024;

// A full collection before each measured pass, so one side's garbage is not counted in the other's RSS.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

interface Side {
  name: string;
  run: () => Promise<unknown>;
  times: number[];
  cpuUs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function spread(values: number[], digits = 2): string {
  return `median ${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)})`;
}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function timedSide(side: Side): Promise<void> {
  const cpu = cpuNow();
  const start = performance.now();
  await side.run();
  side.times.push(performance.now() - start);
  side.cpuUs += cpuNow() - cpu;
}

/** One round of calls, the sides' order rotated on every iteration so none always goes first. */
async function callRound(sides: Side[]): Promise<void> {
  for (const side of sides) {
    side.times = [];
    side.cpuUs = 0;
  }
  for (let i = 0; i < ITERATIONS; i++) {
    for (let k = 0; k < sides.length; k++) await timedSide(sides[(i + k) % sides.length] as Side);
  }
}

function hubspotSides(hubspot: UpstreamInfo): Side[] {
  const token = String(hubspot.credentials.access_token);
  const engine = connect('hubspot', { credentials: hubspot.credentials, baseUrl: hubspot.base_url, rateLimit: false });
  const sdk = new Client({ accessToken: token, basePath: hubspot.base_url });
  const url = `${hubspot.base_url}/crm/v3/objects/contacts?limit=100`;
  const undiciAgent = new Agent({ keepAliveTimeout: 10_000 });
  const expectPage = (length: number, who: string) => {
    if (length !== 100) throw new Error(`${who} got a page of ${length} records, expected 100`);
  };
  const side = (name: string, run: () => Promise<unknown>): Side => ({ name, run, times: [], cpuUs: 0 });
  return [
    side('engine', async () => expectPage((await engine.execute('contacts', 'list', { limit: 100 })).data.length, 'engine')),
    side('got', async () => {
      const body = await got(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }).json<{ results: unknown[] }>();
      expectPage(body.results.length, 'hand-written got');
    }),
    side('sdk', async () => expectPage((await sdk.crm.contacts.basicApi.getPage(100)).results.length, 'HubSpot SDK')),
    side('undici', async () => {
      const answer = await request(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, dispatcher: undiciAgent });
      expectPage((JSON.parse(await answer.body.text()) as { results: unknown[] }).results.length, 'bare undici.request');
    }),
  ];
}

/** Per-call overhead: engine vs hand-written got vs the official HubSpot client vs bare undici. */
async function perCall(hubspot: UpstreamInfo): Promise<void> {
  const sides = hubspotSides(hubspot);
  const [engine, handGot, sdk, undici] = sides as [Side, Side, Side, Side];
  for (let i = 0; i < WARMUP; i++) for (const side of sides) await side.run();
  const ratios = {
    got: [] as number[],
    sdk: [] as number[],
    undici: [] as number[],
    gotMean: [] as number[],
    cpuGot: [] as number[],
    cpuSdk: [] as number[],
    cpuUndici: [] as number[],
  };
  console.log(`per-call: contacts list limit=100 on the HubSpot fake, ${ITERATIONS} calls per side per round, order rotated per call`);
  for (let round = 1; round <= ROUNDS; round++) {
    await callRound(sides);
    const cpu = (side: Side) => side.cpuUs / ITERATIONS;
    const row = sides.map(
      (side) => `${side.name} p50 ${median(side.times).toFixed(3)} ms p95 ${percentile(side.times, 95).toFixed(3)} ms cpu ${cpu(side).toFixed(0)} µs`,
    );
    console.log(`  round ${round}: ${row.join(' | ')}`);
    ratios.got.push(median(engine.times) / median(handGot.times));
    ratios.gotMean.push(engine.times.reduce((a, b) => a + b, 0) / handGot.times.reduce((a, b) => a + b, 0));
    ratios.sdk.push(median(engine.times) / median(sdk.times));
    ratios.cpuGot.push(cpu(engine) / cpu(handGot));
    ratios.cpuSdk.push(cpu(engine) / cpu(sdk));
    ratios.undici.push(median(engine.times) / median(undici.times));
    ratios.cpuUndici.push(cpu(engine) / cpu(undici));
  }
  console.log(`  engine/got p50 ratio ${spread(ratios.got)}, mean ratio ${spread(ratios.gotMean)}  (goal <= 1.05)`);
  console.log(`  engine/SDK p50 ratio ${spread(ratios.sdk)}  (goal <= 0.9)`);
  console.log(`  engine/undici.request p50 ratio ${spread(ratios.undici)}  (the engine's own cost over the client it sends with)`);
  console.log(`  CPU per call engine/got ${spread(ratios.cpuGot)}, engine/SDK ${spread(ratios.cpuSdk)}, engine/undici ${spread(ratios.cpuUndici)}`);
}

interface Pass {
  records: number;
  seconds: number;
  rssGrowthMiB: number;
}

/** Counts what `pull` yields, sampling RSS every 100 records. */
async function measurePass(pull: (onRecord: () => void) => Promise<void>): Promise<Pass> {
  collect();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let records = 0;
  const start = performance.now();
  await pull(() => {
    if (++records % 100 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  });
  return { records, seconds: (performance.now() - start) / 1000, rssGrowthMiB: (peak - baseline) / MIB };
}

/** records() over every contact against a hand-written got loop paging with `after`. */
async function recordsPasses(hubspot: UpstreamInfo): Promise<void> {
  const token = String(hubspot.credentials.access_token);
  const engine = connect('hubspot', { credentials: hubspot.credentials, baseUrl: hubspot.base_url, rateLimit: false });
  const viaEngine = (onRecord: () => void) =>
    (async () => {
      for await (const record of engine.records('contacts', 'list', { limit: 100 })) if (record) onRecord();
    })();
  const viaGot = async (onRecord: () => void) => {
    let after: string | undefined;
    do {
      const body = await got(`${hubspot.base_url}/crm/v3/objects/contacts`, {
        searchParams: { limit: 100, ...(after ? { after } : {}) },
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      }).json<{ results: unknown[]; paging?: { next?: { after?: string } } }>();
      for (const record of body.results) if (record) onRecord();
      after = body.paging?.next?.after;
    } while (after);
  };
  const ratios: number[] = [];
  console.log(`records(): ${RECORDS.toLocaleString('en-US')} contacts, pages of 100, engine and got loop alternating first`);
  for (let round = 1; round <= ROUNDS; round++) {
    const order: Array<['engine' | 'got', typeof viaGot]> =
      round % 2 === 1
        ? [
            ['engine', viaEngine],
            ['got', viaGot],
          ]
        : [
            ['got', viaGot],
            ['engine', viaEngine],
          ];
    const passes: Record<string, Pass> = {};
    for (const [name, pull] of order) passes[name] = await measurePass(pull);
    const [e, g] = [passes.engine as Pass, passes.got as Pass];
    if (e.records !== RECORDS || g.records !== RECORDS) throw new Error(`read ${e.records} (engine) and ${g.records} (got) records, expected ${RECORDS}`);
    const rate = (pass: Pass) => pass.records / pass.seconds;
    ratios.push(rate(e) / rate(g));
    console.log(
      `  round ${round}: engine ${Math.round(rate(e))} records/s rss +${e.rssGrowthMiB.toFixed(1)} MiB | got ${Math.round(rate(g))} records/s rss +${g.rssGrowthMiB.toFixed(1)} MiB`,
    );
  }
  console.log(`  records() / got loop throughput ${spread(ratios)}  (goal >= 0.95)`);
}

interface Transfer {
  bytes: number;
  seconds: number;
  cpuUs: number;
  rssGrowthMiB: number;
}

async function measureTransfer(open: () => Promise<AsyncIterable<Uint8Array>>): Promise<Transfer> {
  collect();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let bytes = 0;
  let chunks = 0;
  const cpu = cpuNow();
  const start = performance.now();
  for await (const chunk of await open()) {
    bytes += chunk.length;
    if (++chunks % 64 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  const transfer = { bytes, seconds: (performance.now() - start) / 1000, cpuUs: cpuNow() - cpu, rssGrowthMiB: (peak - baseline) / MIB };
  if (bytes !== LARGE_ATTACHMENT_SIZE) throw new Error(`streamed ${bytes} bytes, expected ${LARGE_ATTACHMENT_SIZE}`);
  return transfer;
}

/** The 200 MiB attachment through the engine against got.stream of the same fresh download_url. */
async function downloads(asana: UpstreamInfo, gid: string): Promise<void> {
  const engine = connect('asana', { credentials: asana.credentials, baseUrl: asana.base_url, allowOrigins: asana.allow_origins, rateLimit: false });
  const token = String(asana.credentials.token ?? asana.credentials.access_token);
  const viaEngine = () => engine.execute('attachments', 'download', { attachment_gid: gid });
  // The same two steps by hand: read the attachment for a fresh download_url, then stream it.
  const viaGot = async () => {
    const answer = await got(`${asana.base_url}/attachments/${gid}`, { headers: { authorization: `Bearer ${token}` } }).json<{
      data: { download_url: string };
    }>();
    return got.stream(answer.data.download_url);
  };
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const growth: number[] = [];
  console.log(`downloads: ${LARGE_ATTACHMENT_SIZE / MIB} MiB attachment, engine and got.stream alternating first`);
  for (let round = 1; round <= ROUNDS; round++) {
    const order: Array<['engine' | 'got', () => Promise<AsyncIterable<Uint8Array>>]> =
      round % 2 === 1
        ? [
            ['engine', viaEngine],
            ['got', viaGot],
          ]
        : [
            ['got', viaGot],
            ['engine', viaEngine],
          ];
    const done: Record<string, Transfer> = {};
    for (const [name, open] of order) done[name] = await measureTransfer(open);
    const [e, g] = [done.engine as Transfer, done.got as Transfer];
    const mibs = (t: Transfer) => t.bytes / MIB / t.seconds;
    const cpuPerMib = (t: Transfer) => t.cpuUs / (t.bytes / MIB);
    ratios.push(mibs(e) / mibs(g));
    cpuRatios.push(cpuPerMib(e) / cpuPerMib(g));
    growth.push(e.rssGrowthMiB);
    console.log(
      `  round ${round}: engine ${mibs(e).toFixed(0)} MiB/s cpu ${cpuPerMib(e).toFixed(0)} µs/MiB rss +${e.rssGrowthMiB.toFixed(1)} MiB | got.stream ${mibs(g).toFixed(0)} MiB/s cpu ${cpuPerMib(g).toFixed(0)} µs/MiB rss +${g.rssGrowthMiB.toFixed(1)} MiB`,
    );
  }
  console.log(`  engine/got.stream throughput ${spread(ratios)}  (goal >= 0.95); CPU per MiB engine/got ${spread(cpuRatios)}`);
  console.log(`  engine RSS growth ${spread(growth, 1)} MiB  (goal < 64)`);
}

/** Prints the call-path figures of issue 15 (per call, SDK, records(), downloads) as ratios. */
export async function benchCall(): Promise<void> {
  const upstreams = await startUpstreamsProcess(RECORDS);
  try {
    const hubspot = upstreams.upstreams.hubspot as UpstreamInfo;
    await perCall(hubspot);
    await recordsPasses(hubspot);
    await downloads(upstreams.upstreams.asana as UpstreamInfo, upstreams.largeAttachment);
  } finally {
    await upstreams.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchCall().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

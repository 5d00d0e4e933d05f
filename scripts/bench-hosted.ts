/**
 * Hosted throughput: `POST /api/v1/connectors/sources/{id}/execute` (HubSpot contacts list,
 * limit 10) of `connector-engine serve --no-rate-limits` against a bare fastify passthrough of the
 * same upstream call (scripts/bench-hosted-passthrough.ts), both driven by autocannon with 50
 * connections. The fake upstream, the service and the passthrough each run in a process of their
 * own; the two sides take turns (a b a b a b) so both see the same machine. Prints per run req/s,
 * p50/p99 latency, errors and non-2xx answers, and the server's CPU per request (its own
 * process.cpuUsage: prom-client's process_cpu_seconds_total for the service, GET /cpu for the
 * passthrough), then the medians and ranges of the ratios.
 *
 * Run: node dist/scripts/bench-hosted.js (after npm run build), or as part of npm run bench.
 * Env: BENCH_HOSTED_SECONDS (default 20) per run, BENCH_HOSTED_ROUNDS (default 3),
 * BENCH_HOSTED_DATABASE_URL (default a fresh SQLite file), BENCH_HOSTED_PROFILE_DIR (the service and
 * the passthrough run under --cpu-prof and write their profiles to its service/ and passthrough/
 * folders when they stop).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { UpstreamInfo } from '../engine/sandbox/index.js';
import { hashSecret, openStore } from '../engine/store/index.js';

const SECONDS = Number(process.env.BENCH_HOSTED_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_HOSTED_ROUNDS ?? 3);
const CONNECTIONS = 50;
const USER = 'bench-hosted-user';
const CLI = fileURLToPath(new URL('../engine/cli/main.js', import.meta.url));

/** A child process of the benchmark and the first stdout line that says it is ready. */
interface Child {
  child: ChildProcess;
  stdoutBytes: () => number;
  /** Ends the child: closing its stdin (the helper scripts), or SIGTERM (serve, which then writes its --cpu-prof profile). */
  stop(): Promise<void>;
}

/** Starts `node args`, resolves once `ready` matches a stdout line (answering its match); the rest of stdout is read and counted, never kept. */
function startChild(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  stopWith: 'stdin' | 'SIGTERM',
): Promise<{ proc: Child; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  let bytes = 0;
  const proc: Child = {
    child,
    stdoutBytes: () => bytes,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        if (stopWith === 'SIGTERM') child.kill('SIGTERM');
        else child.stdin!.end();
      }),
  };
  return new Promise((resolve, reject) => {
    let matched = false;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      bytes += line.length + 1;
      const match = matched ? null : ready.exec(line);
      if (match) {
        matched = true;
        resolve({ proc, match });
      }
    });
    child.once('exit', (code) => {
      if (!matched) reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`));
    });
  });
}

/** One JSON call's answer text; throws on an error status, so the benchmark never measures a broken set-up. */
async function text(url: string, method: string, token: string | undefined, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${answer.slice(0, 300)}`);
  return answer;
}

async function json(url: string, method: string, token: string | undefined, body: unknown): Promise<Record<string, unknown>> {
  return JSON.parse(await text(url, method, token, body)) as Record<string, unknown>;
}

/** Node's --cpu-prof flags for one side when BENCH_HOSTED_PROFILE_DIR is set: each side writes its profile under <dir>/<side> when it stops. */
function profiling(side: 'service' | 'passthrough'): string[] {
  const dir = process.env.BENCH_HOSTED_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, side)}`] : [];
}

/** The service: `serve --no-rate-limits --no-sync` on its own database, routed to the fake, with a platform client, a token and a HubSpot connector. */
async function startService(upstream: UpstreamInfo, databaseUrl: string): Promise<{ proc: Child; url: string; token: string; connectorId: string }> {
  const args = [...profiling('service'), CLI, 'serve', '--port', '0', '--no-rate-limits', '--no-sync'];
  const { proc, match } = await startChild(
    args,
    { ENGINE_DATABASE_URL: databaseUrl, ENGINE_SECRET: 'bench-hosted-secret', ENGINE_UPSTREAM_HUBSPOT: upstream.base_url, ENGINE_LOG_LEVEL: 'info' },
    /connector-engine listening on (http:\/\/\S+?)"/,
    'SIGTERM',
  );
  const url = match[1]!;
  const store = await openStore(databaseUrl);
  const secret = 'bench-hosted-client-secret';
  const client = await store.createClient({ name: 'bench-hosted', secretHash: await hashSecret(secret) }).finally(() => store.close());
  const { access_token: token } = await json(`${url}/v1/auth/token`, 'POST', undefined, {
    client_id: client.client_id,
    client_secret: secret,
    external_user_id: USER,
  });
  const created = await json(`${url}/v1/integrations/connectors`, 'POST', String(token), {
    external_user_id: USER,
    connector_type: 'hubspot',
    credentials: upstream.credentials,
  });
  return { proc, url, token: String(token), connectorId: String(created.id) };
}

/** Seconds of CPU the service has used, from its own process.cpuUsage() as prom-client exports it. */
async function serviceCpuSeconds(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = /^process_cpu_seconds_total (\S+)$/m.exec(text);
  if (!line) throw new Error('the service exported no process_cpu_seconds_total');
  return Number(line[1]);
}

async function passthroughCpuSeconds(url: string): Promise<number> {
  const usage = (await (await fetch(`${url}/cpu`)).json()) as NodeJS.CpuUsage;
  return (usage.user + usage.system) / 1e6;
}

/** What one side is driven with. */
interface Side {
  name: string;
  url: string;
  token: string;
  cpuSeconds: () => Promise<number>;
}

/** One autocannon run's figures. */
interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpuMsPerRequest: number;
}

async function drive(side: Side, connectorId: string, seconds: number): Promise<Run> {
  const cpuBefore = await side.cpuSeconds();
  const result = await autocannon({
    url: `${side.url}/api/v1/connectors/sources/${connectorId}/execute`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${side.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity: 'contacts', action: 'list', params: { limit: 10 } }),
  });
  const cpuAfter = await side.cpuSeconds();
  const answered = result['2xx'];
  return {
    rps: answered / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMsPerRequest: answered > 0 ? ((cpuAfter - cpuBefore) * 1000) / answered : NaN,
  };
}

/** Both sides answer 10 contacts before anything is timed (a timing of a wrong answer is worthless). */
async function checkAnswers(service: Side, passthrough: Side, connectorId: string): Promise<string> {
  const body = { entity: 'contacts', action: 'list', params: { limit: 10 } };
  const path = `/api/v1/connectors/sources/${connectorId}/execute`;
  const engineText = await text(service.url + path, 'POST', service.token, body);
  const bareText = await text(passthrough.url + path, 'POST', passthrough.token, body);
  const engine = JSON.parse(engineText) as { data: Array<{ id: string }> };
  const bare = JSON.parse(bareText) as { results: Array<{ id: string }> };
  const ids = (records: Array<{ id: string }>) => records.map((record) => record.id).join();
  if (engine.data.length !== 10 || ids(engine.data) !== ids(bare.results)) throw new Error('the service and the passthrough answered different contacts');
  return `answers the same 10 contacts: service ${Buffer.byteLength(engineText)} bytes, passthrough ${Buffer.byteLength(bareText)} bytes`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function printRun(name: string, round: number, run: Run): void {
  console.log(
    `  ${name.padEnd(11)} run ${round}: ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  ` +
      `errors ${run.errors}  non-2xx ${run.non2xx}  server CPU ${run.cpuMsPerRequest.toFixed(3)} ms/request`,
  );
}

function printSummary(service: Run[], passthrough: Run[], logBytes: number): void {
  const ratios = service.map((run, i) => run.rps / passthrough[i]!.rps);
  const cpuRatios = service.map((run, i) => run.cpuMsPerRequest / passthrough[i]!.cpuMsPerRequest);
  const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)} to ${Math.max(...values).toFixed(digits)}`;
  const errors = [...service, ...passthrough].reduce((sum, run) => sum + run.errors + run.non2xx, 0);
  const requests = service.reduce((sum, run) => sum + run.rps * SECONDS, 0);
  console.log(`  throughput service/passthrough: median ${median(ratios).toFixed(2)} (${range(ratios, 2)} over ${ratios.length} runs; goal >= 0.8)`);
  console.log(
    `  server CPU per request: service median ${median(service.map((r) => r.cpuMsPerRequest)).toFixed(3)} ms, passthrough ` +
      `${median(passthrough.map((r) => r.cpuMsPerRequest)).toFixed(3)} ms (ratio ${median(cpuRatios).toFixed(2)}, ${range(cpuRatios, 2)})`,
  );
  console.log(`  errors and non-2xx answers, both sides, all runs: ${errors} (goal 0); service log output ${(logBytes / requests).toFixed(0)} bytes/request`);
}

/** The benchmark (see the file comment). */
export async function benchHosted(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-hosted-'));
  const databaseUrl = process.env.BENCH_HOSTED_DATABASE_URL ?? `sqlite:${join(dir, 'engine.db')}`;
  const upstreamScript = fileURLToPath(new URL('./bench-hosted-upstream.js', import.meta.url));
  const passthroughScript = fileURLToPath(new URL('./bench-hosted-passthrough.js', import.meta.url));
  const children: Child[] = [];
  try {
    const upstream = await startChild([upstreamScript], {}, /^\{.*\}$/, 'stdin');
    children.push(upstream.proc);
    const info = JSON.parse(upstream.match[0]) as UpstreamInfo;
    const service = await startService(info, databaseUrl);
    children.push(service.proc);
    const bearer = String(info.credentials.access_token);
    const passthrough = await startChild([...profiling('passthrough'), passthroughScript, info.base_url, bearer], {}, /^(http:\/\/\S+)$/, 'stdin');
    children.push(passthrough.proc);
    const sides: [Side, Side] = [
      { name: 'service', url: service.url, token: service.token, cpuSeconds: () => serviceCpuSeconds(service.url) },
      { name: 'passthrough', url: passthrough.match[1]!, token: service.token, cpuSeconds: () => passthroughCpuSeconds(passthrough.match[1]!) },
    ];
    const answers = await checkAnswers(sides[0], sides[1], service.connectorId);
    console.log(
      `hosted throughput: contacts list limit=10, autocannon ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds (${databaseUrl.split(':')[0]})`,
    );
    console.log(`  ${answers}`);
    // Warm-up (JIT, sockets, caches), not reported.
    for (const side of sides) await drive(side, service.connectorId, Math.min(3, SECONDS));
    const runs: [Run[], Run[]] = [[], []];
    const logBefore = service.proc.stdoutBytes();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [index, side] of sides.entries()) {
        const run = await drive(side, service.connectorId, SECONDS);
        runs[index]!.push(run);
        printRun(side.name, round, run);
      }
    }
    printSummary(runs[0], runs[1], service.proc.stdoutBytes() - logBefore);
  } finally {
    for (const proc of children.reverse()) await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchHosted().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findManifest } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { killAll, platformToken, startServe, waitFor, type ServeProcess } from '../support/sync-processes.js';

/**
 * Issue 11 part 4: a connector's rate limit holds across server processes. Two real `serve`
 * processes on one database drive one Gong connector as fast as their callers can against the
 * sandbox's Gong fake, which enforces Gong's real limit (3 calls per rolling second, API-NOTES C.2,
 * the manifest's `http.rate_limit`): the fake must answer no 429, and the two together must reach
 * the limit (within 10%), not twice it and not far under it.
 */

const SECRET = 'shared-rate-limit-secret';
/** Callers per process, each sending its next execute as soon as the last one is answered. */
const CALLERS_PER_PROCESS = 4;
/** Left out of the measure: the first window, when every slot is free at once. */
const WARM_UP_MS = 1_500;
/** The measured time: twelve windows of Gong's one-second limit. */
const MEASURE_MS = 12_000;

let cluster: PostgresCluster;
let sandbox: Sandbox;

beforeAll(async () => {
  [cluster, sandbox] = await Promise.all([startPostgres(), startSandbox({ records: 50 })]);
}, 120_000);

afterAll(async () => {
  await killAll();
  await sandbox?.close();
  await cluster?.stop();
});

function gongApiAnswers(status: number): number {
  return sandbox.fakes.gong.requests.filter((request) => request.path.startsWith('/v2/') && request.response.status === status).length;
}

/**
 * When the fake answered each successful Gong call, as this process saw its log grow (polled every
 * few ms; the fake runs in this process): the fake's log has no times of its own.
 */
function watchAnswers(): { times: number[]; stop(): void } {
  const times: number[] = [];
  const timer = setInterval(() => {
    const count = gongApiAnswers(200);
    const now = Date.now();
    while (times.length < count) times.push(now);
  }, 2);
  return { times, stop: () => clearInterval(timer) };
}

/**
 * Answers per second over the measured span, from the first answer in it to the last one a whole
 * number of windows' worth of answers later: slots cycle together, so counting from and to the
 * same point of a cycle keeps the measure from gaining or losing a partial burst at its ends.
 */
function throughput(times: number[], from: number, to: number, perWindow: number): { answers: number; spanMs: number; perSecond: number } {
  const inSpan = times.filter((time) => time >= from && time <= to);
  const answers = Math.floor((inSpan.length - 1) / perWindow) * perWindow;
  const spanMs = (inSpan[answers] as number) - (inSpan[0] as number);
  return { answers, spanMs, perSecond: (answers * 1000) / spanMs };
}

describe.each(['postgres', 'sqlite'] as const)('two serve processes on one %s database', (backend) => {
  test('share one Gong account’s limit: no 429 from the upstream, and throughput within 10% of the limit', async () => {
    const databaseUrl = backend === 'postgres' ? await cluster.createDatabase() : `sqlite:${join(mkdtempSync(join(tmpdir(), 'shared-limit-')), 'engine.db')}`;
    const gong = sandbox.upstreams.gong!;
    const env = {
      ENGINE_DATABASE_URL: databaseUrl,
      ENGINE_SECRET: SECRET,
      ENGINE_UPSTREAM_GONG: gong.base_url,
      ENGINE_ALLOW_ORIGINS_GONG: gong.allow_origins.join(','),
    };
    const processes: ServeProcess[] = await Promise.all([startServe(env, ['--no-sync']), startServe(env, ['--no-sync'])]);
    const token = await platformToken(processes[0]!.url, databaseUrl);
    // Unchecked: the check's one read would run before the connector (and its shared budget) exists, so it would not count in the window measured here.
    const created = await call(processes[0]!.url, 'POST', '/v1/integrations/connectors', {
      body: {
        external_user_id: 'u1',
        connector_type: 'gong',
        credentials: gong.credentials_by_scheme.access_key,
        config: gong.config,
        check_credentials: false,
      },
      token,
    });
    expect(created.status).toBe(201);
    const execute = `/api/v1/connectors/sources/${created.body.id}/execute`;

    const limit = findManifest('gong').manifest.http.rate_limit!;
    sandbox.fakes.gong.clearRequests();
    const answered = processes.map(() => 0);
    const failures: unknown[] = [];
    const watch = watchAnswers();
    let running = true;
    const callers = processes.flatMap((proc, index) =>
      Array.from({ length: CALLERS_PER_PROCESS }, async () => {
        while (running) {
          const answer = await call(proc.url, 'POST', execute, { body: { entity: 'users', action: 'list' }, token });
          if (answer.status === 200) answered[index]!++;
          else failures.push(answer.body);
        }
      }),
    );
    try {
      const from = Date.now() + WARM_UP_MS;
      await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS + MEASURE_MS));
      running = false;
      await Promise.all(callers);
      watch.stop();

      const measured = throughput(watch.times, from, from + MEASURE_MS, limit.requests);
      const perSecond = measured.perSecond;
      const limitPerSecond = (limit.requests * 1000) / limit.per_ms;
      const figures = {
        backend,
        processes: processes.length,
        limit: `${limit.requests} per ${limit.per_ms} ms`,
        measured_ms: measured.spanMs,
        upstream_answers_200: measured.answers,
        throughput_per_s: Number(perSecond.toFixed(3)),
        of_limit: `${((perSecond / limitPerSecond) * 100).toFixed(1)}%`,
        upstream_429s: gongApiAnswers(429),
        executes_answered_per_process: answered,
      };
      console.log(`shared rate limit: ${JSON.stringify(figures)}`);
      expect(failures).toEqual([]);
      expect(figures.upstream_429s).toBe(0);
      // Both processes served calls: the budget was shared, not taken by one of them.
      for (const count of answered) expect(count).toBeGreaterThan(0);
      expect(perSecond).toBeGreaterThanOrEqual(limitPerSecond * 0.9);
      expect(perSecond).toBeLessThanOrEqual(limitPerSecond * 1.1);
    } finally {
      running = false;
      watch.stop();
      await Promise.all(callers);
      for (const proc of processes) proc.child.kill('SIGTERM');
      await Promise.all(processes.map((proc) => proc.exited()));
    }
  }, 120_000);
});

test('serve checks the operator’s execute deadline at start', async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'deadline-flag-')), 'engine.db')}`;
  const bad = await runCli(['serve', '--port', '0', '--database-url', databaseUrl, '--execute-deadline-ms', 'soon']);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('--execute-deadline-ms must be a whole number of milliseconds');
  const badEnv = await runCli(['serve', '--port', '0', '--database-url', databaseUrl], undefined, { ENGINE_EXECUTE_DEADLINE_MS: '0' });
  expect(badEnv.code).toBe(1);
  expect(badEnv.stderr).toContain('ENGINE_EXECUTE_DEADLINE_MS must be a whole number of milliseconds');
});

test('a serve process applies ENGINE_EXECUTE_DEADLINE_MS to executes that name no timeout_ms', async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'deadline-env-')), 'engine.db')}`;
  const gong = sandbox.upstreams.gong!;
  const serve = await startServe(
    {
      ENGINE_DATABASE_URL: databaseUrl,
      ENGINE_SECRET: SECRET,
      ENGINE_UPSTREAM_GONG: gong.base_url,
      ENGINE_ALLOW_ORIGINS_GONG: gong.allow_origins.join(','),
      // The deadline also bounds the credentials check of the connector's creation (hosted-context.ts), so it must
      // outlast that check on a loaded machine (150 ms did not, once); the fake's latency then sits well past it.
      ENGINE_EXECUTE_DEADLINE_MS: '1000',
    },
    ['--no-sync'],
  );
  try {
    const token = await platformToken(serve.url, databaseUrl);
    const created = await call(serve.url, 'POST', '/v1/integrations/connectors', {
      body: { external_user_id: 'u1', connector_type: 'gong', credentials: gong.credentials_by_scheme.access_key, config: gong.config },
      token,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const execute = `/api/v1/connectors/sources/${created.body.id}/execute`;
    sandbox.fakes.gong.faults.latency(2500);
    const before = sandbox.fakes.gong.requests.length;
    const late = await call(serve.url, 'POST', execute, { body: { entity: 'users', action: 'list' }, token });
    expect(late.status, JSON.stringify(late.body)).toBe(504);
    expect(late.body.error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', deadline: { deadline_ms: 1000, waiting_for: 'attempt' } });
    const patient = await call(serve.url, 'POST', execute, { body: { entity: 'users', action: 'list', timeout_ms: 8000 }, token });
    expect(patient.status).toBe(200);
    sandbox.fakes.gong.faults.reset();
    await waitFor(() => sandbox.fakes.gong.requests.length >= before + 2, { what: 'the abandoned attempt to finish', timeoutMs: 10_000 });
  } finally {
    sandbox.fakes.gong.faults.reset();
    serve.child.kill('SIGTERM');
    await serve.exited();
  }
}, 60_000);

/**
 * A fuzz of every endpoint of the hosted API (issue 10), on SQLite and PostgreSQL: thousands of
 * generated requests, right and wrong, sent byte for byte. Every answer must come back, never 5xx
 * for what the client sent, always with an x-request-id, errors always in the one shape with the
 * same request_id, no secret anywhere, nothing of the URL or headers echoed, and bounded in time
 * and size. The seed is fixed, so a failure replays; FUZZ_RUNS changes the number of cases.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ERROR_CODES, ERROR_LIMITS } from '../../engine/errors.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { fuzzCases, type FuzzCase, type FuzzTargets } from '../support/fuzz-requests.js';
import { createConnector, expectAnswerShape, startHostileService, syncNow, tokenFor, type HostileService } from '../support/hostile-service.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { sendRaw, type RawHttpAnswer } from '../support/raw-http.js';

const RUNS_PER_BACKEND = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = 1_024_010;
/** Bounds on answers: an error is a few KB at most (20 details, clipped). The slowest answer is printed, not asserted. */
const MAX_ERROR_BYTES = 24 * 1024;
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;
const totals = { cases: 0, byLabel: new Map<string, number>(), byStatus: new Map<number, number>(), upstreamRejections: 0, slowestMs: 0, largestError: 0 };

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 60 });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
  const labels = [...totals.byLabel]
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} ${n}`)
    .join(', ');
  const statuses = [...totals.byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  console.log(
    `fuzz: ${totals.cases} cases in all (${labels}); statuses ${statuses}; upstream rejections (400) ${totals.upstreamRejections}; slowest ${totals.slowestMs.toFixed(0)} ms; largest error ${totals.largestError} bytes`,
  );
});

const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** Everything an answer to a generated request must satisfy. */
function checkAnswer(c: FuzzCase, answer: RawHttpAnswer, secrets: string[], marker: string): void {
  const body = answer.body.toString('utf8');
  const context = `${c.label}: ${c.request.method} ${c.request.target.slice(0, 160)} -> ${answer.status} ${body.slice(0, 400)}`;
  expect(answer.status, context).toBeGreaterThan(0);
  const head = c.request.method === 'HEAD';
  if (head) expect(answer.headers['x-request-id'], context).toMatch(/^[0-9a-f-]{36}$/);
  else expectAnswerShape(answer.status, answer.headers['x-request-id'], body, ERROR_CODES);
  expect(answer.status, `${context}\nis a 5xx`).toBeLessThan(500);
  const error = answer.status >= 400 && !head ? (JSON.parse(body).error as Record<string, any>) : undefined;
  if (error?.code === 'UPSTREAM_REJECTED') totals.upstreamRejections++;
  if (error?.details) expect(error.details.length, context).toBeLessThanOrEqual(ERROR_LIMITS.maxDetails);
  const everything = `${JSON.stringify(answer.headers)}${body}`;
  for (const secret of secrets) expect(everything.includes(secret), `${context}\nholds a secret`).toBe(false);
  expect(everything.includes(marker), `${context}\nechoes the URL or headers`).toBe(false);
  expect(answer.body.length, context).toBeLessThanOrEqual(error ? MAX_ERROR_BYTES : MAX_ANSWER_BYTES);
  if (error) totals.largestError = Math.max(totals.largestError, answer.body.length);
  totals.slowestMs = Math.max(totals.slowestMs, answer.ms);
}

describe.each(['sqlite', 'postgres'] as const)('fuzz of every hosted endpoint on %s', (backend) => {
  let h: HostileService;
  let targets: FuzzTargets;

  beforeAll(async () => {
    if (backend === 'postgres') cluster ??= await startPostgres();
    h = await startHostileService(backend, sandbox, cluster);
    const token = await tokenFor(h, 'fuzz');
    const otherToken = await tokenFor(h, 'someone-else');
    const hubspotId = await createConnector(h, sandbox, token, 'fuzz', 'hubspot');
    await syncNow(h, token, hubspotId);
    targets = {
      token,
      otherToken,
      clientId: h.client.client_id,
      clientSecret: h.client.client_secret,
      hubspotId,
      asanaId: await createConnector(h, sandbox, token, 'fuzz', 'asana'),
      attachmentGid: sandbox.fakes.asana.anchors.attachments.asana,
      patchId: await createConnector(h, sandbox, token, 'fuzz', 'hubspot'),
      syncId: await createConnector(h, sandbox, token, 'fuzz', 'gong'),
      othersId: await createConnector(h, sandbox, otherToken, 'someone-else', 'hubspot'),
      credentials: Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.credentials])),
      configs: Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.config])),
      marker: 'zqxmarker',
    };
  }, 120_000);
  afterAll(() => h?.close());

  test(`${RUNS_PER_BACKEND} generated requests: never 5xx for client input, one error shape, request ids, no secrets, bounded answers`, async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCases(targets), async (c) => {
        const answer = await sendRaw(h.url, c.request);
        totals.cases++;
        count(totals.byLabel, c.label.split(' ')[0] as string);
        count(totals.byStatus, answer.status);
        checkAnswer(c, answer, h.secrets, targets.marker);
      }),
      { numRuns: RUNS_PER_BACKEND, seed: SEED, endOnFailure: true },
    );
    // The service still answers normally afterwards.
    const health = await sendRaw(h.url, { method: 'GET', target: '/healthz' });
    expect(health.status).toBe(200);
  }, 240_000);
});

/**
 * Webhooks end to end (README "Webhooks"): endpoints registered with the CLI, events raised where
 * their facts happen (a create, a sync pass, an OAuth refresh, a refused grant), deliveries signed
 * per Standard Webhooks to a real receiver on loopback, retried on the schedule the manual clock
 * shows, and their state read through the API by their own platform client only. SQLite and PostgreSQL.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type Socket } from 'node:net';
import { createManualClock, type ManualClock } from '../../engine/clock/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { verifyWebhookSignature } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'webhooks-test-engine-secret-0123456789';
const LONG_AGO = '2000-01-01T00:00:00.000Z';
/** Small, distinct delays, so the asserted schedule shows the doubling and the cap. */
const RETRY = { maxAttempts: 3, baseDelayMs: 2_000, maxDelayMs: 3_000 };
const POLL_MS = 600_000;
const ATTEMPT_TIMEOUT_MS = 1_000;

let sandbox: Sandbox;
let receiver: WebhookReceiver;
let hostile: HostileReceiver;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  // Few records: a pass is quick, and its counts are read back from the sync status anyway.
  sandbox = await startSandbox({ rateLimits: false, records: 50 });
  receiver = await startWebhookReceiver();
  hostile = await startHostileReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await hostile?.close();
  await sandbox?.close();
  await cluster?.stop();
});

interface Client {
  client_id: string;
  client_secret: string;
}

interface Harness {
  service: HostedService;
  url: string;
  clock: ManualClock;
  databaseUrl: string;
  a: Client;
  b: Client;
  /** Endpoint id -> signing secret, as `webhooks add` printed them. */
  secrets: Map<string, string>;
  endpoints: Record<'a' | 'b' | 'flaky' | 'down' | 'hostile', string>;
}

async function addEndpoint(h: Pick<Harness, 'databaseUrl' | 'secrets'>, client: string, path: string, events?: string): Promise<string> {
  const origin = path.endsWith('/hostile') ? hostile.origin : receiver.origin;
  const args = ['webhooks', 'add', '--client', client, '--url', `${origin}${path}`, '--database-url', h.databaseUrl];
  const added = await runCli(events ? [...args, '--events', events] : args, undefined, { ENGINE_SECRET: SECRET });
  expect(added.stderr).toBe('');
  const endpoint = JSON.parse(added.stdout) as { id: string; secret: string };
  h.secrets.set(endpoint.id, endpoint.secret);
  return endpoint.id;
}

async function startHarness(backend: 'sqlite' | 'postgres'): Promise<Harness> {
  let databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'webhooks-')), 'engine.db')}`;
  if (backend === 'postgres') {
    cluster ??= await startPostgres();
    databaseUrl = await cluster.createDatabase();
  }
  const clock = createManualClock();
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: SECRET,
    upstreams: Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url])),
    allowOrigins: Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.allow_origins])),
    logger: false,
    sync: { background: false },
    webhooks: { allowOrigins: [receiver.origin, hostile.origin], pollMs: POLL_MS, retry: RETRY, attemptTimeoutMs: ATTEMPT_TIMEOUT_MS },
    clock,
  });
  const makeClient = async (name: string): Promise<Client> => {
    const client_secret = `ces_${name}_${backend}_secret_0001`;
    const made = await service.store.createClient({ name, secretHash: await hashSecret(client_secret) });
    return { client_id: made.client_id, client_secret };
  };
  const [a, b] = [await makeClient('a'), await makeClient('b')];
  const partial = { databaseUrl, secrets: new Map<string, string>() };
  const tag = backend;
  // Registered at once: each is a CLI process.
  const [ea, eb, flaky, down, hostileId] = await Promise.all([
    addEndpoint(partial, a.client_id, `/${tag}/a`),
    addEndpoint(partial, b.client_id, `/${tag}/b`),
    addEndpoint(partial, a.client_id, `/${tag}/flaky`, 'connector.created'),
    addEndpoint(partial, a.client_id, `/${tag}/down`, 'sync.finished'),
    addEndpoint(partial, a.client_id, `/${tag}/hostile`, 'connector.reauthorization_required'),
  ]);
  const endpoints = { a: ea!, b: eb!, flaky: flaky!, down: down!, hostile: hostileId! };

  return { service, url: service.url, clock, a, b, endpoints, ...partial };
}

async function token(h: Harness, client: Client, user: string): Promise<string> {
  const answer = await call(h, 'POST', '/v1/auth/token', { body: { ...client, external_user_id: user } });
  expect(answer.status).toBe(200);
  return answer.body.access_token;
}

async function createConnector(h: Harness, client: Client, user: string, type: string, credentials?: Record<string, unknown>): Promise<string> {
  const info = sandbox.upstreams[type]!;
  const answer = await call(h, 'POST', '/v1/integrations/connectors', {
    token: await token(h, client, user),
    body: {
      external_user_id: user,
      connector_type: type,
      name: `${type} of ${user}`,
      credentials: credentials ?? info.credentials,
      config: info.config,
      ...(credentials ? { check_credentials: false } : {}),
    },
  });
  expect(answer.status).toBe(201);
  return answer.body.id;
}

/**
 * A receiver that misbehaves at the socket level, one way per request in turn: it never answers,
 * then resets the connection, then redirects (a delivery must not follow it).
 */
interface HostileReceiver {
  origin: string;
  requests: number;
  close(): Promise<void>;
}

async function startHostileReceiver(): Promise<HostileReceiver> {
  const sockets = new Set<Socket>();
  const state = { requests: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      const turn = state.requests++ % 3;
      if (turn === 1) socket.resetAndDestroy();
      else if (turn === 2) socket.end('HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data\r\nContent-Length: 0\r\n\r\n');
      // turn 0: never answers; the attempt's own timeout ends it.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The first delivery to `path` of an event of `type` about `connectorId`. */
function eventAt(path: string, type: string, connectorId: string): Promise<ReceivedWebhook> {
  return receiver.next((r) => r.path === path && r.event.type === type && r.event.data.connector_id === connectorId);
}

/** Waits (real time, bounded) until the delivery matches; the caller asserts on what it returns. */
async function deliveryWhen(h: Harness, client: Client, id: string, done: (d: any) => boolean): Promise<any> {
  const userToken = await token(h, client, 'reader');
  for (let i = 0; i < 400; i++) {
    const answer = await call(h, 'GET', `/v1/webhooks/deliveries/${id}`, { token: userToken });
    expect(answer.status).toBe(200);
    if (done(answer.body)) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`delivery ${id} never reached the expected state`);
}

/** Moves the manual clock to `at` once the worker has scheduled its wake-up for then (so the wake-up is not missed). */
async function advanceTo(h: Harness, at: string): Promise<void> {
  await h.clock.nextWait((w) => w.kind === 'timer' && w.dueAt === Date.parse(at));
  await h.clock.advance(Date.parse(at) - h.clock.now());
}

/** The client's deliveries of one endpoint and event type, through the API. */
async function deliveriesOf(h: Harness, client: Client, endpoint: string, event: string): Promise<any[]> {
  const answer = await call(h, 'GET', `/v1/webhooks/deliveries?event=${event}&limit=100`, { token: await token(h, client, 'reader') });
  expect(answer.status).toBe(200);
  return (answer.body.data as any[]).filter((d) => d.endpoint_id === endpoint);
}

describe.each(['sqlite', 'postgres'] as const)('webhooks on %s', (backend) => {
  let h: Harness;
  const path = (name: string) => `/${backend}/${name}`;

  beforeAll(async () => {
    h = await startHarness(backend);
  }, 120_000);
  afterAll(async () => {
    await h?.service.close();
  });

  test('a connector created through the API sends connector.created, signed with the endpoint secret', async () => {
    const id = await createConnector(h, h.a, 'alice', 'hubspot');
    const got = await eventAt(path('a'), 'connector.created', id);
    expect(got.event.data).toEqual({
      client_id: h.a.client_id,
      external_user_id: 'alice',
      connector_id: id,
      connector_type: 'hubspot',
      name: 'hubspot of alice',
    });
    expect(got.headers['webhook-id']).toBe(got.event.id);
    expect(got.headers['webhook-timestamp']).toBe(String(Math.floor(h.clock.now() / 1000)));
    expect(verifyWebhookSignature(h.secrets.get(h.endpoints.a)!, got.headers, got.body, { now: h.clock.now() })).toBe(true);
    // Another endpoint's secret does not verify it; a tampered body or an old timestamp does not either.
    expect(verifyWebhookSignature(h.secrets.get(h.endpoints.b)!, got.headers, got.body, { now: h.clock.now() })).toBe(false);
    expect(verifyWebhookSignature(h.secrets.get(h.endpoints.a)!, got.headers, got.body.replace('alice', 'mallory'), { now: h.clock.now() })).toBe(false);
    expect(verifyWebhookSignature(h.secrets.get(h.endpoints.a)!, got.headers, got.body, { now: h.clock.now() + 301_000 })).toBe(false);
    expect(verifyWebhookSignature(h.secrets.get(h.endpoints.a)!, got.headers, got.body, { now: h.clock.now() + 301_000, toleranceSeconds: 400 })).toBe(true);
  });

  test('a sync pass sends sync.finished with the records each entity copied', async () => {
    const id = await createConnector(h, h.a, 'bob', 'hubspot');
    const userToken = await token(h, h.a, 'bob');
    expect((await call(h, 'POST', `/api/v1/connectors/sources/${id}/sync`, { token: userToken, body: { full: true } })).status).toBe(202);
    const got = await eventAt(path('a'), 'sync.finished', id);
    const status = await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: userToken });
    const states = status.body.entities as Array<{ entity: string; records: number; mode: string; status: string }>;
    expect(states.length).toBeGreaterThan(0);
    expect(got.event.data.entities).toEqual(Object.fromEntries(states.map((s) => [s.entity, { status: 'succeeded', mode: s.mode, records: s.records }])));
    expect(got.event.data.records).toBe(states.reduce((sum, s) => sum + s.records, 0));
    expect(verifyWebhookSignature(h.secrets.get(h.endpoints.a)!, got.headers, got.body, { now: h.clock.now() })).toBe(true);
  });

  test('a failing sync pass sends sync.failed with the typed code of the failure', async () => {
    const id = await createConnector(h, h.a, 'carol', 'hubspot');
    const userToken = await token(h, h.a, 'carol');
    // A 400 is not retried: the pass fails at once, without waits on the manual clock.
    sandbox.fakes.hubspot.faults.failNext(1, 400);
    try {
      await call(h, 'POST', `/api/v1/connectors/sources/${id}/sync`, { token: userToken, body: { full: true } });
      const got = await eventAt(path('a'), 'sync.failed', id);
      const status = await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: userToken });
      const failed = (status.body.entities as Array<{ entity: string; last_error: string }>).find((s) => s.entity === got.event.data.failed_entity)!;
      expect(failed.last_error.startsWith(`${got.event.data.error.code}: `)).toBe(true);
      expect(got.event.data.error).toEqual({ code: 'UPSTREAM_REJECTED', message: failed.last_error.slice('UPSTREAM_REJECTED: '.length) });
    } finally {
      sandbox.fakes.hubspot.faults.reset();
    }
  });

  test('an OAuth refresh sends credentials.refreshed, with no credential in it', async () => {
    const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
    const refreshToken = sandbox.fakes.gong.issueRefreshToken();
    const id = await createConnector(h, h.a, 'dave', 'gong', { client_id, client_secret, refresh_token: refreshToken, expires_at: LONG_AGO });
    const userToken = await token(h, h.a, 'dave');
    const listed = await call(h, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token: userToken, body: { entity: 'users', action: 'list' } });
    expect(listed.status).toBe(200);
    const got = await eventAt(path('a'), 'credentials.refreshed', id);
    expect(got.event.data).toEqual({ client_id: h.a.client_id, external_user_id: 'dave', connector_id: id, connector_type: 'gong', credentials_version: 2 });
    for (const secret of [String(client_secret), refreshToken, 'access_token', 'refresh_token']) expect(got.body.includes(secret)).toBe(false);
  });

  test('a revoked refresh token sends connector.reauthorization_required once', async () => {
    const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
    const id = await createConnector(h, h.a, 'erin', 'gong', {
      client_id,
      client_secret,
      refresh_token: sandbox.fakes.gong.issueRefreshToken(),
      expires_at: LONG_AGO,
    });
    sandbox.fakes.gong.revokeRefreshToken();
    const userToken = await token(h, h.a, 'erin');
    for (let i = 0; i < 2; i++) {
      const refused = await call(h, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token: userToken, body: { entity: 'users', action: 'list' } });
      expect(refused.body.error.code).toBe('REAUTH_REQUIRED');
    }
    const got = await eventAt(path('a'), 'connector.reauthorization_required', id);
    expect(Object.keys(got.event.data).sort()).toEqual(['client_id', 'connector_id', 'connector_type', 'external_user_id', 'reason']);
    const sent = await deliveriesOf(h, h.a, h.endpoints.a, 'connector.reauthorization_required');
    expect(sent.map((d) => d.event_id)).toEqual([got.event.id]);
    expect(receiver.received.filter((r) => r.event.type === 'connector.reauthorization_required' && r.event.data.connector_id === id)).toHaveLength(1);
  });

  test('a hostile receiver (no answer, reset, redirect) never holds the worker: each attempt ends and the delivery fails', async () => {
    const [delivery] = await deliveriesOf(h, h.a, h.endpoints.hostile, 'connector.reauthorization_required');
    expect(delivery).toBeDefined();
    // The receiver holds the first attempt: it ends when its timeout falls due on the manual clock.
    await h.clock.nextWait((w) => w.kind === 'timer' && w.delayMs === ATTEMPT_TIMEOUT_MS);
    await h.clock.advance(ATTEMPT_TIMEOUT_MS);
    const steps = [
      { attempt: 1, error: `no answer within ${ATTEMPT_TIMEOUT_MS} ms`, code: null },
      { attempt: 2, error: 'connection failed (ECONNRESET)', code: null },
      { attempt: 3, error: 'the endpoint answered 302', code: 302 },
    ];
    for (const step of steps) {
      const state = await deliveryWhen(h, h.a, delivery.id, (d) => d.attempts === step.attempt);
      expect({ error: state.last_error, code: state.last_status_code }).toEqual({ error: step.error, code: step.code });
      if (state.status === 'pending') await advanceTo(h, state.next_attempt_at);
    }
    const failed = await deliveryWhen(h, h.a, delivery.id, (d) => d.attempts === 3);
    expect(failed).toMatchObject({ status: 'failed', next_attempt_at: null });
  });

  test('a receiver answering 500 twice then 200 gets three attempts on the backoff schedule, then the delivery is delivered', async () => {
    receiver.script(path('flaky'), [500, 500]);
    const id = await createConnector(h, h.a, 'frank', 'hubspot');
    await eventAt(path('a'), 'connector.created', id);
    const [delivery] = (await deliveriesOf(h, h.a, h.endpoints.flaky, 'connector.created')).filter((d) => d.status === 'pending' || d.attempts === 0);
    expect(delivery).toBeDefined();
    // Each failed attempt schedules the next one after the policy's delay, as the manual clock shows: 2 s, then 4 s capped at 3 s.
    for (const [attempt, delayMs] of [
      [1, 2_000],
      [2, 3_000],
    ] as const) {
      const state = await deliveryWhen(h, h.a, delivery.id, (d) => d.attempts === attempt);
      expect(state).toMatchObject({ status: 'pending', attempts: attempt, last_status_code: 500, last_error: 'the endpoint answered 500', delivered_at: null });
      expect(Date.parse(state.next_attempt_at) - h.clock.now()).toBe(delayMs);
      const wait = await h.clock.nextWait((w) => w.kind === 'timer' && w.dueAt === Date.parse(state.next_attempt_at));
      expect(wait.delayMs).toBe(delayMs);
      await h.clock.advance(delayMs);
    }
    const done = await deliveryWhen(h, h.a, delivery.id, (d) => d.status !== 'pending');
    expect(done).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, last_error: null, next_attempt_at: null });
    expect(done.delivered_at).toBe(new Date(h.clock.now()).toISOString());
    const attempts = receiver.received.filter((r) => r.path === path('flaky') && r.event.id === delivery.event_id);
    expect(attempts.map((r) => Number(r.headers['webhook-timestamp']) * 1000 - Math.floor(Date.parse(done.created_at) / 1000) * 1000)).toEqual([
      0, 2_000, 5_000,
    ]);
  });

  test('a receiver that always fails gets the maximum number of attempts, then the delivery is failed', async () => {
    receiver.always(path('down'), 503);
    const id = await createConnector(h, h.a, 'grace', 'hubspot');
    await call(h, 'POST', `/api/v1/connectors/sources/${id}/sync`, { token: await token(h, h.a, 'grace'), body: { full: true } });
    await eventAt(path('a'), 'sync.finished', id);
    const event = (await eventAt(path('down'), 'sync.finished', id)).event;
    const [delivery] = (await deliveriesOf(h, h.a, h.endpoints.down, 'sync.finished')).filter((d) => d.event_id === event.id);
    for (const [attempt, delayMs] of [
      [1, 2_000],
      [2, 3_000],
    ] as const) {
      const state = await deliveryWhen(h, h.a, delivery.id, (d) => d.attempts === attempt);
      expect(Date.parse(state.next_attempt_at) - h.clock.now()).toBe(delayMs);
      await advanceTo(h, state.next_attempt_at);
    }
    const failed = await deliveryWhen(h, h.a, delivery.id, (d) => d.status !== 'pending');
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: RETRY.maxAttempts,
      last_status_code: 503,
      last_error: 'the endpoint answered 503',
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(receiver.received.filter((r) => r.path === path('down') && r.event.id === event.id)).toHaveLength(RETRY.maxAttempts);
    const listed = await call(h, 'GET', '/v1/webhooks/deliveries?status=failed', { token: await token(h, h.a, 'reader') });
    expect(listed.body.data.map((d: any) => d.id)).toContain(delivery.id);
  });

  test("each platform client sees only its own deliveries; the other's id answers 404", async () => {
    const idA = await createConnector(h, h.a, 'shared-user', 'hubspot');
    const idB = await createConnector(h, h.b, 'shared-user', 'hubspot');
    const eventB = (await eventAt(path('b'), 'connector.created', idB)).event;
    expect(eventB.data.client_id).toBe(h.b.client_id);
    // Client B's endpoint never hears client A's connectors.
    expect(receiver.received.some((r) => r.path === path('b') && r.event.data.connector_id === idA)).toBe(false);
    const tokenA = await token(h, h.a, 'shared-user');
    const tokenB = await token(h, h.b, 'shared-user');
    const listB = await call(h, 'GET', '/v1/webhooks/deliveries?limit=100', { token: tokenB });
    expect(listB.status).toBe(200);
    expect(listB.body.data.map((d: any) => d.endpoint_id)).toEqual(listB.body.data.map(() => h.endpoints.b));
    const ofB = listB.body.data.find((d: any) => d.event_id === eventB.id);
    expect(ofB).toMatchObject({ event_type: 'connector.created', endpoint_id: h.endpoints.b });
    const listA = await call(h, 'GET', '/v1/webhooks/deliveries?limit=100', { token: tokenA });
    expect(listA.body.data.some((d: any) => d.endpoint_id === h.endpoints.b)).toBe(false);
    const crossed = await call(h, 'GET', `/v1/webhooks/deliveries/${ofB.id}`, { token: tokenA });
    expect(crossed.status).toBe(404);
    expect(crossed.body.error.code).toBe('NOT_FOUND');
    expect((await call(h, 'GET', `/v1/webhooks/deliveries/${ofB.id}`, { token: tokenB })).body).toEqual(ofB);
    expect((await call(h, 'GET', '/v1/webhooks/deliveries')).status).toBe(401);
    const document = (await call(h, 'GET', '/openapi.json')).body;
    expect(Object.keys(document.paths).filter((p: string) => p.startsWith('/v1/webhooks/'))).toEqual([
      '/v1/webhooks/deliveries',
      '/v1/webhooks/deliveries/{id}',
    ]);
    expect(Object.keys(document.components.schemas.WebhookDelivery.properties)).toEqual(Object.keys(ofB));
  });

  test('the listing pages with its cursor, newest first, without repeats or gaps', async () => {
    const userToken = await token(h, h.a, 'reader');
    const all = await call(h, 'GET', '/v1/webhooks/deliveries?limit=100', { token: userToken });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call(h, 'GET', `/v1/webhooks/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: userToken });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((d: any) => d.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((d: any) => d.id));
    expect(seen.length).toBeGreaterThan(4);
  });

  test('fuzzed query parameters get typed errors naming the parameter, never a 500', async () => {
    const userToken = await token(h, h.a, 'reader');
    const names = ['status', 'event', 'limit', 'cursor'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.string({ maxLength: 30 }), async (name, value) => {
        const answer = await call(h, 'GET', `/v1/webhooks/deliveries?${name}=${encodeURIComponent(value)}`, { token: userToken });
        const valid =
          (name === 'status' && ['pending', 'delivered', 'failed'].includes(value)) ||
          (name === 'event' &&
            ['connector.created', 'sync.finished', 'sync.failed', 'credentials.refreshed', 'connector.reauthorization_required'].includes(value)) ||
          (name === 'limit' && /^[0-9]{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 100);
        if (valid) {
          expect(answer.status).toBe(200);
        } else {
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe('INVALID_REQUEST');
          expect(answer.body.error.details).toEqual([{ path: `?${name}`, message: expect.any(String) }]);
        }
      }),
      { numRuns: 60 },
    );
    const repeated = await call(h, 'GET', '/v1/webhooks/deliveries?status=failed&status=pending', { token: userToken });
    expect(repeated.body.error.details).toEqual([{ path: '?status', message: 'must be one of pending, delivered, failed' }]);
  });
});

describe('the webhooks CLI', () => {
  let databaseUrl: string;
  let clientId: string;
  const add = (args: string[]) =>
    runCli(['webhooks', 'add', '--client', clientId, ...args, '--database-url', databaseUrl], undefined, { ENGINE_SECRET: SECRET });

  beforeAll(async () => {
    databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'webhooks-cli-')), 'engine.db')}`;
    clientId = JSON.parse((await runCli(['clients', 'create', '--name', 'cli', '--database-url', databaseUrl])).stdout).client_id;
  });

  test('bad endpoint input gets typed errors naming the option; list shows no secret; remove of an unknown id exits 1', async () => {
    const cases: Array<[string[], string, string]> = [
      [['--url', 'ftp://example.com/hook'], 'INVALID_REQUEST', '--url'],
      [['--url', 'https://user:pw@example.com/hook'], 'INVALID_REQUEST', '--url'],
      [['--url', 'https://example.com/hook#frag'], 'INVALID_REQUEST', '--url'],
      [['--url', 'https://example.com/hook', '--events', 'connector.created,connector.exploded'], 'INVALID_REQUEST', '--events'],
    ];
    const answers = await Promise.all(cases.map(([args]) => add(args)));
    for (const [i, answer] of answers.entries()) {
      expect(answer.code).toBe(1);
      const body = JSON.parse(answer.stderr);
      expect(body.error.code).toBe(cases[i]![1]);
      expect(body.error.details[0].path).toBe(cases[i]![2]);
    }
    const unknown = await runCli(['webhooks', 'add', '--client', 'cli_nobody', '--url', 'https://example.com/h', '--database-url', databaseUrl], undefined, {
      ENGINE_SECRET: SECRET,
    });
    expect(JSON.parse(unknown.stderr).error).toMatchObject({ code: 'NOT_FOUND', details: [{ path: '--client', message: 'is not a platform client' }] });
    const made = JSON.parse((await add(['--url', 'https://example.com/ok', '--events', 'sync.failed'])).stdout);
    expect(made).toMatchObject({ client_id: clientId, url: 'https://example.com/ok', events: ['sync.failed'] });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await runCli(['webhooks', 'list', '--database-url', databaseUrl]);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ id: made.id, client_id: clientId, url: made.url, events: ['sync.failed'], created_at: made.created_at }]);
    const [removed, again] = [
      await runCli(['webhooks', 'remove', made.id, '--database-url', databaseUrl]),
      await runCli(['webhooks', 'remove', made.id, '--database-url', databaseUrl]),
    ];
    expect([removed.code, JSON.parse(removed.stdout)]).toEqual([0, { id: made.id, removed: true }]);
    expect([again.code, JSON.parse(again.stdout)]).toEqual([1, { id: made.id, removed: false }]);
  });

  test('fuzzed --url text is stored as a URL or refused with a typed error, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (text) => {
        const answer = await add(['--url', `http${text}`]);
        if (answer.code === 0) expect(['http:', 'https:']).toContain(new URL(JSON.parse(answer.stdout).url).protocol);
        else expect(JSON.parse(answer.stderr).error.details).toEqual([{ path: '--url', message: expect.any(String) }]);
      }),
      { numRuns: 3 },
    );
  });
});

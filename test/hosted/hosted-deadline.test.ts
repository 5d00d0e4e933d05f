import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, EngineError } from '../../engine/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { waitFor } from '../support/sync-processes.js';

/**
 * Issue 11 part 3 over the hosted API: the execute body's `timeout_ms`, the operator's default
 * (`executeDeadlineMs`, ENGINE_EXECUTE_DEADLINE_MS), and UPSTREAM_TIMEOUT answers that say what
 * the call waited for. Small deadlines against a slow or throttling fake keep real waits short.
 */

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

interface Harness {
  service: HostedService;
  token: string;
  execute: string;
  clientId: string;
  clientSecret: string;
}

async function startHarness(backend: 'sqlite' | 'postgres', executeDeadlineMs?: number): Promise<Harness> {
  let databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'hosted-deadline-')), 'engine.db')}`;
  if (backend === 'postgres') {
    cluster ??= await startPostgres();
    databaseUrl = await cluster.createDatabase();
  }
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: 'hosted-deadline-secret',
    upstreams,
    logger: false,
    sync: { background: false },
    ...(executeDeadlineMs !== undefined ? { executeDeadlineMs } : {}),
  });
  const clientSecret = 'ces_hosted_deadline_secret';
  const client = await service.store.createClient({ name: 'deadline-tests', secretHash: await hashSecret(clientSecret) });
  const token = (await call(service, 'POST', '/v1/auth/token', { body: { client_id: client.client_id, client_secret: clientSecret, external_user_id: 'u1' } }))
    .body.access_token as string;
  const hubspot = sandbox.upstreams.hubspot!;
  const created = await call(service, 'POST', '/v1/integrations/connectors', {
    body: { external_user_id: 'u1', connector_type: 'hubspot', credentials: hubspot.credentials, config: hubspot.config },
    token,
  });
  expect(created.status).toBe(201);
  return { service, token, execute: `/api/v1/connectors/sources/${created.body.id}/execute`, clientId: client.client_id, clientSecret };
}

/**
 * Runs `fn`, which sends one request to the HubSpot fake, with the fake answering after `ms`; then
 * waits until the fake has answered it (also when the call gave up on it), so no abandoned
 * attempt lands in a later test.
 */
async function slowUpstream<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const fake = sandbox.fakes.hubspot;
  const before = fake.requests.length;
  fake.faults.latency(ms);
  try {
    return await fn();
  } finally {
    fake.faults.reset();
    await waitFor(() => fake.requests.length > before, { what: 'the fake to answer the request', timeoutMs: 10_000 });
  }
}

describe.each(['sqlite', 'postgres'] as const)('execute deadlines on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend);
  }, 120_000);
  afterAll(() => h?.service.close());

  test('timeout_ms in the body bounds the call: 504 UPSTREAM_TIMEOUT with what it waited for', async () => {
    const late = await slowUpstream(2500, () =>
      call(h.service, 'POST', h.execute, { body: { entity: 'contacts', action: 'list', params: { limit: 1 }, timeout_ms: 150 }, token: h.token }),
    );
    expect(late.status).toBe(504);
    expect(late.body.error).toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      retryable: true,
      request_id: expect.any(String),
      deadline: { deadline_ms: 150, waiting_for: 'attempt', attempts: 1, retry_after_ms: 0, backoff_ms: 0 },
    });
    expect(late.body.error.message).toContain('150 ms deadline');
    // waiting_for 'attempt' with one attempt: the rate-limit slot was taken before the deadline, and the attempt ran into it.
    const patient = await slowUpstream(300, () =>
      call(h.service, 'POST', h.execute, { body: { entity: 'contacts', action: 'list', params: { limit: 1 }, timeout_ms: 5000 }, token: h.token }),
    );
    expect(patient.status).toBe(200);
    expect(patient.body.data).toHaveLength(1);
  });

  test('a Retry-After longer than timeout_ms answers at once, passing the Retry-After on', async () => {
    sandbox.fakes.hubspot.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 3 });
    const answer = await call(h.service, 'POST', h.execute, {
      body: { entity: 'contacts', action: 'list', params: { limit: 1 }, timeout_ms: 2000 },
      token: h.token,
    });
    sandbox.fakes.hubspot.faults.reset();
    expect(answer.status).toBe(504);
    expect(answer.body.error).toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      retry_after_ms: 3000,
      upstream: { status: 429 },
      deadline: { waiting_for: 'retry_after', needed_ms: 3000, retry_after_ms: 0, attempts: 1 },
    });
    expect(answer.headers.get('retry-after')).toBe('3');
  });

  test('timeout_ms is checked by the body schema', async () => {
    for (const timeout of [0, -5, 1.5, '100', 300_001]) {
      const answer = await call(h.service, 'POST', h.execute, { body: { entity: 'contacts', action: 'list', timeout_ms: timeout }, token: h.token });
      expect(answer.status, JSON.stringify(timeout)).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_REQUEST');
      expect(answer.body.error.details).toEqual([{ path: '/timeout_ms', message: expect.any(String) }]);
    }
  });

  test('the hosted client sends deadlineMs as timeout_ms and rebuilds the deadline report', async () => {
    const hosted = connect('hubspot', { hosted: { baseUrl: h.service.url, externalUserId: 'u1', clientId: h.clientId, clientSecret: h.clientSecret } });
    await hosted.execute('contacts', 'list', { limit: 1 });
    const error = await slowUpstream(600, () =>
      hosted.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 150 }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('UPSTREAM_TIMEOUT');
    expect((error as EngineError).deadline).toMatchObject({ deadline_ms: 150, waiting_for: 'attempt' });
  });
});

describe.each(['sqlite', 'postgres'] as const)('the operator’s execute deadline on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    // The deadline also bounds the connector's credentials check at creation: 1 s outlasts it on a loaded machine.
    h = await startHarness(backend, 1000);
  }, 120_000);
  afterAll(() => h?.service.close());

  test('applies to executes that name no timeout_ms; timeout_ms in the body wins', async () => {
    const late = await slowUpstream(2500, () =>
      call(h.service, 'POST', h.execute, { body: { entity: 'contacts', action: 'list', params: { limit: 1 } }, token: h.token }),
    );
    expect(late.status).toBe(504);
    expect(late.body.error.deadline).toMatchObject({ deadline_ms: 1000, waiting_for: 'attempt' });
    const patient = await slowUpstream(300, () =>
      call(h.service, 'POST', h.execute, { body: { entity: 'contacts', action: 'list', params: { limit: 1 }, timeout_ms: 5000 }, token: h.token }),
    );
    expect(patient.status).toBe(200);
  });
});

test('the OpenAPI document describes timeout_ms and the deadline report', async () => {
  const h = await startHarness('sqlite');
  try {
    const doc = (await (await fetch(`${h.service.url}/openapi.json`)).json()) as any;
    // Every execute variant (ExecuteRequest.<entity>.<action>) takes timeout_ms.
    const bodies = Object.entries(doc.components.schemas as Record<string, { properties: Record<string, unknown> }>).filter(([name]) =>
      /^ExecuteRequest\.[^.]+\.[^.]+$/.test(name),
    );
    expect(bodies).toHaveLength(85);
    for (const [, body] of bodies) expect(body.properties.timeout_ms).toMatchObject({ type: 'integer', minimum: 1, maximum: 300_000 });
    expect(doc.components.schemas.Error.properties.error.properties.deadline.properties).toHaveProperty('waiting_for');
  } finally {
    await h.service.close();
  }
});

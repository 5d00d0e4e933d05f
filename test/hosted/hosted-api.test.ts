import { createManualClock } from '../../engine/clock/index.js';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostedService, TokenIssuer, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret, loadOrCreateKey } from '../../engine/store/index.js';
import { call } from '../support/http-call.js';
import { logLines } from '../support/log-lines.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const SECRET = 'test-engine-secret-0123456789';

interface Harness {
  service: HostedService;
  url: string;
  logs: string[];
  client: { client_id: string; client_secret: string };
  databaseFiles(): Buffer[];
}

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

async function startHarness(backend: 'sqlite' | 'postgres'): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'hosted-'));
  let databaseUrl = `sqlite:${join(dir, 'engine.db')}`;
  if (backend === 'postgres') {
    cluster ??= await startPostgres();
    databaseUrl = await cluster.createDatabase();
  }
  const { stream, lines: logs } = logLines();
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  // As `serve --sandbox` does: the fakes' second origins (Asana's file host) may be reached too.
  const allowOrigins = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.allow_origins]));
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: SECRET,
    upstreams,
    allowOrigins,
    logger: { level: 'info', stream },
    bodyLimit: 64 * 1024,
    // Passes run only when a test asks (POST .../sync), so no background pass takes a test's injected faults.
    sync: { background: false },
  });
  const secret = 'ces_test_secret_value_0001';
  const created = await service.store.createClient({ name: 'tests', secretHash: await hashSecret(secret) });
  return {
    service,
    url: service.url,
    logs,
    client: { client_id: created.client_id, client_secret: secret },
    databaseFiles: () => (backend === 'sqlite' ? readdirSync(dir).map((f) => readFileSync(join(dir, f))) : []),
  };
}

async function token(h: Harness, user: string): Promise<string> {
  const answer = await call(h, 'POST', '/v1/auth/token', { body: { ...h.client, external_user_id: user } });
  expect(answer.status).toBe(200);
  return answer.body.access_token;
}

/** Creates a connector; `checkCredentials: false` stores credentials the fake would refuse (to test what happens at use). */
async function createConnector(h: Harness, user: string, type: string, credentials?: Record<string, unknown>, checkCredentials?: false) {
  const info = sandbox.upstreams[type]!;
  return call(h, 'POST', '/v1/integrations/connectors', {
    token: await token(h, user),
    body: {
      external_user_id: user,
      connector_type: type,
      name: `${type} of ${user}`,
      credentials: credentials ?? info.credentials,
      config: info.config,
      ...(checkCredentials === false ? { check_credentials: false } : {}),
    },
  });
}

describe.each(['sqlite', 'postgres'] as const)('hosted API on %s', (backend) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(backend);
  }, 120_000);
  afterAll(() => h?.service.close());

  test('token: issued for a good client, 401 for a wrong secret or unknown client', async () => {
    const ok = await call(h, 'POST', '/v1/auth/token', { body: { ...h.client, external_user_id: 'u1' } });
    expect(ok.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    const wrong = await call(h, 'POST', '/v1/auth/token', { body: { ...h.client, client_secret: 'nope', external_user_id: 'u1' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHENTICATED');
    const bad = await call(h, 'POST', '/v1/auth/token', { body: { client_id: h.client.client_id } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
    expect(bad.body.error.details).toEqual(expect.arrayContaining([{ path: '/client_secret', message: expect.any(String) }]));
  });

  test('expired, forged and wrong-key tokens are 401', async () => {
    const key = await loadOrCreateKey({ secret: SECRET, dataDir: tmpdir() });
    // Issued on a clock 16 minutes behind: its 15-minute lifetime ended a minute ago.
    const expired = (
      await new TokenIssuer(key, undefined, createManualClock(Date.now() - 16 * 60_000)).issue({ clientId: h.client.client_id, externalUserId: 'u1' })
    ).access_token;
    const otherKey = (await new TokenIssuer(Buffer.alloc(32, 7)).issue({ clientId: h.client.client_id, externalUserId: 'u1' })).access_token;
    const forged = await new SignJWT({ cid: h.client.client_id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setAudience('connector-engine')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('guess'));
    for (const bad of [expired, otherKey, forged, 'not-a-jwt']) {
      const answer = await call(h, 'GET', '/v1/integrations/connectors', { token: bad });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHENTICATED');
    }
    const none = await call(h, 'GET', '/v1/integrations/connectors');
    expect(none.status).toBe(401);
  });

  test('a revoked platform client loses its tokens at once', async () => {
    const secret = 'ces_other_client_secret_01';
    const other = await h.service.store.createClient({ name: 'other', secretHash: await hashSecret(secret) });
    const answer = await call(h, 'POST', '/v1/auth/token', { body: { client_id: other.client_id, client_secret: secret, external_user_id: 'u9' } });
    expect(answer.status).toBe(200);
    await h.service.store.revokeClient(other.client_id);
    const after = await call(h, 'GET', '/v1/integrations/connectors', { token: answer.body.access_token });
    expect(after.status).toBe(401);
  });

  test('connectors: create, list, get, patch, delete; credentials are never returned', async () => {
    const created = await createConnector(h, 'alice', 'hubspot');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^conn_/),
      external_user_id: 'alice',
      connector_type: 'hubspot',
      name: 'hubspot of alice',
      config: {},
      auth_scheme: 'private_app',
      auth: { state: 'active', since: null, reason: null },
      missing_config: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      // Creating a connector makes its first (full) pass due at once.
      sync: { running: false, next_sync_at: expect.any(String), interval_ms: 60 * 60 * 1000 },
    });
    expect(Date.parse(created.body.sync.next_sync_at)).toBeLessThanOrEqual(Date.now());
    const t = await token(h, 'alice');
    const list = await call(h, 'GET', '/v1/integrations/connectors?connector_type=HubSpot', { token: t });
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(created.body.id);
    const one = await call(h, 'GET', `/v1/integrations/connectors/${created.body.id}`, { token: t });
    expect(one.body).toEqual(created.body);
    const patched = await call(h, 'PATCH', `/v1/integrations/connectors/${created.body.id}`, { token: t, body: { name: 'Renamed' } });
    expect(patched.body.name).toBe('Renamed');
    const secret = String(sandbox.upstreams.hubspot!.credentials.access_token);
    for (const answer of [created, list, one, patched]) expect(answer.text).not.toContain(secret);
    const removed = await call(h, 'DELETE', `/v1/integrations/connectors/${created.body.id}`, { token: t });
    expect(removed.status).toBe(204);
    const gone = await call(h, 'GET', `/v1/integrations/connectors/${created.body.id}`, { token: t });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('CONNECTOR_NOT_FOUND');
  });

  test('create refuses credentials matching no scheme (naming the schemes), unknown types, and another user', async () => {
    const shape = await createConnector(h, 'alice', 'hubspot', { api_key: 'x' });
    expect(shape.status).toBe(400);
    expect(shape.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(shape.body.error.message).toContain('private_app {access_token}; oauth {client_id, client_secret, refresh_token}');
    const t = await token(h, 'alice');
    const unknown = await call(h, 'POST', '/v1/integrations/connectors', {
      token: t,
      body: { external_user_id: 'alice', connector_type: 'salesforce', credentials: {} },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('UNKNOWN_CONNECTOR_TYPE');
    const other = await call(h, 'POST', '/v1/integrations/connectors', {
      token: t,
      body: { external_user_id: 'bob', connector_type: 'hubspot', credentials: { access_token: 'x' } },
    });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
  });

  test('tenant isolation: user B cannot read, execute, update or delete A’s connector (404 as for an unknown id)', async () => {
    const created = await createConnector(h, 'alice', 'hubspot');
    const id = created.body.id;
    const bob = await token(h, 'bob');
    const unknownId = 'conn_doesnotexist000000000000';
    for (const target of [id, unknownId]) {
      const answers = [
        await call(h, 'GET', `/v1/integrations/connectors/${target}`, { token: bob }),
        await call(h, 'PATCH', `/v1/integrations/connectors/${target}`, { token: bob, body: { name: 'x' } }),
        await call(h, 'POST', `/api/v1/connectors/sources/${target}/execute`, { token: bob, body: { entity: 'contacts', action: 'list' } }),
        await call(h, 'DELETE', `/v1/integrations/connectors/${target}`, { token: bob }),
      ];
      for (const answer of answers) expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 404, code: 'CONNECTOR_NOT_FOUND' });
    }
    const bobsList = await call(h, 'GET', '/v1/integrations/connectors', { token: bob });
    expect(bobsList.body.data.map((c: { id: string }) => c.id)).not.toContain(id);
    const still = await call(h, 'GET', `/v1/integrations/connectors/${id}`, { token: await token(h, 'alice') });
    expect(still.status).toBe(200);
  });

  test('execute returns what the library returns, and its errors in the error body', async () => {
    const created = await createConnector(h, 'carol', 'hubspot');
    const t = await token(h, 'carol');
    const path = `/api/v1/connectors/sources/${created.body.id}/execute`;
    const list = await call(h, 'POST', path, { token: t, body: { entity: 'contacts', action: 'list', params: { limit: 3 } } });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.meta).toEqual({ has_more: true, next_cursor: expect.any(String), next_link: expect.any(String) });
    const get = await call(h, 'POST', path, { token: t, body: { entity: 'contacts', action: 'get', params: { contactId: list.body.data[0].id } } });
    expect(get.body.data).toEqual(list.body.data[0]);
    const invalid = await call(h, 'POST', path, { token: t, body: { entity: 'contacts', action: 'list', params: { limit: 0 } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      error: {
        code: 'INVALID_PARAMS',
        message: expect.any(String),
        retryable: false,
        details: [{ path: '/limit', message: 'must be >= 1' }],
        request_id: invalid.headers.get('x-request-id'),
      },
    });
    const entity = await call(h, 'POST', path, { token: t, body: { entity: 'leads', action: 'list' } });
    expect(entity.body.error.code).toBe('UNKNOWN_ENTITY');
    const action = await call(h, 'POST', path, { token: t, body: { entity: 'schemas', action: 'download' } });
    expect(action.body.error.code).toBe('UNSUPPORTED_ACTION');
    const missing = await call(h, 'POST', path, { token: t, body: { entity: 'contacts', action: 'get', params: { contactId: '999999999' } } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  test('upstream failures keep their codes over HTTP: REAUTH_REQUIRED, RATE_LIMITED (+Retry-After), UPSTREAM_ERROR, INVALID_CONFIG', async () => {
    const t = await token(h, 'gina');
    const bad = await createConnector(h, 'gina', 'hubspot', { access_token: 'pat-na1-never-issued-by-the-fake' }, false);
    const reauth = await call(h, 'POST', `/api/v1/connectors/sources/${bad.body.id}/execute`, { token: t, body: { entity: 'contacts', action: 'list' } });
    expect(reauth.status).toBe(409);
    expect(reauth.body.error).toMatchObject({ code: 'REAUTH_REQUIRED', upstream: { status: 401 } });
    expect(reauth.text).not.toContain('pat-na1-never-issued-by-the-fake');
    const good = await createConnector(h, 'gina', 'hubspot');
    const path = `/api/v1/connectors/sources/${good.body.id}/execute`;
    sandbox.fakes.hubspot.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 300 });
    const limited = await call(h, 'POST', path, { token: t, body: { entity: 'contacts', action: 'list' } });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retry_after_ms: 300_000 });
    expect(limited.headers.get('retry-after')).toBe('300');
    sandbox.fakes.hubspot.faults.failNext(10, 500);
    const failed = await call(h, 'POST', path, { token: t, body: { entity: 'contacts', action: 'list' } });
    sandbox.fakes.hubspot.faults.reset();
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'UPSTREAM_ERROR', retryable: true, upstream: { status: 500 } });
    const ads = await call(h, 'POST', '/v1/integrations/connectors', {
      token: t,
      body: { external_user_id: 'gina', connector_type: 'amazon-ads', credentials: sandbox.upstreams['amazon-ads']!.credentials },
    });
    const config = await call(h, 'POST', `/api/v1/connectors/sources/${ads.body.id}/execute`, { token: t, body: { entity: 'portfolios', action: 'list' } });
    expect(config.status).toBe(400);
    expect(config.body.error).toMatchObject({
      code: 'INVALID_CONFIG',
      details: [{ path: '/config/profile_id', message: 'is required for this action; find one with profiles list (field profileId)' }],
    });
    const fixed = await call(h, 'PATCH', `/v1/integrations/connectors/${ads.body.id}`, { token: t, body: { config: sandbox.upstreams['amazon-ads']!.config } });
    expect(fixed.body.config).toMatchObject({ profile_id: sandbox.upstreams['amazon-ads']!.config.profile_id });
    const works = await call(h, 'POST', `/api/v1/connectors/sources/${ads.body.id}/execute`, { token: t, body: { entity: 'portfolios', action: 'list' } });
    expect(works.status).toBe(200);
  });

  test('PATCH with new credentials switches the scheme and the connection', async () => {
    const t = await token(h, 'hank');
    const created = await createConnector(h, 'hank', 'hubspot', { access_token: 'pat-na1-never-issued-by-the-fake' }, false);
    const oauth = sandbox.upstreams.hubspot!.credentials_by_scheme.oauth!;
    const failing = await call(h, 'POST', `/api/v1/connectors/sources/${created.body.id}/execute`, { token: t, body: { entity: 'deals', action: 'list' } });
    expect(failing.status).toBe(409);
    const patched = await call(h, 'PATCH', `/v1/integrations/connectors/${created.body.id}`, {
      token: t,
      body: { credentials: { client_id: oauth.client_id, client_secret: oauth.client_secret, refresh_token: oauth.refresh_token } },
    });
    expect(patched.body.auth_scheme).toBe('oauth');
    const working = await call(h, 'POST', `/api/v1/connectors/sources/${created.body.id}/execute`, {
      token: t,
      body: { entity: 'deals', action: 'list', params: { limit: 1 } },
    });
    expect(working.status).toBe(200);
    expect(working.body.data).toHaveLength(1);
    const wrong = await call(h, 'PATCH', `/v1/integrations/connectors/${created.body.id}`, { token: t, body: { credentials: { nope: 1 } } });
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  test('sync: a full pass copies every planned entity; status per entity; a second pass duplicates nothing', async () => {
    const created = await createConnector(h, 'ivy', 'hubspot');
    const t = await token(h, 'ivy');
    const path = `/api/v1/connectors/sources/${created.body.id}/sync`;
    const started = await call(h, 'POST', path, { token: t });
    expect(started.status).toBe(202);
    expect(started.body.connector_id).toBe(created.body.id);
    let status = await call(h, 'GET', path, { token: t });
    for (
      let i = 0;
      i < 200 && (status.body.running || status.body.entities.length < 3 || status.body.entities.some((e: { status: string }) => e.status === 'running'));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
      status = await call(h, 'GET', path, { token: t });
    }
    const counts = sandbox.fakes.hubspot.dataset.counts();
    expect(status.body.running).toBe(false);
    // Live and archived records: a deletion in HubSpot archives.
    const total = (type: 'contacts' | 'companies' | 'deals') => counts[type]!.active + counts[type]!.archived;
    expect(status.body.entities.map((e: { entity: string; status: string; records: number }) => [e.entity, e.status, e.records])).toEqual([
      ['companies', 'succeeded', total('companies')],
      ['contacts', 'succeeded', total('contacts')],
      ['deals', 'succeeded', total('deals')],
    ]);
    for (const entity of status.body.entities) expect(entity.last_success_at).toEqual(expect.any(String));
    const stored = async () => {
      const rows = (await h.service.store.syncStates(created.body.id)).map((s) => s.records);
      return rows.reduce((a, b) => a + b, 0);
    };
    expect(await stored()).toBe(total('contacts') + total('companies') + total('deals'));
    await call(h, 'POST', path, { token: t });
    // The status reads the entities, then whether a pass runs: a pass ending between the two
    // reads shows `running: false` beside an entity still `running`, so wait for both.
    do {
      await new Promise((r) => setTimeout(r, 100));
      status = await call(h, 'GET', path, { token: t });
    } while (status.body.running || status.body.entities.some((e: { status: string }) => e.status === 'running'));
    expect(status.body.entities.filter((e: { status: string }) => e.status !== 'succeeded')).toEqual([]);
    expect(status.body.entities.every((e: { status: string }) => e.status === 'succeeded')).toBe(true);
    expect(await stored()).toBe(total('contacts') + total('companies') + total('deals'));
    expect((await call(h, 'DELETE', `/v1/integrations/connectors/${created.body.id}`, { token: t })).status).toBe(204);
    expect(await h.service.store.syncStates(created.body.id)).toEqual([]);
  });

  test('sync: another user cannot start or read a connector’s sync (404 as for an unknown id)', async () => {
    const created = await createConnector(h, 'ivy', 'hubspot');
    const mallory = await token(h, 'mallory');
    for (const method of ['POST', 'GET']) {
      const answer = await call(h, method, `/api/v1/connectors/sources/${created.body.id}/sync`, { token: mallory });
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 404, code: 'CONNECTOR_NOT_FOUND' });
    }
    const untouched = await call(h, 'GET', `/api/v1/connectors/sources/${created.body.id}/sync`, { token: await token(h, 'ivy') });
    expect(untouched.body).toEqual({
      connector_id: created.body.id,
      running: false,
      next_sync_at: expect.any(String),
      interval_ms: 60 * 60 * 1000,
      entities: [],
    });
  });

  test('sync: a pass that fails keeps the copy and says why', async () => {
    const created = await createConnector(h, 'jude', 'gong');
    const t = await token(h, 'jude');
    const path = `/api/v1/connectors/sources/${created.body.id}/sync`;
    sandbox.fakes.gong.faults.failNext(20, 500);
    await call(h, 'POST', path, { token: t });
    let status;
    do {
      await new Promise((r) => setTimeout(r, 100));
      status = await call(h, 'GET', path, { token: t });
    } while (status.body.running);
    sandbox.fakes.gong.faults.reset();
    const failed = status.body.entities.filter((e: { status: string }) => e.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0].last_error).toMatch(/^UPSTREAM_ERROR: /);
  });

  test('download streams with Range and 206', async () => {
    const created = await createConnector(h, 'dave', 'asana');
    const t = await token(h, 'dave');
    const gid = sandbox.fakes.asana.anchors.attachments.asana;
    const path = `/api/v1/connectors/sources/${created.body.id}/execute`;
    const whole = await fetch(h.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'attachments', action: 'download', params: { attachment_gid: gid } }),
    });
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(1000);
    const part = await fetch(h.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'attachments', action: 'download', params: { attachment_gid: gid, range_header: 'bytes=10-19' } }),
    });
    const slice = Buffer.from(await part.arrayBuffer());
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(slice.equals(bytes.subarray(10, 20))).toBe(true);
  });

  test('bodies: over the limit 413, not JSON 400, unknown fields named', async () => {
    const t = await token(h, 'erin');
    const big = await call(h, 'POST', '/v1/integrations/connectors', {
      token: t,
      body: { external_user_id: 'erin', connector_type: 'hubspot', credentials: { access_token: 'x'.repeat(100_000) } },
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const broken = await call(h, 'POST', '/v1/integrations/connectors', { token: t, raw: '{"external_user_id": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('INVALID_REQUEST');
    const extra = await call(h, 'POST', '/v1/integrations/connectors', {
      token: t,
      body: { external_user_id: 'erin', connector_type: 'hubspot', credentials: {}, colour: 'blue' },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details).toEqual([{ path: '/colour', message: 'is not allowed' }]);
    const route = await call(h, 'GET', '/v2/nothing');
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe('NOT_FOUND');
  });

  test('healthz, metrics, connector types and the OpenAPI document', async () => {
    expect((await call(h, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    const metrics = await call(h, 'GET', '/metrics');
    expect(metrics.text).toMatch(/engine_http_requests_total\{method="POST",route="\/v1\/auth\/token",status="200"\} \d+/);
    expect(metrics.text).toContain('engine_http_request_duration_seconds_bucket');
    expect(metrics.text).toMatch(/engine_upstream_requests_total\{connector_type="hubspot",kind="api"\} \d+/);
    const types = await call(h, 'GET', '/v1/connector-types');
    expect(types.body.data.map((t: { type: string }) => t.type).sort()).toEqual(['amazon-ads', 'asana', 'gong', 'hubspot', 'shopify']);
    const hubspot = types.body.data.find((t: { type: string }) => t.type === 'hubspot');
    expect(hubspot.entities.contacts.actions.list.pagination_param).toBe('after');
    // Typed paths (issue 12): search compares and sorts them by number or instant.
    expect(hubspot.entities.deals.actions.search.value_types).toEqual({
      'properties.amount': 'number',
      'properties.hs_object_id': 'number',
      createdAt: 'date-time',
      updatedAt: 'date-time',
      'properties.closedate': 'date-time',
      'properties.createdate': 'date-time',
      'properties.hs_lastmodifieddate': 'date-time',
    });
    expect(hubspot.entities.deals.actions.search.params.properties.query.properties.filter.description).toContain(
      'Value types: properties.amount (number), properties.hs_object_id (number)',
    );
    expect(types.body.data.find((t: { type: string }) => t.type === 'shopify').entities.orders.actions.search.value_types).toEqual({
      total_price: 'number',
      subtotal_price: 'number',
      created_at: 'date-time',
      updated_at: 'date-time',
      processed_at: 'date-time',
      cancelled_at: 'date-time',
      closed_at: 'date-time',
    });
    const doc = await call(h, 'GET', '/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/v1/auth/token', '/v1/integrations/connectors', '/api/v1/connectors/sources/{id}/execute']),
    );
    // One variant per entity/action, generated from the manifests (test/hosted/openapi-documents.test.ts checks them all).
    expect(doc.body.paths['/api/v1/connectors/sources/{id}/execute'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ExecuteRequest',
    });
    expect(doc.body.components.schemas['ExecuteRequest.attachments.download'].title).toBe('attachments download');
  });

  test('no secret in any log line or (SQLite) database file', async () => {
    const secrets = [
      h.client.client_secret,
      ...Object.values(sandbox.upstreams).flatMap((info) => Object.values(info.credentials_by_scheme).flatMap((c) => Object.values(c))),
    ].filter((s) => typeof s === 'string' && s.length > 12) as string[];
    const t = await token(h, 'frank');
    // The check spends the single-use refresh token: each backend's run starts from the current one.
    const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
    const created = await createConnector(h, 'frank', 'gong', { client_id, client_secret, refresh_token: sandbox.fakes.gong.currentRefreshToken() });
    expect(created.status).toBe(201);
    // The refresh tokens the check was handed and spent are secrets too.
    secrets.push(...sandbox.fakes.gong.refreshTokens().map((r) => r.token));
    await call(h, 'GET', '/v1/integrations/connectors', { token: t });
    const logs = h.logs.join('');
    expect(logs.length).toBeGreaterThan(100);
    expect(logs).not.toContain(t);
    for (const secret of secrets) expect(logs).not.toContain(secret);
    for (const file of h.databaseFiles()) {
      const text = file.toString('latin1');
      for (const secret of secrets) expect(text.includes(secret)).toBe(false);
    }
  });
});

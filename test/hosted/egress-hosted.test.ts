import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { hostileFileUrls, startAttackers, startHostileUpstream, type Attacker, type Attackers, type HostileUpstream } from '../support/hostile-upstream.js';
import { call } from '../support/http-call.js';
import { logLines } from '../support/log-lines.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { killAll, platformToken, startServe, waitFor, type SandboxInfo } from '../support/sync-processes.js';

const SECRET = 'egress-test-secret-0123456789';

let upstream: HostileUpstream;
let attackers: Attackers;
let a4: Attacker;
let a2: Attacker;
let v6: Attacker | undefined;
let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  upstream = await startHostileUpstream();
  attackers = await startAttackers();
  ({ a4, a2, v6 } = attackers);
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await killAll();
  await Promise.all([upstream?.close(), attackers?.close(), sandbox?.close()]);
  await cluster?.stop();
});

function attackerTraffic(): number {
  return [a4, a2, v6].reduce((sum, attacker) => sum + (attacker ? attacker.connections + attacker.requests : 0), 0);
}

interface Service {
  service: HostedService;
  logs: string[];
  token: string;
}

async function startService(databaseUrl: string, upstreams: Record<string, string>, allowOrigins?: Record<string, string[]>): Promise<Service> {
  const { stream, lines } = logLines();
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: SECRET,
    upstreams,
    ...(allowOrigins ? { allowOrigins } : {}),
    logger: { level: 'info', stream },
    sync: { background: false },
  });
  const secret = 'ces_egress_secret_value_01';
  const client = await service.store.createClient({ name: 'egress', secretHash: await hashSecret(secret) });
  const answer = await call(service.url, 'POST', '/v1/auth/token', { body: { client_id: client.client_id, client_secret: secret, external_user_id: 'u1' } });
  return { service, logs: lines, token: answer.body.access_token };
}

/** Creates a connector; `check: false` skips the credentials check (credentials only a hostile upstream takes). */
async function createConnector(
  s: Service,
  type: string,
  credentials: Record<string, unknown>,
  config: Record<string, unknown> = {},
  check = true,
): Promise<string> {
  const answer = await call(s.service.url, 'POST', '/v1/integrations/connectors', {
    body: { external_user_id: 'u1', connector_type: type, credentials, config, ...(check ? {} : { check_credentials: false }) },
    token: s.token,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}

function execute(s: Service, id: string, entity: string, action: string, params: Record<string, unknown>) {
  return call(s.service.url, 'POST', `/api/v1/connectors/sources/${id}/execute`, { body: { entity, action, params }, token: s.token });
}

/** The warn lines the service logged for refusals. */
function refusalLogs(s: Service): Array<{ level: number; msg: string }> {
  return s.logs.map((line) => JSON.parse(line) as { level: number; msg: string; code?: string }).filter((entry) => entry.code === 'HOST_NOT_ALLOWED');
}

describe.each(['sqlite', 'postgres'] as const)('hosted service on %s aimed at a hostile upstream', (backend) => {
  let s: Service;

  beforeAll(async () => {
    let databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'egress-')), 'engine.db')}`;
    if (backend === 'postgres') {
      cluster ??= await startPostgres();
      databaseUrl = await cluster.createDatabase();
    }
    s = await startService(databaseUrl, { asana: `${upstream.origin}/api/1.0`, gong: upstream.origin });
  }, 120_000);
  afterAll(() => s?.service.close());

  test('hostile download URLs answer 502 HOST_NOT_ALLOWED naming host and rule, logged at warn without the query', async () => {
    const id = await createConnector(s, 'asana', { token: 'pat-of-the-tenant' }, {}, false);
    for (const [index, hostile] of hostileFileUrls(upstream, a4, a2, v6).entries()) {
      const gid = String(5000 + index);
      upstream.fileUrls.set(gid, hostile.url);
      const answer = await execute(s, id, 'attachments', 'download', { attachment_gid: gid });
      expect(answer.status, hostile.name).toBe(502);
      expect(answer.body.error).toEqual({
        code: 'HOST_NOT_ALLOWED',
        message: expect.stringContaining(`files request to ${hostile.place} (rule ${hostile.rule}: `),
        retryable: false,
        details: [{ path: '/hosts/files', message: expect.stringMatching(new RegExp(`^rule ${hostile.rule}: `)) }],
        request_id: answer.headers.get('x-request-id'),
      });
      expect(answer.text).not.toContain('TOPSECRET');
      expect(refusalLogs(s).at(-1)).toMatchObject({ level: 40, msg: answer.body.error.message });
    }
    expect(s.logs.join('\n')).not.toMatch(/TOPSECRET|pat-of-the-tenant/);
    expect(attackerTraffic()).toBe(0);
  });

  test('a hostile customer host in a token answer is refused; the bearer token goes nowhere', async () => {
    upstream.customerBaseUrl = `http://127.0.0.1:${a4.port}`;
    const id = await createConnector(s, 'gong', { client_id: 'client', client_secret: 'secret', refresh_token: 'refresh' }, {}, false);
    const answer = await execute(s, id, 'users', 'list', {});
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('HOST_NOT_ALLOWED');
    expect(answer.body.error.message).toContain(`account request to 127.0.0.1:${a4.port}/ (rule https: only https may be used, not http)`);
    expect(refusalLogs(s).at(-1)).toMatchObject({ level: 40, msg: answer.body.error.message });
    expect(s.logs.join('\n')).not.toMatch(/hostile-access|hostile-refresh/);
    expect(attackerTraffic()).toBe(0);
  });

  test('a customer host a tenant puts in the credentials at create is refused at use and in sync passes, before any request', async () => {
    const tokensBefore = upstream.tokenRequests;
    const id = await createConnector(
      s,
      'gong',
      {
        client_id: 'client',
        client_secret: 'secret',
        refresh_token: 'tenant-refresh',
        access_token: 'tenant-access',
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        api_base_url_for_customer: `https://127.0.0.2:${a2.port}`,
      },
      {},
      false,
    );
    const answer = await execute(s, id, 'users', 'list', {});
    expect(answer.status).toBe(502);
    expect(answer.body.error.message).toContain(`account request to ${a2.host}:${a2.port}/ (rule address: ${a2.host} is a loopback address`);
    expect(answer.text).not.toContain('tenant-access');
    // A sync pass is refused the same way: each entity fails with the refusal, logged at warn.
    expect((await call(s.service.url, 'POST', `/api/v1/connectors/sources/${id}/sync`, { body: {}, token: s.token })).status).toBe(202);
    const failed = await waitFor(
      () => {
        const lines = s.logs.map((line) => JSON.parse(line) as { level: number; msg: string; connector?: string; last_error?: string });
        const mine = lines.filter((entry) => entry.msg === 'sync: entity failed' && entry.connector === id);
        return mine.length >= 2 && mine;
      },
      { what: 'the sync failure log lines', timeoutMs: 20_000 },
    );
    for (const entry of failed) {
      expect(entry.level).toBe(40);
      expect(entry.last_error).toContain(`HOST_NOT_ALLOWED: Gong: refused the account request to ${a2.host}:${a2.port}/ (rule address: `);
    }
    expect(upstream.tokenRequests).toBe(tokensBefore);
    expect(s.logs.join('\n')).not.toContain('tenant-access');
    expect(attackerTraffic()).toBe(0);
  });
});

describe("the hosted service routed to the sandbox, with the fakes' second origins allowed (as serve --sandbox does)", () => {
  let s: Service;

  beforeAll(async () => {
    const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
    const allowOrigins = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.allow_origins]));
    s = await startService(`sqlite:${join(mkdtempSync(join(tmpdir(), 'egress-sandbox-')), 'engine.db')}`, upstreams, allowOrigins);
  });
  afterAll(() => s?.service.close());

  test('Asana downloads: 200, 206 and an expired URL read again', async () => {
    const fake = sandbox.fakes.asana;
    const gid = fake.anchors.attachments.asana;
    const id = await createConnector(s, 'asana', sandbox.upstreams.asana!.credentials);
    const whole = await execute(s, id, 'attachments', 'download', { attachment_gid: gid });
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get('content-length'))).toBeGreaterThan(0);
    const part = await execute(s, id, 'attachments', 'download', { attachment_gid: gid, range_header: 'bytes=0-9' });
    expect([part.status, part.headers.get('content-range')?.startsWith('bytes 0-9/')]).toEqual([206, true]);
    fake.expireNextDownloadUrls(1);
    const again = await execute(s, id, 'attachments', 'download', { attachment_gid: gid });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-length')).toBe(whole.headers.get('content-length'));
    expect(fake.blobRequests.slice(-2).map((r) => r.status)).toEqual([403, 200]);
  });

  test('Gong OAuth: calls reach the customer host the token answer names', async () => {
    const fake = sandbox.fakes.gong;
    const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
    const before = fake.requests.filter((r) => fake.hostOf(r) === 'customer').length;
    const id = await createConnector(s, 'gong', { client_id, client_secret, refresh_token: fake.currentRefreshToken() });
    const answer = await execute(s, id, 'users', 'list', {});
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    expect(fake.requests.filter((r) => fake.hostOf(r) === 'customer').length).toBeGreaterThan(before);
  });
});

describe('connector-engine serve', () => {
  test('--sandbox allows the fakes it starts: Asana download (200, 206) and Gong OAuth through the customer host', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'egress-serve-')), 'engine.db')}`;
    const server = await startServe({ ENGINE_SECRET: SECRET, ENGINE_DATABASE_URL: databaseUrl }, ['--sandbox', '--no-sync']);
    const info = JSON.parse(server.lines[0]!) as SandboxInfo &
      Record<string, { allow_origins: string[]; credentials_by_scheme: Record<string, Record<string, string>> }>;
    expect(info.asana!.allow_origins).toHaveLength(1);
    expect(info.gong!.allow_origins).toHaveLength(1);
    const token = await platformToken(server.url, databaseUrl);
    const s = { service: { url: server.url } as HostedService, logs: [], token };
    const asana = await createConnector(s, 'asana', info.asana!.credentials);
    // Same seed as this file's sandbox, so the same attachment gids.
    const gid = sandbox.fakes.asana.anchors.attachments.asana;
    const whole = await execute(s, asana, 'attachments', 'download', { attachment_gid: gid });
    expect(whole.status, whole.text).toBe(200);
    const part = await execute(s, asana, 'attachments', 'download', { attachment_gid: gid, range_header: 'bytes=0-9' });
    expect([part.status, part.headers.get('content-length')]).toEqual([206, '10']);
    const gong = await createConnector(s, 'gong', info.gong!.credentials_by_scheme.oauth!);
    const users = await execute(s, gong, 'users', 'list', {});
    expect(users.status, users.text).toBe(200);
    expect(users.body.data.length).toBeGreaterThan(0);
  }, 60_000);

  test('ENGINE_UPSTREAM_<TYPE> trusts only the origin it names; ENGINE_ALLOW_ORIGINS_<TYPE> widens that type alone', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'egress-env-')), 'engine.db')}`;
    const { asana, gong } = sandbox.upstreams;
    const server = await startServe(
      {
        ENGINE_SECRET: SECRET,
        ENGINE_DATABASE_URL: databaseUrl,
        ENGINE_UPSTREAM_ASANA: asana!.base_url,
        ENGINE_UPSTREAM_GONG: gong!.base_url,
        ENGINE_ALLOW_ORIGINS_ASANA: asana!.allow_origins.join(','),
      },
      ['--no-sync'],
    );
    const s = { service: { url: server.url } as HostedService, logs: [], token: await platformToken(server.url, databaseUrl) };
    const files = await createConnector(s, 'asana', asana!.credentials);
    const download = await execute(s, files, 'attachments', 'download', { attachment_gid: sandbox.fakes.asana.anchors.attachments.asana });
    expect(download.status, download.text).toBe(200);

    const fake = sandbox.fakes.gong;
    const before = fake.requests.filter((r) => fake.hostOf(r) === 'customer').length;
    const { client_id, client_secret } = gong!.credentials_by_scheme.oauth!;
    // The credentials check goes through the same egress rules: the create itself is refused.
    const checked = await call(s.service.url, 'POST', '/v1/integrations/connectors', {
      body: { external_user_id: 'u1', connector_type: 'gong', credentials: { client_id, client_secret, refresh_token: fake.currentRefreshToken() } },
      token: s.token,
    });
    expect(checked.status).toBe(502);
    expect(checked.body.error.code).toBe('HOST_NOT_ALLOWED');
    expect(checked.body.error.message).toContain(`account request to ${new URL(gong!.allow_origins[0]!).host}/ (rule https: `);
    const calls = await createConnector(s, 'gong', { client_id, client_secret, refresh_token: fake.currentRefreshToken() }, {}, false);
    const refused = await execute(s, calls, 'users', 'list', {});
    const customer = new URL(gong!.allow_origins[0]!).host;
    expect(refused.status).toBe(502);
    expect(refused.body.error.message).toContain(`account request to ${customer}/ (rule https: `);
    expect(fake.requests.filter((r) => fake.hostOf(r) === 'customer').length).toBe(before);
    // The log line reaches this process's pipe a moment after the answer.
    const warned = await waitFor(() => server.logs().find((entry) => entry.code === 'HOST_NOT_ALLOWED'), { what: 'the refusal log line', timeoutMs: 10_000 });
    expect(warned).toMatchObject({ level: 40, msg: refused.body.error.message });
  }, 60_000);
});

/**
 * The isolation matrix: two platform clients × two end users × every connector endpoint, plus a
 * revoked client, on SQLite and PostgreSQL. A tenant is a platform client and one of its end
 * users; any other tenant must get exactly what an unknown id gets, and reach no upstream.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { runCli } from '../support/cli.js';
import { call as callService, type HttpAnswer } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

interface Client {
  client_id: string;
  client_secret: string;
}

/** What the tests compare of an answer. */
type Answer = Pick<HttpAnswer, 'status' | 'body'>;

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 60 });
});
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

/** Every request every fake has logged so far: an attacker's call must not add one. */
function upstreamRequests(): number {
  const fakes = sandbox.fakes as unknown as Record<string, { requests: unknown[] }>;
  return Object.values(fakes).reduce((sum, fake) => sum + fake.requests.length, 0);
}

/** The error body without its per-request parts, so two answers can be compared whole. */
function comparable(answer: Answer, id: string, placeholder: string): unknown {
  const text = JSON.stringify(answer.body).replaceAll(id, placeholder);
  const body = JSON.parse(text) as { error?: Record<string, unknown> };
  if (body.error) delete body.error.request_id;
  return { status: answer.status, body };
}

describe.each(['sqlite', 'postgres'] as const)('tenants on %s', (backend) => {
  let service: HostedService;
  let databaseUrl = '';
  const clients: Record<'A' | 'B' | 'C', Client> = {} as never;
  const owned: Record<'hubspot' | 'asana', string> = {} as never;

  /** Status and body alone, so answers compare whole (headers differ in request id and date). */
  const call = async (method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> => {
    const { status, body } = await callService(service, method, path, options);
    return { status, body };
  };
  const tokenFor = async (client: Client, user: string): Promise<string> => {
    const answer = await call('POST', '/v1/auth/token', { body: { ...client, external_user_id: user } });
    expect(answer.status).toBe(200);
    return answer.body.access_token as string;
  };
  const create = async (token: string, user: string, type: 'hubspot' | 'asana', name = `${type} of ${user}`): Promise<Answer> => {
    const info = sandbox.upstreams[type]!;
    return call('POST', '/v1/integrations/connectors', {
      token,
      body: { external_user_id: user, connector_type: type, name, credentials: info.credentials, config: info.config },
    });
  };

  /** Every connector endpoint a tenant can name an id on, with a harmless body where one is needed. */
  const endpoints = (id: string): Array<[string, string, unknown?]> => [
    ['GET', `/v1/integrations/connectors/${id}`],
    ['PATCH', `/v1/integrations/connectors/${id}`, { name: 'taken over' }],
    ['PATCH', `/v1/integrations/connectors/${id}`, { credentials: sandbox.upstreams.hubspot!.credentials }],
    ['DELETE', `/v1/integrations/connectors/${id}`],
    ['POST', `/api/v1/connectors/sources/${id}/execute`, { entity: 'contacts', action: 'list', params: { limit: 1 } }],
    ['POST', `/api/v1/connectors/sources/${id}/execute`, { entity: 'contacts', action: 'get', params: { contactId: '1001' } }],
    ['POST', `/api/v1/connectors/sources/${id}/execute`, { entity: 'contacts', action: 'search', params: { query: {}, limit: 1 } }],
    [
      'POST',
      `/api/v1/connectors/sources/${id}/execute`,
      { entity: 'attachments', action: 'download', params: { attachment_gid: sandbox.fakes.asana.anchors.attachments.asana } },
    ],
    ['POST', `/api/v1/connectors/sources/${id}/sync`, { full: true }],
    ['GET', `/api/v1/connectors/sources/${id}/sync`],
  ];

  beforeAll(async () => {
    databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'tenancy-')), 'engine.db')}`;
    if (backend === 'postgres') {
      cluster ??= await startPostgres();
      databaseUrl = await cluster.createDatabase();
    }
    const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
    service = await startHostedService({
      databaseUrl,
      port: 0,
      secret: 'tenancy-test-secret-0123456789',
      upstreams,
      logger: false,
      sync: { background: false },
      maxConnectorsPerUser: 3,
    });
    for (const name of ['A', 'B', 'C'] as const) {
      const secret = `ces_tenancy_${name}_secret_value`;
      const created = await service.store.createClient({ name, secretHash: await hashSecret(secret) });
      clients[name] = { client_id: created.client_id, client_secret: secret };
    }
    const owner = await tokenFor(clients.A, 'user-1');
    for (const type of ['hubspot', 'asana'] as const) {
      const answer = await create(owner, 'user-1', type);
      expect(answer.status).toBe(201);
      owned[type] = answer.body.id;
    }
    // The owner's copy is searchable, so a foreign search would have something to find.
    expect((await call('POST', `/api/v1/connectors/sources/${owned.hubspot}/sync`, { token: owner, body: {} })).status).toBe(202);
    for (let status = await call('GET', `/api/v1/connectors/sources/${owned.hubspot}/sync`, { token: owner }); ;) {
      if (status.body.entities.some((e: { entity: string; status: string }) => e.entity === 'contacts' && e.status === 'succeeded')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await call('GET', `/api/v1/connectors/sources/${owned.hubspot}/sync`, { token: owner });
    }
  }, 120_000);
  afterAll(() => service?.close());

  test('the owner reaches every endpoint of its own connectors', async () => {
    const owner = await tokenFor(clients.A, 'user-1');
    const listed = await call('GET', '/v1/integrations/connectors', { token: owner });
    expect(listed.body.data.map((c: { id: string }) => c.id).sort()).toEqual([owned.asana, owned.hubspot].sort());
    const page = await call('POST', `/api/v1/connectors/sources/${owned.hubspot}/execute`, {
      token: owner,
      body: { entity: 'contacts', action: 'list', params: { limit: 1 } },
    });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    const found = await call('POST', `/api/v1/connectors/sources/${owned.hubspot}/execute`, {
      token: owner,
      body: { entity: 'contacts', action: 'search', params: { query: {}, limit: 1 } },
    });
    expect(found.status).toBe(200);
    expect(found.body.hits).toHaveLength(1);
    expect((await call('GET', `/api/v1/connectors/sources/${owned.hubspot}/sync`, { token: owner })).status).toBe(200);
  });

  test.each([
    ['client A, another user', 'A', 'user-2'],
    ['client B, the same user id', 'B', 'user-1'],
    ['client B, another user', 'B', 'user-2'],
  ] as const)('%s gets exactly what an unknown id gets, and no upstream call is made', async (_label, client, user) => {
    const intruder = await tokenFor(clients[client], user);
    const listed = await call('GET', '/v1/integrations/connectors', { token: intruder });
    expect(listed).toEqual({ status: 200, body: { data: [] } });
    const typed = await call('GET', '/v1/integrations/connectors?connector_type=hubspot', { token: intruder });
    expect(typed).toEqual({ status: 200, body: { data: [] } });
    const before = upstreamRequests();
    for (const id of Object.values(owned)) {
      // An unknown id of the same shape and length, so the two answers can be compared whole.
      const unknown = `conn_${'z'.repeat(id.length - 'conn_'.length)}`;
      for (const [index, [method, path, body]] of endpoints(id).entries()) {
        const foreign = await call(method, path, { token: intruder, ...(body !== undefined ? { body } : {}) });
        const [, unknownPath, unknownBody] = endpoints(unknown)[index]!;
        const missing = await call(method, unknownPath, { token: intruder, ...(unknownBody !== undefined ? { body: unknownBody } : {}) });
        expect(foreign.status, `${method} ${path}`).toBe(404);
        expect(foreign.body.error.code).toBe('CONNECTOR_NOT_FOUND');
        expect(JSON.stringify(foreign.body), 'the id is not repeated back').not.toContain(id);
        expect(comparable(foreign, id, '<id>'), `${method} ${path}`).toEqual(comparable(missing, unknown, '<id>'));
      }
    }
    expect(upstreamRequests()).toBe(before);

    // Nothing of the owner's changed: name, credentials (it still reads), copy and sync request.
    const owner = await tokenFor(clients.A, 'user-1');
    const still = await call('GET', `/v1/integrations/connectors/${owned.hubspot}`, { token: owner });
    expect(still.body).toMatchObject({ id: owned.hubspot, name: 'hubspot of user-1', external_user_id: 'user-1' });
    const page = await call('POST', `/api/v1/connectors/sources/${owned.hubspot}/execute`, {
      token: owner,
      body: { entity: 'contacts', action: 'get', params: { contactId: '1001' } },
    });
    expect(page.status).toBe(200);
    expect((await call('GET', `/v1/integrations/connectors/${owned.asana}`, { token: owner })).status).toBe(200);
  });

  test("a create naming another user is refused, and a tenant's connectors count against its own limit only", async () => {
    const b1 = await tokenFor(clients.B, 'user-1');
    const forged = await create(b1, 'user-2', 'hubspot');
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('FORBIDDEN');
    // Client A's user-1 holds 2 of 3: client B's user-1 is another tenant with all 3 places.
    const made = [await create(b1, 'user-1', 'hubspot'), await create(b1, 'user-1', 'hubspot'), await create(b1, 'user-1', 'asana')];
    expect(made.map((a) => a.status)).toEqual([201, 201, 201]);
    const over = await create(b1, 'user-1', 'hubspot');
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({
      code: 'CONNECTOR_LIMIT_REACHED',
      retryable: false,
      details: [{ path: '/external_user_id', message: 'holds 3 connectors (the limit)' }],
    });
    expect((await call('GET', '/v1/integrations/connectors', { token: b1 })).body.data).toHaveLength(3);
    const a1 = await tokenFor(clients.A, 'user-1');
    expect((await create(a1, 'user-1', 'hubspot', 'third of A')).status).toBe(201);
    expect((await create(a1, 'user-1', 'hubspot', 'fourth of A')).status).toBe(409);
    expect((await call('DELETE', `/v1/integrations/connectors/${made[0]!.body.id}`, { token: b1 })).status).toBe(204);
    expect((await create(b1, 'user-1', 'hubspot')).status).toBe(201);
  });

  test("a revoked client's connectors are unreachable through any client, and its tokens stop at once", async () => {
    const c1 = await tokenFor(clients.C, 'user-1');
    const created = await create(c1, 'user-1', 'hubspot');
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call('GET', `/v1/integrations/connectors/${id}`, { token: c1 })).status).toBe(200);
    expect(await service.store.revokeClient(clients.C.client_id)).toBe(true);

    const refusedToken = await call('POST', '/v1/auth/token', { body: { ...clients.C, external_user_id: 'user-1' } });
    expect(refusedToken.status).toBe(401);
    for (const [method, path, body] of [['GET', '/v1/integrations/connectors'] as [string, string], ...endpoints(id)]) {
      const answer = await call(method, path, { token: c1, ...(body !== undefined ? { body } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHENTICATED');
    }
    const before = upstreamRequests();
    for (const [client, user] of [
      ['A', 'user-1'],
      ['B', 'user-1'],
      ['A', 'user-2'],
    ] as const) {
      const other = await tokenFor(clients[client], user);
      for (const [method, path, body] of endpoints(id)) {
        const answer = await call(method, path, { token: other, ...(body !== undefined ? { body } : {}) });
        expect(answer.status, `${client}/${user} ${method} ${path}`).toBe(404);
      }
      const listed = await call('GET', '/v1/integrations/connectors', { token: other });
      expect(listed.body.data.map((c: { id: string }) => c.id)).not.toContain(id);
    }
    expect(upstreamRequests()).toBe(before);
    // Its sync job went with the revocation, so no background pass reads the upstream for it.
    expect(await service.store.syncJob(id)).toBeUndefined();
    expect(await service.store.findConnector(id)).toBeUndefined();
  });

  test("`clients revoke --purge` deletes a revoked client's connectors and nobody else's", async () => {
    const made = JSON.parse((await runCli(['clients', 'create', '--name', 'short-lived', '--database-url', databaseUrl])).stdout) as Client;
    const doomedToken = await tokenFor(made, 'user-1');
    const doomed = (await create(doomedToken, 'user-1', 'hubspot')).body.id as string;
    const keptToken = await tokenFor(clients.A, 'user-2');
    const kept = (await create(keptToken, 'user-2', 'hubspot')).body.id as string;

    const unknown = await runCli(['clients', 'revoke', 'cli_unknown', '--purge', '--database-url', databaseUrl]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ client_id: 'cli_unknown', revoked: false });
    const revoked = await runCli(['clients', 'revoke', made.client_id, '--purge', '--database-url', databaseUrl]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ client_id: made.client_id, revoked: true, purged_connectors: 1 });
    expect(await service.store.readCredentials(doomed)).toBeUndefined();
    expect(await service.store.readCredentials(kept)).toMatchObject({ version: 1 });
    expect((await call('GET', `/v1/integrations/connectors/${kept}`, { token: keptToken })).status).toBe(200);
    const again = await runCli(['clients', 'revoke', made.client_id, '--purge', '--database-url', databaseUrl]);
    expect(JSON.parse(again.stdout)).toEqual({ client_id: made.client_id, revoked: false, purged_connectors: 0 });
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AmbiguousConnectorError,
  connect,
  HostedConnection,
  InvalidParamsError,
  type GongCallsSearchFields,
  type ListResult,
  type RecordResult,
  type SearchParams,
} from '../../engine/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { expectedBlobBytes, startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { failure } from '../support/failure.js';

let sandbox: Sandbox;
let service: HostedService;
const secret = 'ces_hosted_client_secret_01';
let clientId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  const allowOrigins = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.allow_origins]));
  service = await startHostedService({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'client-')), 'engine.db')}`,
    port: 0,
    secret: 'client-test-secret',
    upstreams,
    allowOrigins,
    logger: false,
    sync: { background: false },
  });
  clientId = (await service.store.createClient({ name: 'client tests', secretHash: await hashSecret(secret) })).client_id;
  const token = (await (
    await fetch(`${service.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: secret, external_user_id: 'user-1' }),
    })
  ).json()) as { access_token: string };
  for (const [type, info] of Object.entries(sandbox.upstreams)) {
    const answer = await fetch(`${service.url}/v1/integrations/connectors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({ external_user_id: 'user-1', connector_type: type, credentials: info.credentials, config: info.config }),
    });
    expect(answer.status).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await service?.close();
  await sandbox?.close();
});

function hosted(type: string, user = 'user-1', connectorId?: string): HostedConnection {
  return connect(type, { hosted: { baseUrl: service.url, externalUserId: user, clientId, clientSecret: secret, ...(connectorId ? { connectorId } : {}) } });
}

/** Creates a connector of `type` with the sandbox's credentials for `user`; answers the connector. */
async function createFor(user: string, type: string, name: string): Promise<{ id: string; created_at: string }> {
  const token = (await (
    await fetch(`${service.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: secret, external_user_id: user }),
    })
  ).json()) as { access_token: string };
  const info = sandbox.upstreams[type]!;
  const answer = await fetch(`${service.url}/v1/integrations/connectors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
    body: JSON.stringify({ external_user_id: user, connector_type: type, name, credentials: info.credentials, config: info.config }),
  });
  expect(answer.status).toBe(201);
  return (await answer.json()) as { id: string; created_at: string };
}

function local(type: string) {
  const info = sandbox.upstreams[type]!;
  return connect(type, { credentials: info.credentials, config: info.config, baseUrl: info.base_url, rateLimit: false });
}

// The same list and get, with ids read from the list, on every connector.
const cases: Array<[string, string, Record<string, unknown>, (r: Record<string, unknown>) => [string, Record<string, unknown>]]> = [
  ['hubspot', 'contacts', { limit: 5 }, (r) => ['contacts', { contactId: r.id }]],
  ['asana', 'workspaces', {}, (r) => ['workspaces', { workspace_gid: r.gid }]],
  ['amazon-ads', 'profiles', {}, (r) => ['profiles', { profileId: r.profileId }]],
  ['shopify', 'products', { limit: 5 }, (r) => ['products', { product_id: r.id }]],
  ['gong', 'users', {}, (r) => ['users', { id: r.id }]],
];

describe('the hosted client behaves like the library', () => {
  test.each(cases)('%s %s list and get', async (type, entity, params, toGet) => {
    const viaService = (await hosted(type).execute(entity, 'list', params)) as ListResult;
    const inProcess = (await local(type).execute(entity, 'list', params)) as ListResult;
    expect(viaService).toEqual(inProcess);
    const [getEntity, getParams] = toGet(inProcess.data[0]!);
    const one = (await hosted(type).execute(getEntity, 'get', getParams)) as RecordResult;
    expect(one).toEqual(await local(type).execute(getEntity, 'get', getParams));
  });

  test('records() follows every page as the library does (Link-header paging keeps only limit)', async () => {
    const viaService: unknown[] = [];
    for await (const order of hosted('shopify').records('orders', 'list', { status: 'any', limit: 250 })) viaService.push(order.id);
    const inProcess: unknown[] = [];
    for await (const order of local('shopify').records('orders', 'list', { status: 'any', limit: 250 })) inProcess.push(order.id);
    expect(viaService).toEqual(inProcess);
    expect(viaService.length).toBeGreaterThan(250);
  });

  test('records() pages Asana task search by created_at through the service; in another order it stops with an error instead of hiding the rest', async () => {
    const fake = sandbox.fakes.asana;
    const params = { workspace_gid: fake.anchors.premiumWorkspaceGid, completed: false, limit: 100 };
    const viaService: unknown[] = [];
    for await (const task of hosted('asana').records('workspace_task_search', 'list', params)) viaService.push(task.gid);
    const inProcess: unknown[] = [];
    for await (const task of local('asana').records('workspace_task_search', 'list', params)) inProcess.push(task.gid);
    expect(viaService).toEqual(inProcess);
    expect(new Set(viaService).size).toBe(fake.dataset.tasksOf(fake.anchors.premiumWorkspaceGid).filter((task) => !task.completed).length);
    // In another order both refuse before any request, with the same error.
    const unpageable = { ...params, sort_by: 'modified_at' };
    const readAll = async (connection: {
      records(entity: string, action: string, params: Record<string, unknown>): AsyncIterable<Record<string, unknown>>;
    }) => {
      const read: unknown[] = [];
      const error = await (async () => {
        for await (const task of connection.records('workspace_task_search', 'list', unpageable)) read.push(task.gid);
      })().catch((e) => e);
      return { read, error };
    };
    const requestsBefore = fake.requests.length;
    const viaServiceError = await readAll(hosted('asana'));
    const inProcessError = await readAll(local('asana'));
    expect(fake.requests.length).toBe(requestsBefore);
    expect(viaServiceError.read).toEqual([]);
    expect(viaServiceError.error).toBeInstanceOf(InvalidParamsError);
    expect(viaServiceError.error.message).toBe(inProcessError.error.message);
    expect(viaServiceError.error.message).toBe(
      'invalid params for asana workspace_task_search list: records() reads every page, and pages are read in created_at order only: leave sort_by out or set it to created_at (in another order, execute gives the first page)',
    );
    expect(viaServiceError.error.details).toEqual([
      { path: '/sort_by', message: 'pages are read in created_at order only: leave sort_by out or set it to created_at' },
    ]);
  });

  test('sync() and search through the service answer as the library with a store does', async () => {
    const gong = hosted('gong');
    const started = await gong.sync({ full: true });
    expect(started.connector_id).toEqual(expect.stringMatching(/^conn_/));
    let status = await gong.syncStatus();
    for (let i = 0; i < 300 && (status.running || status.entities.length < 2 || status.entities.some((e) => e.status !== 'succeeded')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await gong.syncStatus();
    }
    expect(status.entities.map((e) => [e.entity, e.status, e.mode])).toEqual([
      ['calls', 'succeeded', 'full'],
      ['users', 'succeeded', 'full'],
    ]);
    const info = sandbox.upstreams.gong!;
    const copy = connect('gong', {
      credentials: info.credentials,
      baseUrl: info.base_url,
      rateLimit: false,
      store: `sqlite:${join(mkdtempSync(join(tmpdir(), 'client-copy-')), 'copy.db')}`,
    });
    try {
      await copy.sync();
      const params: SearchParams<GongCallsSearchFields> = {
        query: { filter: { or: [{ eq: { direction: 'Inbound' } }, { keyword: { title: 'umbrella' } }] }, sort: [{ started: 'desc' }] },
        limit: 25,
        fields: ['id', 'title', 'started'],
      };
      const viaService = await gong.execute('calls', 'search', params);
      const inProcess = await copy.execute('calls', 'search', params);
      expect(viaService.hits.length).toBe(25);
      expect(viaService.hits).toEqual(inProcess.hits);
      expect(typeof viaService.next_cursor).toBe('string');
    } finally {
      await copy.close();
    }
  });

  test('errors arrive as the same typed errors', async () => {
    const error = await hosted('hubspot')
      .execute('contacts', 'list', { limit: 0 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.details).toEqual([{ path: '/limit', message: 'must be >= 1' }]);
    const nobody = await hosted('hubspot', 'user-without-connectors')
      .execute('contacts', 'list')
      .catch((e) => e);
    expect(nobody.code).toBe('CONNECTOR_NOT_FOUND');
  });

  test('with several connectors of a type the client refuses to guess and lists them; connectorId picks one', async () => {
    const eu = await createFor('user-2', 'hubspot', 'CRM EU');
    const us = await createFor('user-2', 'hubspot', 'CRM US');
    const gong = await createFor('user-2', 'gong', 'Calls');
    const error = await failure(hosted('hubspot', 'user-2').execute('contacts', 'list', { limit: 1 }));
    expect(error).toBeInstanceOf(AmbiguousConnectorError);
    expect({ code: error.code, status: error.status, message: error.message, details: error.details }).toEqual({
      code: 'AMBIGUOUS_CONNECTOR',
      status: 409,
      // Newest first, as the service lists them.
      message: `user user-2 has 2 hubspot connectors: ${us.id} ("CRM US"), ${eu.id} ("CRM EU"); pass hosted.connectorId to pick one`,
      details: [
        { path: '/connectorId', message: `${us.id}: name "CRM US", created ${us.created_at}` },
        { path: '/connectorId', message: `${eu.id}: name "CRM EU", created ${eu.created_at}` },
      ],
    });
    const picked = hosted('hubspot', 'user-2', us.id);
    expect(((await picked.execute('contacts', 'list', { limit: 1 })) as ListResult).data).toHaveLength(1);
    expect((await picked.syncStatus()).connector_id).toBe(us.id);
    // The only connector of its type needs no id.
    expect((await hosted('gong', 'user-2').syncStatus()).connector_id).toBe(gong.id);
    const wrongType = await failure(hosted('hubspot', 'user-2', gong.id).execute('contacts', 'list'));
    expect({ code: wrongType.code, message: wrongType.message }).toEqual({
      code: 'INVALID_REQUEST',
      message: `connector ${gong.id} is a gong connector, not hubspot`,
    });
    const unknown = await failure(hosted('hubspot', 'user-2', 'conn_doesnotexist000000000000').execute('contacts', 'list'));
    expect(unknown.code).toBe('CONNECTOR_NOT_FOUND');
    // Another end user of the same client naming user-2's connector id reaches nothing of it.
    const stranger = hosted('hubspot', 'user-3', us.id);
    const foreign = await failure(stranger.execute('contacts', 'list', { limit: 1 }));
    expect({ code: foreign.code, status: foreign.status }).toEqual({ code: 'CONNECTOR_NOT_FOUND', status: 404 });
    expect((await failure(stranger.syncStatus())).code).toBe('CONNECTOR_NOT_FOUND');
  });

  test('download streams through the service with Range', async () => {
    const gid = sandbox.fakes.asana.anchors.attachments.asana;
    const file = await hosted('asana').download('attachments', { attachment_gid: gid, range_header: 'bytes=5-14' });
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(Buffer.from(chunk));
    expect(file.status).toBe(206);
    expect(Buffer.concat(chunks).equals(expectedBlobBytes(gid, 5, 14))).toBe(true);
  });

  test('the client renews its token when the service refuses it', async () => {
    const connection = hosted('gong');
    await connection.execute('workspaces', 'list');
    (connection as unknown as { token: { value: string; renewAt: number } }).token = { value: 'stale-token', renewAt: Date.now() + 60_000 };
    const again = (await connection.execute('workspaces', 'list')) as ListResult;
    expect(again.data.length).toBeGreaterThan(0);
  });
});

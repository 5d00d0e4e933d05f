/**
 * Issue 12, section 5 through the hosted HTTP API: create and credential PATCH run the type's
 * credentials check (refused credentials answer 400 INVALID_CREDENTIALS and store nothing;
 * `check_credentials: false` skips it), the create answer says which entities need which config
 * setting and how to find it, and Gong private calls stay out of the copy unless config says so.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findManifest } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { callJson, startHostileService, syncNow, tokenFor, type HostileService } from '../support/hostile-service.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

const HUBSPOT_REASON =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';
const REFUSED_TOKEN = 'pat-na1-refused-by-the-fake-0001';
const PROFILE_ID_NEED = {
  setting: 'profile_id',
  needed_by: { portfolios: ['list', 'get'], sponsored_product_campaigns: ['list', 'get'] },
  find_with: { entity: 'profiles', action: 'list', field: 'profileId' },
  message: 'portfolios and sponsored_product_campaigns need config.profile_id: find one with profiles list (field profileId)',
};

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

/** The error body a HubSpot token the fake refuses gets from create and PATCH. */
function refusedBody(requestId: string | null) {
  return {
    error: {
      code: 'INVALID_CREDENTIALS',
      message: `HubSpot CRM refused these credentials (401): ${HUBSPOT_REASON}`,
      retryable: false,
      details: [{ path: '/credentials', message: `refused by HubSpot CRM on the check read hubspot contacts list: ${HUBSPOT_REASON}` }],
      upstream: { status: 401, message: HUBSPOT_REASON, request_id: expect.any(String) },
      request_id: requestId,
    },
  };
}

describe.each(['sqlite', 'postgres'] as const)('a create with credentials the upstream refuses, on %s', (backend) => {
  let h: HostileService;

  beforeAll(async () => {
    if (backend === 'postgres') cluster ??= await startPostgres();
    h = await startHostileService(backend, sandbox, cluster);
  }, 120_000);
  afterAll(() => h?.close());

  test('answers 400 INVALID_CREDENTIALS with the upstream reason, and writes no connector row and no sync job', async () => {
    const t = await tokenFor(h, 'rita');
    const jobs = (await h.service.store.listSyncJobs()).length;
    const answer = await callJson(h, 'POST', '/v1/integrations/connectors', {
      token: t,
      body: { external_user_id: 'rita', connector_type: 'hubspot', name: 'refused', credentials: { access_token: REFUSED_TOKEN } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refusedBody(answer.headers.get('x-request-id')));
    expect(answer.text).not.toContain(REFUSED_TOKEN);
    expect(h.logs.join('\n')).not.toContain(REFUSED_TOKEN);
    expect(await h.service.store.listConnectors({ clientId: h.client.client_id, externalUserId: 'rita' })).toEqual([]);
    expect((await h.service.store.listSyncJobs()).length).toBe(jobs);
    expect((await callJson(h, 'GET', '/v1/integrations/connectors', { token: t })).body).toEqual({ data: [] });
  });
});

describe('connector setup through the hosted API', () => {
  let h: HostileService;

  beforeAll(async () => {
    h = await startHostileService('sqlite', sandbox, undefined);
  }, 60_000);
  afterAll(() => h?.close());

  const create = async (user: string, body: Record<string, unknown>) =>
    callJson(h, 'POST', '/v1/integrations/connectors', { token: await tokenFor(h, user), body: { external_user_id: user, ...body } });
  const execute = async (user: string, id: string, body: Record<string, unknown>) =>
    callJson(h, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token: await tokenFor(h, user), body });
  const patch = async (user: string, id: string, body: Record<string, unknown>) =>
    callJson(h, 'PATCH', `/v1/integrations/connectors/${id}`, { token: await tokenFor(h, user), body });

  test('check_credentials: false stores credentials without asking the upstream; they fail at use', async () => {
    const fake = sandbox.fakes.hubspot;
    const before = fake.requests.length;
    const created = await create('sam', { connector_type: 'hubspot', credentials: { access_token: REFUSED_TOKEN }, check_credentials: false });
    expect(created.status).toBe(201);
    expect(fake.requests.length).toBe(before);
    const used = await execute('sam', created.body.id, { entity: 'contacts', action: 'list' });
    expect([used.status, used.body.error.code]).toEqual([409, 'REAUTH_REQUIRED']);
  });

  test('a credential PATCH runs the check: refused credentials answer 400 and the stored ones keep working', async () => {
    const created = await create('tess', { connector_type: 'hubspot', credentials: sandbox.upstreams.hubspot!.credentials });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const refused = await patch('tess', id, { credentials: { access_token: REFUSED_TOKEN } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(refusedBody(refused.headers.get('x-request-id')));
    const still = await execute('tess', id, { entity: 'contacts', action: 'list', params: { limit: 1 } });
    expect([still.status, still.body.data.length]).toEqual([200, 1]);
    const unchecked = await patch('tess', id, { credentials: { access_token: REFUSED_TOKEN }, check_credentials: false });
    expect(unchecked.status).toBe(200);
    expect((await execute('tess', id, { entity: 'contacts', action: 'list' })).status).toBe(409);
    const alone = await patch('tess', id, { check_credentials: false });
    expect([alone.status, alone.body.error.code, alone.body.error.details]).toEqual([
      400,
      'INVALID_REQUEST',
      [{ path: '/credentials', message: 'must have property credentials when property check_credentials is present' }],
    ]);
  });

  test('a Gong OAuth create stores the rotated refresh token its check received: the next call refreshes nothing', async () => {
    const fake = sandbox.fakes.gong;
    const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
    const spent = fake.currentRefreshToken();
    const before = fake.stats.tokenRequests;
    const created = await create('uma', { connector_type: 'gong', credentials: { client_id, client_secret, refresh_token: spent } });
    expect([created.status, created.body.auth_scheme]).toEqual([201, 'oauth']);
    expect(fake.stats.tokenRequests - before).toBe(1);
    const users = await execute('uma', created.body.id, { entity: 'users', action: 'list' });
    expect(users.status).toBe(200);
    expect(fake.stats.tokenRequests - before).toBe(1);
    expect(fake.refreshTokens().find((r) => r.token === spent)?.status).toBe('rotated');
  });

  test('an Amazon Ads connector created with the SPEC fields names the entities that need profile_id and the profiles list that finds it', async () => {
    const created = await create('vera', { connector_type: 'amazon-ads', credentials: sandbox.upstreams['amazon-ads']!.credentials });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({ region: 'NA' });
    expect(created.body.missing_config).toEqual([PROFILE_ID_NEED]);
    const id = created.body.id as string;
    const refused = await execute('vera', id, { entity: 'portfolios', action: 'list' });
    expect([refused.status, refused.body.error.message]).toEqual([
      400,
      'this request needs config profile_id (find one with profiles list (field profileId)); set it when connecting (config: { profile_id: ... })',
    ]);
    const profiles = await execute('vera', id, { entity: 'profiles', action: 'list' });
    const profileId = String(sandbox.upstreams['amazon-ads']!.config.profile_id);
    expect(profiles.body.data.map((p: { profileId: number }) => String(p.profileId))).toContain(profileId);
    const patched = await patch('vera', id, { config: { region: 'NA', profile_id: profileId } });
    expect([patched.status, patched.body.missing_config]).toEqual([200, []]);
    const portfolios = await execute('vera', id, { entity: 'portfolios', action: 'list' });
    expect(portfolios.status).toBe(200);
    expect(portfolios.body.data.length).toBeGreaterThan(0);
  });

  test('GET /v1/connector-types and the OpenAPI document describe the check, config and its needs', async () => {
    const types = await callJson(h, 'GET', '/v1/connector-types');
    const ads = types.body.data.find((t: { type: string }) => t.type === 'amazon-ads');
    expect({
      check: ads.check,
      config_needs: ads.config_needs,
      portfolios: ads.entities.portfolios.actions.list.required_config,
      profiles: ads.entities.profiles.actions.list.required_config,
    }).toEqual({
      check: { entity: 'profiles', action: 'list' },
      config_needs: [PROFILE_ID_NEED],
      portfolios: ['profile_id'],
      profiles: [],
    });
    expect(types.body.data.find((t: { type: string }) => t.type === 'gong').config_needs).toEqual([]);
    const doc = (await callJson(h, 'GET', '/openapi.json')).body;
    const post = doc.paths['/v1/integrations/connectors'].post;
    const body = post.requestBody.content['application/json'].schema;
    expect(body.properties.check_credentials.type).toBe('boolean');
    expect(body.properties.config.description).toContain(`amazon-ads: region, profile_id; ${PROFILE_ID_NEED.message}`);
    expect(body.properties.config.description).toContain('gong: include_private_calls');
    expect(body.properties.config.anyOf).toContainEqual({ $ref: '#/components/schemas/ConnectorConfig.amazon-ads' });
    expect(doc.components.schemas['ConnectorConfig.amazon-ads']).toEqual({ title: 'amazon-ads config', ...findManifest('amazon-ads').manifest.config });
    expect(post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Connector' });
    expect(Object.keys(doc.components.schemas.Connector.properties)).toContain('missing_config');
    const update = doc.paths['/v1/integrations/connectors/{id}'].patch.requestBody.content['application/json'].schema;
    expect(update.properties.check_credentials.type).toBe('boolean');
  });

  test('Gong private calls stay out of the copy and of get until a config PATCH includes them', async () => {
    const records = sandbox.fakes.gong.dataset.callRecords;
    const privateIds = records
      .filter((r) => r.metaData.isPrivate)
      .map((r) => r.metaData.id)
      .sort();
    const created = await create('will', { connector_type: 'gong', credentials: sandbox.upstreams.gong!.credentials });
    expect([created.status, created.body.config]).toEqual([201, { include_private_calls: false }]);
    const id = created.body.id as string;
    const t = await tokenFor(h, 'will');
    const searchPrivate = async () =>
      (await execute('will', id, { entity: 'calls', action: 'search', params: { query: { filter: { eq: { isPrivate: true } } }, limit: 100 } })).body.hits
        .map((hit: { id: string }) => hit.id)
        .sort();
    const callRecords = async () =>
      (await callJson(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: t })).body.entities.find((e: { entity: string }) => e.entity === 'calls')
        .records;

    await syncNow(h, t, id);
    expect(await callRecords()).toBe(records.length - privateIds.length);
    expect(await searchPrivate()).toEqual([]);
    const hidden = await execute('will', id, { entity: 'calls', action: 'get', params: { id: privateIds[0] } });
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'NOT_FOUND']);

    const planned = (await callJson(h, 'GET', `/v1/integrations/connectors/${id}`, { token: t })).body.sync.next_sync_at as string;
    const patched = await patch('will', id, { config: { include_private_calls: true } });
    expect(patched.body.config).toEqual({ include_private_calls: true });
    // A config change makes a full pass due at once, an interval before the one planned after the last pass.
    expect(Date.parse(planned) - Date.parse(patched.body.sync.next_sync_at)).toBeGreaterThan(patched.body.sync.interval_ms / 2);
    await syncNow(h, t, id);
    expect(await callRecords()).toBe(records.length);
    expect(await searchPrivate()).toEqual(privateIds);
    const shown = await execute('will', id, { entity: 'calls', action: 'get', params: { id: privateIds[0] } });
    expect([shown.status, shown.body.data.isPrivate]).toEqual([200, true]);
  });
});

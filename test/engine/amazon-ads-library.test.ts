import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type ListResult, type RecordResult } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { checkRequest, checkResponse, loadOpenApi } from '../support/openapi-conformance.js';
import { upstreamSpec } from '../support/upstream-specs.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(() => sandbox.close());

function ads(config: Record<string, unknown> = {}) {
  const info = sandbox.upstreams['amazon-ads']!;
  return connect('amazon-ads', { credentials: info.credentials, config: { ...info.config, ...config }, baseUrl: info.base_url, rateLimit: false });
}

describe('amazon-ads profiles', () => {
  test('list returns the region profiles; profileTypeFilter filters them', async () => {
    const all = (await ads().execute('profiles', 'list')) as ListResult;
    const fake = sandbox.fakes['amazon-ads'];
    expect(all.data.map((p) => p.profileId)).toEqual(fake.dataset.profiles('NA').map((p) => p.profileId));
    expect(all.meta).toEqual({ has_more: false });
    for (const profile of all.data) {
      expect(typeof profile.profileId).toBe('number');
      for (const field of ['countryCode', 'currencyCode', 'dailyBudget', 'timezone', 'accountInfo']) expect(profile).toHaveProperty(field);
    }
    expect(all.data.some((p) => p.dailyBudget === null)).toBe(true);
    const sellers = (await ads().execute('profiles', 'list', { profileTypeFilter: 'seller,vendor' })) as ListResult;
    expect(sellers.data.length).toBe(5);
    expect(sellers.data.every((p) => ['seller', 'vendor'].includes((p.accountInfo as { type: string }).type))).toBe(true);
    expect(fake.requests.at(-1)!.headers['amazon-advertising-api-scope']).toBeUndefined();
    const bad = await ads()
      .execute('profiles', 'list', { profileTypeFilter: 'sellers' })
      .catch((e) => e);
    expect(bad.code).toBe('INVALID_PARAMS');
  });

  test('get reads one profile; an unknown one is NOT_FOUND with the v2 error text', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const one = (await ads().execute('profiles', 'get', { profileId: fake.profileId })) as RecordResult;
    expect(one.data.profileId).toBe(fake.profileId);
    const missing = await ads()
      .execute('profiles', 'get', { profileId: 42 })
      .catch((e) => e);
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.upstream.message.length).toBeGreaterThan(0);
  });
});

describe('amazon-ads portfolios and campaigns', () => {
  test('portfolios list pages with nextToken and maps extended data to SPEC names', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const first = (await ads().execute('portfolios', 'list', { includeExtendedDataFields: 'true' })) as ListResult;
    expect(first.meta.total).toBe(fake.dataset.portfolios(fake.profileId).length);
    expect(first.meta.has_more).toBe(true);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/vnd.spPortfolio.v3+json');
    expect(sent.headers['amazon-advertising-api-scope']).toBe(String(fake.profileId));
    expect(sent.headers['amazon-advertising-api-clientid']).toBe(fake.clientId);
    expect(sent.body).toEqual({ includeExtendedDataFields: true });
    const record = first.data[0]!;
    expect(typeof record.creationDate).toBe('number');
    expect(typeof record.lastUpdatedDate).toBe('number');
    expect(typeof record.servingStatus).toBe('string');
    expect(record.creationDate).toBe(Date.parse((record.extendedData as { creationDateTime: string }).creationDateTime));
    const ids: unknown[] = [];
    for await (const p of ads().records('portfolios', 'list')) ids.push(p.portfolioId);
    expect(ids.length).toBe(first.meta.total);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('portfolios get uses the v2 path and returns the SPEC fields', async () => {
    const list = (await ads().execute('portfolios', 'list')) as ListResult;
    const id = Number(list.data[0]!.portfolioId);
    const one = (await ads().execute('portfolios', 'get', { portfolioId: id })) as RecordResult;
    expect(sandbox.fakes['amazon-ads'].requests.at(-1)!.path).toBe(`/v2/portfolios/extended/${id}`);
    expect(one.data).toMatchObject({
      portfolioId: id,
      name: list.data[0]!.name,
      creationDate: expect.any(Number),
      lastUpdatedDate: expect.any(Number),
      servingStatus: expect.any(String),
    });
  });

  test('campaign list sends stateFilter as upper-case states and pages to the end', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const paused = (await ads().execute('sponsored_product_campaigns', 'list', { stateFilter: { include: 'paused,archived' }, maxResults: 50 })) as ListResult;
    expect(fake.requests.at(-1)!.body).toEqual({ stateFilter: { include: ['PAUSED', 'ARCHIVED'] }, maxResults: 50 });
    expect(paused.data.every((c) => ['PAUSED', 'ARCHIVED'].includes(c.state as string))).toBe(true);
    const everything: unknown[] = [];
    for await (const c of ads().records('sponsored_product_campaigns', 'list', { maxResults: 100 })) everything.push(c.campaignId);
    expect(everything.length).toBe(fake.dataset.campaigns(fake.profileId).length);
    const bad = await ads()
      .execute('sponsored_product_campaigns', 'list', { stateFilter: { include: 'running' } })
      .catch((e) => e);
    expect(bad.details).toEqual([{ path: '/stateFilter/include', message: expect.stringContaining('must match pattern') }]);
  });

  test('campaign get uses the v2 path; SPEC fields absent upstream are null', async () => {
    const list = (await ads().execute('sponsored_product_campaigns', 'list', { maxResults: 5 })) as ListResult;
    const id = Number(list.data[0]!.campaignId);
    const one = (await ads().execute('sponsored_product_campaigns', 'get', { campaignId: id })) as RecordResult;
    expect(sandbox.fakes['amazon-ads'].requests.at(-1)!.path).toBe(`/v2/sp/campaigns/${id}`);
    expect(one.data.campaignId).toBe(id);
    expect(one.data.name).toBe(list.data[0]!.name);
    for (const field of ['tags', 'dynamicBidding', 'budget', 'extendedData', 'marketplaceBudgetAllocation', 'offAmazonSettings'])
      expect(one.data).toHaveProperty(field, null);
  });

  test('a call that needs the Scope header fails before any request without profile_id, naming the setting and the profiles list that finds it', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const before = fake.requests.length;
    for (const [entity, action, params] of [
      ['portfolios', 'list', {}],
      ['portfolios', 'get', { portfolioId: 1 }],
      ['sponsored_product_campaigns', 'list', {}],
      ['sponsored_product_campaigns', 'get', { campaignId: 1 }],
    ] as const) {
      const error = await ads({ profile_id: undefined })
        .execute(entity, action, params)
        .catch((e) => e);
      expect(error.code).toBe('INVALID_CONFIG');
      expect(error.message).toBe(
        'this request needs config profile_id (find one with profiles list (field profileId)); set it when connecting (config: { profile_id: ... })',
      );
      expect(error.details).toEqual([{ path: '/config/profile_id', message: 'is required for this action; find one with profiles list (field profileId)' }]);
    }
    const tokenCalls = fake.requests.slice(before).filter((r) => !r.path.startsWith('/auth/'));
    expect(tokenCalls).toEqual([]);
  });

  test('both error shapes are read: v3 {code, message} and v2 {code, details}', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    fake.faults.failNext(1, 403);
    const v3 = await ads()
      .execute('sponsored_product_campaigns', 'list')
      .catch((e) => e);
    expect(v3.code).toBe('FORBIDDEN');
    const served3 = fake.requests.at(-1)!.response.body as { message: string };
    expect(v3.upstream.message).toBe(served3.message);
    const v2 = await ads()
      .execute('sponsored_product_campaigns', 'get', { campaignId: 1 })
      .catch((e) => e);
    expect(v2.code).toBe('NOT_FOUND');
    const served2 = fake.requests.at(-1)!.response.body as { details: string };
    expect(served2.details.length).toBeGreaterThan(0);
    expect(v2.upstream.message).toBe(served2.details);
  });

  test('the region picks the API host', () => {
    const info = sandbox.upstreams['amazon-ads']!;
    expect(() => connect('amazon-ads', { credentials: info.credentials, config: { region: 'SA' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });

  test('every request the manifest renders conforms to the v3 documents, and their answers validate', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    fake.clearRequests();
    await ads().execute('portfolios', 'list', { includeExtendedDataFields: 'true' });
    await ads().execute('sponsored_product_campaigns', 'list', { stateFilter: { include: 'enabled' }, maxResults: 10 });
    const portfolios = loadOpenApi(upstreamSpec('amazon-ads-portfolios-v3.yaml'));
    const campaigns = loadOpenApi(upstreamSpec('amazon-ads-sponsored-products-v3.json'));
    const problems = fake.requests
      .filter((r) => r.path.endsWith('/list'))
      .flatMap((r) => {
        const doc = r.path.startsWith('/portfolios') ? portfolios : campaigns;
        return [...checkRequest(doc, r), ...checkResponse(doc, r)];
      });
    expect(fake.requests.filter((r) => r.path.endsWith('/list'))).toHaveLength(2);
    expect(problems).toEqual([]);
  });
});

describe('amazon-ads OAuth', () => {
  test('50 concurrent calls with an expired token refresh once', async () => {
    const fake = sandbox.fakes['amazon-ads'];
    const info = sandbox.upstreams['amazon-ads']!;
    const expired = fake.issueAccessToken(3600);
    fake.expireAllAccessTokens();
    const connection = connect('amazon-ads', {
      credentials: { ...info.credentials, access_token: expired },
      config: info.config,
      baseUrl: info.base_url,
      rateLimit: false,
    });
    const before = fake.stats.tokenRequests;
    const results = await Promise.all(Array.from({ length: 50 }, () => connection.execute('profiles', 'list')));
    expect(results.every((r) => (r as ListResult).data.length > 0)).toBe(true);
    expect(fake.stats.tokenRequests - before).toBe(1);
  });

  test('a revoked refresh token is REAUTH_REQUIRED', async () => {
    const info = sandbox.upstreams['amazon-ads']!;
    const connection = connect('amazon-ads', {
      credentials: { ...info.credentials, refresh_token: 'Atzr|not-issued' },
      config: info.config,
      baseUrl: info.base_url,
    });
    const error = await connection.execute('profiles', 'list').catch((e) => e);
    expect(error.code).toBe('REAUTH_REQUIRED');
  });
});

import { rawRequest, readCutBody } from '../support/raw-request.js';
/**
 * The Amazon Ads fake, through real HTTP on loopback: the LwA token endpoint, auth headers
 * (token, ClientId, Scope), profiles, the v3 portfolio and campaign lists with their media types,
 * filters and nextToken paging, the v2 single reads, throttling and every fault switch. Every
 * response of the two v3 operations is checked against upstream-specs/ (DESIGN.md §8, §9).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startAmazonAdsFake, type AmazonAdsFake } from '../../engine/sandbox/amazon-ads/index.js';
import { checkResponse, loadOpenApi, matchOperation, type OpenApiDocument } from '../support/openapi-conformance.js';
import { upstreamSpec } from '../support/upstream-specs.js';
import { httpCall, type HttpAnswer } from '../support/http-call.js';

const spDoc = loadOpenApi(upstreamSpec('amazon-ads-sponsored-products-v3.json'));
const portfoliosDoc = loadOpenApi(upstreamSpec('amazon-ads-portfolios-v3.yaml'));

const CAMPAIGN_TYPE = 'application/vnd.spCampaign.v3+json';
const PORTFOLIO_TYPE = 'application/vnd.spPortfolio.v3+json';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The v3 document of a path, if the path is one of the two documented operations. */
function docFor(path: string): OpenApiDocument | undefined {
  if (path === '/sp/campaigns/list') return spDoc;
  if (path === '/portfolios/list') return portfoliosDoc;
  return undefined;
}

/** Every fake started in this file; after each test, all they served must conform. */
const fakesInUse: AmazonAdsFake[] = [];

afterEach(() => {
  const problems: string[] = [];
  for (const fake of fakesInUse) {
    for (const exchange of fake.requests) {
      if (exchange.fault === 'reset') {
        expect(exchange.response.status).toBe(0);
        continue;
      }
      const label = `${exchange.method} ${exchange.path} -> ${exchange.response.status}`;
      expect(exchange.response.headers['x-amzn-requestid'], label).toMatch(UUID);
      const body = exchange.response.body as Record<string, unknown>;
      const doc = docFor(exchange.path);
      if (doc) {
        const declared = Object.keys(matchOperation(doc, exchange.method, exchange.path)?.operation.responses ?? {});
        // 405 and 406 are not in the documents; injected 5xx other than 500 neither.
        const undeclared = !declared.includes(String(exchange.response.status));
        if (undeclared) {
          expect([405, 406, 502, 503, 504], label).toContain(exchange.response.status);
          expect(body, label).toEqual({ code: expect.any(String), message: expect.any(String) });
        } else {
          problems.push(...checkResponse(doc, exchange));
        }
      } else if (exchange.response.status >= 400 && exchange.path !== '/auth/o2/token' && exchange.fault === undefined) {
        // A.6: legacy routes answer {code, details}, never a `message`.
        expect(Object.keys(body).sort(), label).toEqual(['code', 'details']);
      }
    }
    fake.clearRequests();
  }
  expect(problems).toEqual([]);
});

interface CallInit {
  method?: string;
  /** Access token; default a fresh one from the token endpoint; null: no Authorization. */
  token?: string | null;
  /** Amazon-Advertising-API-ClientId; default the fake's client id; null: none. */
  clientId?: string | null;
  /** Amazon-Advertising-API-Scope; null or absent: none. */
  scope?: string | number | null;
  contentType?: string;
  accept?: string;
  /** Sent as JSON text with `contentType`. */
  json?: unknown;
  /** Sent as is. */
  body?: string;
}

const tokens = new Map<AmazonAdsFake, string>();

/** An access token obtained through the real refresh flow (cached per fake). */
async function accessToken(fake: AmazonAdsFake): Promise<string> {
  const cached = tokens.get(fake);
  if (cached) return cached;
  const response = await refresh(fake);
  expect(response.status).toBe(200);
  tokens.set(fake, response.body.access_token);
  return response.body.access_token;
}

async function call(fake: AmazonAdsFake, path: string, init: CallInit = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  const clientId = init.clientId === undefined ? fake.clientId : init.clientId;
  if (clientId !== null) headers['amazon-advertising-api-clientid'] = clientId;
  if (init.scope !== undefined && init.scope !== null) headers['amazon-advertising-api-scope'] = String(init.scope);
  if (init.accept) headers['accept'] = init.accept;
  // JSON goes as text with only the content type the test names: the media types are what is under test.
  const raw = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const token = init.token === undefined ? await accessToken(fake) : init.token;
  return httpCall(fake.baseUrl + path, { method: init.method, token, raw, contentType: init.contentType, headers });
}

const listCampaigns = (fake: AmazonAdsFake, json: unknown = {}, init: CallInit = {}): Promise<HttpAnswer> =>
  call(fake, '/sp/campaigns/list', { method: 'POST', scope: fake.profileId, contentType: CAMPAIGN_TYPE, accept: CAMPAIGN_TYPE, json, ...init });

const listPortfolios = (fake: AmazonAdsFake, json: unknown = {}, init: CallInit = {}): Promise<HttpAnswer> =>
  call(fake, '/portfolios/list', { method: 'POST', scope: fake.profileId, contentType: PORTFOLIO_TYPE, json, ...init });

/** A refresh-token grant; an override of '' leaves that field out. */
function refresh(fake: AmazonAdsFake, overrides: Record<string, string> = {}): Promise<HttpAnswer> {
  const form: Record<string, string> = {
    grant_type: 'refresh_token',
    refresh_token: fake.refreshToken,
    client_id: fake.clientId,
    client_secret: fake.clientSecret,
    ...overrides,
  };
  for (const [key, value] of Object.entries(form)) if (value === '') delete form[key];
  return call(fake, '/auth/o2/token', {
    method: 'POST',
    token: null,
    clientId: null,
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams(form).toString(),
  });
}

/** POST to the token endpoint with arbitrary headers and body. */
async function tokenRequest(fake: AmazonAdsFake, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
  return httpCall(`${fake.baseUrl}/auth/o2/token`, { method: 'POST', headers, raw: body });
}

/** Every page of a v3 list, following nextToken; checks totalResults on each page. */
async function allPages(
  list: (json: unknown) => Promise<HttpAnswer>,
  key: 'campaigns' | 'portfolios',
  body: Record<string, unknown> = {},
): Promise<{ records: any[]; pages: number[]; total: number }> {
  const records: any[] = [];
  const pages: number[] = [];
  let nextToken: string | undefined;
  let total = -1;
  for (let guard = 0; guard < 100; guard += 1) {
    const response = await list(nextToken === undefined ? body : { ...body, nextToken });
    expect(response.status).toBe(200);
    if (total < 0) total = response.body.totalResults;
    expect(response.body.totalResults).toBe(total);
    records.push(...response.body[key]);
    pages.push(response.body[key].length);
    nextToken = response.body.nextToken;
    if (nextToken === undefined) {
      expect('nextToken' in response.body).toBe(false);
      return { records, pages, total };
    }
    expect(nextToken).toMatch(/^[A-Za-z0-9_-]+$/);
  }
  throw new Error('paging did not end');
}

/** One request on its own connection, so that a reset or a cut body reaches the test as an error. */

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let fake: AmazonAdsFake;
/** Rate limits on, 60 records, another seed. */
let limited: AmazonAdsFake;
/** Profiles of the main fake, by role. */
let caProfile: number;
let kdpProfile: number;
let euProfile: number;

beforeAll(async () => {
  fake = await startAmazonAdsFake({ rateLimits: false, port: 0, host: '127.0.0.1', records: 1200, seed: 42 });
  limited = await startAmazonAdsFake({ records: 60, seed: 7 });
  fakesInUse.push(fake, limited);
  const na = fake.dataset.profiles('NA');
  caProfile = na.find((profile) => profile.countryCode === 'CA')!.profileId;
  kdpProfile = na.find((profile) => profile.accountInfo.subType === 'KDP_AUTHOR')!.profileId;
  euProfile = fake.dataset.profiles('EU')[0]!.profileId;
});

afterAll(async () => {
  await fake?.close();
  await limited?.close();
});

describe('describe() and seeded data', () => {
  test('describe() gives the base URL, the LwA credentials and the NA main seller profile', () => {
    const info = fake.describe();
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.base_url).toBe(fake.baseUrl);
    expect(info.credentials).toEqual({ client_id: fake.clientId, client_secret: fake.clientSecret, refresh_token: fake.refreshToken });
    expect(info.credentials_by_scheme).toEqual({ oauth: info.credentials });
    expect(info.credentials['client_id']).toMatch(/^amzn1\.application-oa2-client\.[0-9a-f]{32}$/);
    expect(info.credentials['refresh_token']).toMatch(/^Atzr\|/);
    expect(info.config).toEqual({ region: 'NA', profile_id: String(fake.profileId) });
    const main = fake.dataset.profiles('NA')[0]!;
    expect(main.profileId).toBe(fake.profileId);
    expect(main.accountInfo.type).toBe('seller');
    expect(fake.dataset.mainProfileId).toBe(fake.profileId);
  });

  test('records scales the main profile: 150 portfolios and 250 campaigns by default, fewer with fewer records', () => {
    expect(fake.dataset.counts()[String(fake.profileId)]).toEqual({ portfolios: 150, campaigns: 250 });
    expect(limited.dataset.counts()[String(limited.profileId)]).toEqual({ portfolios: 8, campaigns: 13 });
    expect(fake.dataset.profiles()).toHaveLength(9);
    expect(fake.dataset.profiles('NA')).toHaveLength(6);
    expect(fake.dataset.profiles('EU')).toHaveLength(2);
    expect(fake.dataset.profiles('FE')).toHaveLength(1);
    const states = new Set(fake.dataset.campaigns(fake.profileId).map((campaign) => campaign.state));
    expect([...states].sort()).toEqual(['ARCHIVED', 'ENABLED', 'PAUSED']);
    expect(fake.dataset.campaigns(fake.profileId).filter((campaign) => campaign.portfolioId !== undefined).length).toBeGreaterThan(100);
  });

  test('the same seed gives the same data and credentials; another seed does not', async () => {
    const twin = await startAmazonAdsFake({ records: 60, seed: 7 });
    const other = await startAmazonAdsFake({ records: 60, seed: 8 });
    try {
      expect(twin.clientId).toBe(limited.clientId);
      expect(twin.refreshToken).toBe(limited.refreshToken);
      expect(twin.profileId).toBe(limited.profileId);
      expect(twin.dataset.campaigns(twin.profileId)).toEqual(limited.dataset.campaigns(limited.profileId));
      expect(twin.dataset.portfolios(twin.profileId)).toEqual(limited.dataset.portfolios(limited.profileId));
      expect(other.clientId).not.toBe(limited.clientId);
      expect(other.profileId).not.toBe(limited.profileId);
    } finally {
      await twin.close();
      await other.close();
    }
  });
});

describe('LwA token endpoint (POST /auth/o2/token)', () => {
  test('a refresh returns a new Atza access token and the same refresh token, valid for 3600 s', async () => {
    const before = fake.stats.tokenRequests;
    const response = await refresh(fake);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ access_token: expect.stringMatching(/^Atza\|/), refresh_token: fake.refreshToken, token_type: 'bearer', expires_in: 3600 });
    expect(fake.stats.tokenRequests).toBe(before + 1);
    const second = await refresh(fake);
    expect(second.body.access_token).not.toBe(response.body.access_token);
    expect((await call(fake, '/v2/profiles', { token: response.body.access_token })).status).toBe(200);
    expect((await call(fake, '/v2/profiles', { token: second.body.access_token })).status).toBe(200);
  });

  test('client credentials may come as HTTP Basic', async () => {
    const basic = Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64');
    const response = await tokenRequest(
      fake,
      { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: fake.refreshToken }).toString(),
    );
    expect(response.status).toBe(200);
    expect(response.body.access_token).toMatch(/^Atza\|/);
  });

  test('OAuth2 errors: invalid_grant, invalid_client, invalid_request, unsupported_grant_type', async () => {
    expect(await refresh(fake, { refresh_token: 'Atzr|not-the-token' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The request has an invalid grant parameter : refresh_token' },
    });
    expect(await refresh(fake, { client_secret: 'wrong' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: expect.any(String) },
    });
    expect(await refresh(fake, { client_id: 'amzn1.application-oa2-client.0000' })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await refresh(fake, { refresh_token: '' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The request is missing a required parameter : refresh_token' },
    });
    expect(await refresh(fake, { client_secret: '' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await refresh(fake, { grant_type: '' })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await refresh(fake, { grant_type: 'client_credentials' })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await refresh(fake, { grant_type: 'authorization_code', code: 'ANxyz' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A JSON body is not a form: the grant type is missing.
    const json = await tokenRequest(
      fake,
      { 'content-type': 'application/json' },
      JSON.stringify({ grant_type: 'refresh_token', refresh_token: fake.refreshToken, client_id: fake.clientId, client_secret: fake.clientSecret }),
    );
    expect(json).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  test('revokeRefreshToken makes refreshes fail while issued access tokens keep working', async () => {
    const own = await startAmazonAdsFake({ records: 8, seed: 3, rateLimits: false });
    try {
      const issued = (await refresh(own)).body.access_token as string;
      own.revokeRefreshToken();
      expect(await refresh(own)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await call(own, '/v2/profiles', { token: issued })).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('auth headers', () => {
  test('no, unknown or expired access tokens get 401 UNAUTHORIZED in the route family shape', async () => {
    const legacy = await call(fake, '/v2/profiles', { token: null });
    expect(legacy).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', details: 'Authorization header is missing' } });
    const v3 = await listCampaigns(fake, {}, { token: null });
    expect(v3).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', message: 'Authorization header is missing' } });
    expect(await call(fake, '/v2/profiles', { token: 'Atza|made-up' })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', details: 'Access token is invalid' },
    });
    const expired = fake.issueAccessToken(0);
    expect(await call(fake, '/v2/profiles', { token: expired })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', details: 'Access token is expired' },
    });
    expect(await listPortfolios(fake, {}, { token: expired })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: 'Access token is expired' },
    });
    const fresh = fake.issueAccessToken(60);
    expect((await call(fake, '/v2/profiles', { token: fresh })).status).toBe(200);
  });

  test('expireAllAccessTokens forces a refresh, after which calls succeed again', async () => {
    const own = await startAmazonAdsFake({ records: 8, seed: 4, rateLimits: false });
    try {
      const issued = (await refresh(own)).body.access_token as string;
      expect((await call(own, '/v2/profiles', { token: issued })).status).toBe(200);
      own.expireAllAccessTokens();
      expect(await call(own, '/v2/profiles', { token: issued })).toMatchObject({ status: 401, body: { details: 'Access token is expired' } });
      const renewed = (await refresh(own)).body.access_token as string;
      expect((await call(own, '/v2/profiles', { token: renewed })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test('Amazon-Advertising-API-ClientId: missing -> 400, another client -> 401', async () => {
    expect(await call(fake, '/v2/profiles', { clientId: null })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT', details: 'Amazon-Advertising-API-ClientId header is missing' },
    });
    const v3 = await listCampaigns(fake, {}, { clientId: null });
    expect(v3.status).toBe(400);
    expect(v3.body).toMatchObject({
      code: 'INVALID_ARGUMENT',
      errors: [{ errorType: 'missingValueError', errorValue: { missingValueError: { reason: 'MISSING_VALUE' } } }],
    });
    expect(await call(fake, '/v2/profiles', { clientId: 'amzn1.application-oa2-client.ffff' })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await listPortfolios(fake, {}, { clientId: 'amzn1.application-oa2-client.ffff' })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: expect.any(String) },
    });
  });

  test('Amazon-Advertising-API-Scope: missing, unknown, other region, and another profile sees its own data', async () => {
    expect(await listCampaigns(fake, {}, { scope: null })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', message: 'Scope header is missing' } });
    expect(await call(fake, `/v2/sp/campaigns/${fake.dataset.campaigns(fake.profileId)[0]!.campaignId}`)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', details: 'Scope header is missing' },
    });
    expect(await listCampaigns(fake, {}, { scope: '1234567' })).toMatchObject({ status: 401, body: { message: 'No matching advertiser found for scope' } });
    expect(await listCampaigns(fake, {}, { scope: 'not-a-profile' })).toMatchObject({
      status: 401,
      body: { message: 'No matching advertiser found for scope' },
    });
    expect(await listPortfolios(fake, {}, { scope: euProfile })).toMatchObject({
      status: 401,
      body: { message: `Not authorized to access scope ${euProfile}` },
    });
    const ca = await listCampaigns(fake, {}, { scope: caProfile });
    expect(ca.status).toBe(200);
    expect(ca.body.totalResults).toBe(12);
    expect(ca.body.campaigns.map((campaign: any) => campaign.campaignId)).toEqual(
      fake.dataset.campaigns(caProfile).map((campaign) => String(campaign.campaignId)),
    );
  });
});

describe('profiles (GET /v2/profiles, /v2/profiles/{id})', () => {
  test('a bare array of the NA profiles, no Scope needed', async () => {
    const response = await call(fake, '/v2/profiles');
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body).toEqual(fake.dataset.profiles('NA'));
    expect(response.body).toHaveLength(6);
    for (const profile of response.body) {
      expect(Number.isInteger(profile.profileId)).toBe(true);
      expect(profile).toMatchObject({ countryCode: expect.any(String), currencyCode: expect.any(String), timezone: expect.any(String) });
      expect(profile.accountInfo).toMatchObject({
        marketplaceStringId: expect.any(String),
        id: expect.any(String),
        name: expect.any(String),
        validPaymentMethod: expect.any(Boolean),
      });
      expect(['seller', 'vendor', 'agency']).toContain(profile.accountInfo.type);
    }
    expect(response.body.filter((profile: any) => profile.dailyBudget === undefined).length).toBeGreaterThan(0);
    expect(response.body.map((profile: any) => profile.countryCode)).not.toContain('UK');
    expect(response.body.some((profile: any) => profile.profileId === euProfile)).toBe(false);
  });

  test('profileTypeFilter and validPaymentMethodFilter filter; unknown values are 400', async () => {
    const sellersAndVendors = await call(fake, '/v2/profiles?profileTypeFilter=seller,vendor');
    expect(sellersAndVendors.body.map((profile: any) => profile.accountInfo.type).sort()).toEqual(['seller', 'seller', 'seller', 'seller', 'vendor']);
    const agency = await call(fake, '/v2/profiles?profileTypeFilter=agency');
    expect(agency.body).toHaveLength(1);
    expect(agency.body[0].accountInfo.type).toBe('agency');
    const unpaid = await call(fake, '/v2/profiles?validPaymentMethodFilter=false');
    expect(unpaid.body.map((profile: any) => profile.countryCode)).toEqual(['MX']);
    expect(await call(fake, '/v2/profiles?profileTypeFilter=SELLER')).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
    expect(await call(fake, '/v2/profiles?validPaymentMethodFilter=yes')).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
    expect((await call(fake, '/v2/profiles?apiProgram=campaign&accessLevel=view')).body).toHaveLength(6);
    expect((await call(fake, '/v2/profiles?accessLevel=owner')).status).toBe(400);
  });

  test('one profile by id; unknown or other-region ids are 404 NOT_FOUND "Profile not found"', async () => {
    const one = await call(fake, `/v2/profiles/${kdpProfile}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(fake.dataset.profiles('NA').find((profile) => profile.profileId === kdpProfile));
    expect(one.body.accountInfo.subType).toBe('KDP_AUTHOR');
    expect(await call(fake, '/v2/profiles/999')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', details: 'Profile not found' } });
    expect(await call(fake, `/v2/profiles/${euProfile}`)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', details: 'Profile not found' } });
    expect(await call(fake, '/v2/profiles/abc')).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
  });
});

describe('POST /portfolios/list', () => {
  test('pages through all 150 portfolios, 100 a page, in dataset order, totalResults on every page', async () => {
    const { records, pages, total } = await allPages((json) => listPortfolios(fake, json), 'portfolios');
    expect(total).toBe(150);
    expect(pages).toEqual([100, 50]);
    expect(records.map((record) => record.portfolioId)).toEqual(fake.dataset.portfolios(fake.profileId).map((record) => String(record.portfolioId)));
    expect(new Set(records.map((record) => record.name)).size).toBe(150);
    for (const record of records) {
      expect(typeof record.portfolioId).toBe('string');
      expect(record.state).toBe('ENABLED');
      expect(typeof record.inBudget).toBe('boolean');
      expect(record.budget.currencyCode).toBe('USD');
      expect(['DATE_RANGE', 'MONTHLY_RECURRING', 'NO_CAP']).toContain(record.budget.policy);
      expect(record.extendedData).toBeUndefined();
    }
  });

  test('answers the vendor media type; maxResults is not an option of this operation and is ignored', async () => {
    const response = await listPortfolios(fake, { maxResults: 10 });
    expect(response.headers.get('content-type')).toBe(PORTFOLIO_TYPE);
    expect(response.body.portfolios).toHaveLength(100);
  });

  test('includeExtendedDataFields true (or the string "true") adds extendedData; "false" does not', async () => {
    const withBoolean = await listPortfolios(fake, { includeExtendedDataFields: true });
    const withString = await listPortfolios(fake, { includeExtendedDataFields: 'true' });
    expect(withString.body).toEqual(withBoolean.body);
    const record = fake.dataset.portfolios(fake.profileId)[0]!;
    expect(withBoolean.body.portfolios[0].extendedData).toEqual({
      creationDateTime: new Date(record.createdAt).toISOString(),
      lastUpdateDateTime: new Date(record.updatedAt).toISOString(),
      servingStatus: record.servingStatus,
      statusReasons: [`${record.servingStatus}_DETAIL`],
    });
    const statuses = new Set(withBoolean.body.portfolios.map((portfolio: any) => portfolio.extendedData.servingStatus));
    expect(statuses.size).toBeGreaterThan(1);
    const withoutString = await listPortfolios(fake, { includeExtendedDataFields: 'false' });
    expect(withoutString.body.portfolios[0].extendedData).toBeUndefined();
    expect(await listPortfolios(fake, { includeExtendedDataFields: 'yes' })).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
  });

  test('portfolioIdFilter, nameFilter (exact and broad) and stateFilter', async () => {
    const seeded = fake.dataset.portfolios(fake.profileId);
    const picked = [seeded[3]!, seeded[120]!];
    const byId = await listPortfolios(fake, { portfolioIdFilter: { include: picked.map((record) => String(record.portfolioId)) } });
    expect(byId.body.totalResults).toBe(2);
    expect(byId.body.portfolios.map((record: any) => record.name)).toEqual(picked.map((record) => record.name));
    const exact = await listPortfolios(fake, { nameFilter: { include: [picked[0]!.name] } });
    expect(exact.body.portfolios.map((record: any) => record.portfolioId)).toEqual([String(picked[0]!.portfolioId)]);
    const broad = await listPortfolios(fake, { nameFilter: { include: ['prime day', 'ignored second term'], queryTermMatchType: 'BROAD_MATCH' } });
    expect(broad.body.totalResults).toBe(seeded.filter((record) => record.name.toLowerCase().includes('prime day')).length);
    expect(broad.body.totalResults).toBeGreaterThan(0);
    const enabled = await listPortfolios(fake, { stateFilter: { include: ['ENABLED'] } });
    expect(enabled.body.totalResults).toBe(150);
    const paused = await listPortfolios(fake, { stateFilter: { include: ['PAUSED'] } });
    expect(paused.status).toBe(400);
    expect(paused.body.errors[0]).toMatchObject({
      errorType: 'rangeError',
      errorValue: { rangeError: { reason: 'INVALID_ENUM_VALUE', allowed: ['ENABLED'] } },
    });
    expect((await listPortfolios(fake, { portfolioIdFilter: { include: [] } })).status).toBe(400);
  });

  test('a profile with few or no portfolios, in its own currency', async () => {
    const ca = await listPortfolios(fake, {}, { scope: caProfile });
    expect(ca.body.totalResults).toBe(4);
    expect(ca.body.portfolios.every((record: any) => record.budget.currencyCode === 'CAD')).toBe(true);
    expect('nextToken' in ca.body).toBe(false);
    const none = await listPortfolios(fake, {}, { scope: kdpProfile });
    expect(none).toMatchObject({ status: 200, body: { portfolios: [], totalResults: 0 } });
  });

  test('media types: 415 without the vendor Content-Type, 406 for an unacceptable Accept', async () => {
    expect(await listPortfolios(fake, {}, { contentType: 'application/json' })).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) },
    });
    const noType = await call(fake, '/portfolios/list', { method: 'POST', scope: fake.profileId, body: '' });
    expect(noType.status).toBe(415);
    expect(await listPortfolios(fake, {}, { accept: 'text/html' })).toMatchObject({
      status: 406,
      body: { code: 'NOT_ACCEPTABLE', message: 'No match for accept header' },
    });
    expect(await listPortfolios(fake, {}, { accept: `${PORTFOLIO_TYPE};q=0` })).toMatchObject({ status: 406 });
    for (const accept of [PORTFOLIO_TYPE, 'application/json', '*/*', 'text/html, application/*;q=0.5']) {
      expect((await listPortfolios(fake, {}, { accept })).status, accept).toBe(200);
    }
    expect((await listPortfolios(fake, {}, { contentType: 'application/vnd.spportfolio.v3+json; charset=utf-8' })).status).toBe(200);
    // An empty body is an empty request.
    const empty = await call(fake, '/portfolios/list', { method: 'POST', scope: fake.profileId, contentType: PORTFOLIO_TYPE, body: '' });
    expect(empty.body.portfolios).toHaveLength(100);
  });

  test('bad bodies and bad tokens are v3 400s', async () => {
    const notJson = await call(fake, '/portfolios/list', { method: 'POST', scope: fake.profileId, contentType: PORTFOLIO_TYPE, body: '{"nextToken":' });
    expect(notJson).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT', errors: [{ errorType: 'malformedValueError' }] } });
    expect((await listPortfolios(fake, [1, 2])).status).toBe(400);
    const forged = await listPortfolios(fake, { nextToken: 'bm90LWEtdG9rZW4' });
    expect(forged).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT', errors: [{ errorValue: { malformedValueError: { cause: { location: '$.nextToken' } } } }] },
    });
    const first = await listPortfolios(fake, {});
    const otherFilters = await listPortfolios(fake, { nextToken: first.body.nextToken, nameFilter: { include: ['x'] } });
    expect(otherFilters.status).toBe(400);
    const otherProfile = await listPortfolios(fake, { nextToken: first.body.nextToken }, { scope: caProfile });
    expect(otherProfile.status).toBe(400);
    const campaignToken = (await listCampaigns(fake, {})).body.nextToken;
    expect((await listPortfolios(fake, { nextToken: campaignToken })).status).toBe(400);
    // A blank token is no token.
    expect((await listPortfolios(fake, { nextToken: '' })).body.portfolios[0]).toEqual(first.body.portfolios[0]);
  });
});

describe('POST /sp/campaigns/list', () => {
  test('pages through all 250 campaigns with the default page size of 100', async () => {
    const { records, pages, total } = await allPages((json) => listCampaigns(fake, json), 'campaigns');
    expect(total).toBe(250);
    expect(pages).toEqual([100, 100, 50]);
    expect(records.map((record) => record.campaignId)).toEqual(fake.dataset.campaigns(fake.profileId).map((record) => String(record.campaignId)));
    const portfolioIds = new Set(fake.dataset.portfolios(fake.profileId).map((record) => String(record.portfolioId)));
    for (const record of records) {
      expect(typeof record.campaignId).toBe('string');
      expect(['AUTO', 'MANUAL']).toContain(record.targetingType);
      expect(['ENABLED', 'PAUSED', 'ARCHIVED']).toContain(record.state);
      expect(record.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(record.budget).toMatchObject({ budgetType: 'DAILY', budget: expect.any(Number), effectiveBudget: expect.any(Number) });
      expect(record.dynamicBidding.strategy).toMatch(/^(LEGACY_FOR_SALES|AUTO_FOR_SALES|MANUAL|RULE_BASED)$/);
      if (record.portfolioId !== undefined) expect(portfolioIds.has(record.portfolioId)).toBe(true);
      expect(record.extendedData).toBeUndefined();
    }
    expect(records.some((record) => record.tags !== undefined)).toBe(true);
    expect(records.some((record) => record.endDate !== undefined)).toBe(true);
  });

  test('maxResults sets the page size (1..5000; a numeric string is read as a number)', async () => {
    const { pages } = await allPages((json) => listCampaigns(fake, json), 'campaigns', { maxResults: 120 });
    expect(pages).toEqual([120, 120, 10]);
    const all = await listCampaigns(fake, { maxResults: 5000 });
    expect(all.body.campaigns).toHaveLength(250);
    expect('nextToken' in all.body).toBe(false);
    expect((await listCampaigns(fake, { maxResults: '25' })).body.campaigns).toHaveLength(25);
    const tooLow = await listCampaigns(fake, { maxResults: 0 });
    expect(tooLow).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT', errors: [{ errorType: 'rangeError', errorValue: { rangeError: { reason: 'TOO_LOW' } } }] },
    });
    expect((await listCampaigns(fake, { maxResults: 5001 })).body.errors[0].errorValue.rangeError.reason).toBe('TOO_HIGH');
    expect((await listCampaigns(fake, { maxResults: 2.5 })).body.errors[0].errorType).toBe('malformedValueError');
  });

  test('stateFilter takes UPPERCASE states; lowercase, unknown or a comma string are 400', async () => {
    const seeded = fake.dataset.campaigns(fake.profileId);
    const enabled = await allPages((json) => listCampaigns(fake, json), 'campaigns', { stateFilter: { include: ['ENABLED'] } });
    expect(enabled.total).toBe(seeded.filter((record) => record.state === 'ENABLED').length);
    expect(enabled.records.every((record) => record.state === 'ENABLED')).toBe(true);
    const live = await listCampaigns(fake, { stateFilter: { include: ['ENABLED', 'PAUSED'] }, maxResults: 5000 });
    expect(live.body.totalResults).toBe(seeded.filter((record) => record.state !== 'ARCHIVED').length);
    const lower = await listCampaigns(fake, { stateFilter: { include: ['enabled', 'PAUSED'] } });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining("'enabled'"),
      errors: [
        {
          errorType: 'rangeError',
          errorValue: {
            rangeError: {
              message: expect.any(String),
              reason: 'INVALID_ENUM_VALUE',
              cause: { location: '$.stateFilter.include[0]', trigger: 'enabled' },
              allowed: ['ENABLED', 'PAUSED', 'ARCHIVED'],
            },
          },
        },
      ],
    });
    expect((await listCampaigns(fake, { stateFilter: { include: ['USER_DELETED'] } })).status).toBe(400);
    expect((await listCampaigns(fake, { stateFilter: { include: 'ENABLED,PAUSED' } })).body.errors[0].errorType).toBe('malformedValueError');
    expect((await listCampaigns(fake, { stateFilter: {} })).body.errors[0].errorType).toBe('missingValueError');
    expect((await listCampaigns(fake, { stateFilter: { include: [] } })).body.totalResults).toBe(250);
  });

  test('campaignIdFilter, portfolioIdFilter and nameFilter', async () => {
    const seeded = fake.dataset.campaigns(fake.profileId);
    const picked = [seeded[5]!, seeded[200]!];
    const byId = await listCampaigns(fake, { campaignIdFilter: { include: picked.map((record) => String(record.campaignId)) } });
    expect(byId.body.campaigns.map((record: any) => record.name)).toEqual(picked.map((record) => record.name));
    const portfolioId = seeded.find((record) => record.portfolioId !== undefined)!.portfolioId!;
    const inPortfolio = await listCampaigns(fake, { portfolioIdFilter: { include: [String(portfolioId)] }, maxResults: 5000 });
    expect(inPortfolio.body.totalResults).toBe(seeded.filter((record) => record.portfolioId === portfolioId).length);
    expect(inPortfolio.body.campaigns.every((record: any) => record.portfolioId === String(portfolioId))).toBe(true);
    const exact = await listCampaigns(fake, { nameFilter: { include: [picked[1]!.name], queryTermMatchType: 'EXACT_MATCH' } });
    expect(exact.body.campaigns.map((record: any) => record.campaignId)).toEqual([String(picked[1]!.campaignId)]);
    const broad = await listCampaigns(fake, { nameFilter: { include: ['backpack'], queryTermMatchType: 'BROAD_MATCH' }, maxResults: 5000 });
    expect(broad.body.totalResults).toBe(seeded.filter((record) => record.name.toLowerCase().includes('backpack')).length);
    expect((await listCampaigns(fake, { nameFilter: { include: ['x'], queryTermMatchType: 'FUZZY' } })).status).toBe(400);
    expect((await listCampaigns(fake, { campaignIdFilter: { include: [12345] } })).status).toBe(400);
  });

  test('includeExtendedDataFields adds extendedData with the serving status', async () => {
    const response = await listCampaigns(fake, { includeExtendedDataFields: true, maxResults: 5000 });
    const seeded = fake.dataset.campaigns(fake.profileId);
    response.body.campaigns.forEach((record: any, index: number) => {
      expect(record.extendedData).toMatchObject({
        creationDateTime: new Date(seeded[index]!.createdAt).toISOString(),
        lastUpdateDateTime: new Date(seeded[index]!.updatedAt).toISOString(),
        servingStatus: seeded[index]!.servingStatus,
        servingStatusDetails: [{ name: `${seeded[index]!.servingStatus}_DETAIL`, message: expect.any(String) }],
      });
    });
    const paused = response.body.campaigns.find((record: any) => record.state === 'PAUSED');
    expect(paused.extendedData.servingStatus).toBe('CAMPAIGN_PAUSED');
  });

  test('media types: vendor Content-Type required; Accept may be the vendor type, application/json or absent', async () => {
    expect(await listCampaigns(fake, {}, { contentType: 'application/json' })).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(await listCampaigns(fake, {}, { contentType: PORTFOLIO_TYPE })).toMatchObject({ status: 415 });
    expect(await listCampaigns(fake, {}, { accept: 'application/xml' })).toMatchObject({ status: 406, body: { code: 'NOT_ACCEPTABLE' } });
    const json = await listCampaigns(fake, {}, { accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe(CAMPAIGN_TYPE);
    const lowercase = await listCampaigns(fake, {}, { contentType: 'application/vnd.spcampaign.v3+json', accept: 'application/vnd.spcampaign.v3+json' });
    expect(lowercase.status).toBe(200);
  });

  test('a nextToken only continues the list, profile and filters it came from', async () => {
    const first = await listCampaigns(fake, { stateFilter: { include: ['ENABLED'] }, maxResults: 10 });
    const next = await listCampaigns(fake, { stateFilter: { include: ['ENABLED'] }, maxResults: 10, nextToken: first.body.nextToken });
    expect(next.status).toBe(200);
    const changed = await listCampaigns(fake, { stateFilter: { include: ['PAUSED'] }, nextToken: first.body.nextToken });
    expect(changed).toMatchObject({
      status: 400,
      body: { code: 'INVALID_ARGUMENT', errors: [{ errorType: 'invalidInputError', errorValue: { invalidInputError: { reason: 'INVALID_TOKEN' } } }] },
    });
    const tampered = Buffer.from(
      Buffer.from(first.body.nextToken, 'base64url')
        .toString('utf8')
        .replace(/\|10\|/, '|0|'),
    ).toString('base64url');
    expect((await listCampaigns(fake, { stateFilter: { include: ['ENABLED'] }, nextToken: tampered })).status).toBe(400);
    // The page size may change between pages.
    const wider = await listCampaigns(fake, { stateFilter: { include: ['ENABLED'] }, maxResults: 20, nextToken: first.body.nextToken });
    expect(wider.body.campaigns.slice(0, 10)).toEqual(next.body.campaigns);
  });
});

describe('v2 single reads', () => {
  test('GET /v2/sp/campaigns[/extended]/{id} is the v3 record in the v2 shape', async () => {
    const v3 = (await listCampaigns(fake, { includeExtendedDataFields: true, maxResults: 5000 })).body.campaigns as any[];
    const sample = [
      v3.find((record) => record.portfolioId !== undefined && record.endDate !== undefined),
      v3.find((record) => record.portfolioId === undefined),
    ];
    for (const campaign of sample) {
      const plain = await call(fake, `/v2/sp/campaigns/${campaign.campaignId}`, { scope: fake.profileId });
      expect(plain.status).toBe(200);
      expect(plain.body.campaignId).toBe(Number(campaign.campaignId));
      expect(plain.body).toMatchObject({
        name: campaign.name,
        campaignType: 'sponsoredProducts',
        targetingType: campaign.targetingType.toLowerCase(),
        state: campaign.state.toLowerCase(),
        dailyBudget: campaign.budget.budget,
        startDate: campaign.startDate.replace(/-/g, ''),
        premiumBidAdjustment: expect.any(Boolean),
        bidding: { strategy: expect.stringMatching(/^(legacyForSales|autoForSales|manual|ruleBased)$/), adjustments: expect.any(Array) },
      });
      expect(plain.body.endDate).toBe(campaign.endDate?.replace(/-/g, ''));
      expect(plain.body.portfolioId).toBe(campaign.portfolioId === undefined ? undefined : Number(campaign.portfolioId));
      expect(plain.body.creationDate).toBeUndefined();
      const extended = await call(fake, `/v2/sp/campaigns/extended/${campaign.campaignId}`, { scope: fake.profileId });
      expect(extended.body).toEqual({
        ...plain.body,
        creationDate: Date.parse(campaign.extendedData.creationDateTime),
        lastUpdatedDate: Date.parse(campaign.extendedData.lastUpdateDateTime),
        servingStatus: campaign.extendedData.servingStatus,
      });
    }
  });

  test('GET /v2/portfolios[/extended]/{id} is the v3 record in the v2 shape', async () => {
    const v3 = (await listPortfolios(fake, { includeExtendedDataFields: true })).body.portfolios as any[];
    const dated = v3.find((record) => record.budget.policy === 'DATE_RANGE');
    const monthly = v3.find((record) => record.budget.policy === 'MONTHLY_RECURRING');
    const uncapped = v3.find((record) => record.budget.policy === 'NO_CAP');
    for (const portfolio of [dated, monthly, uncapped]) {
      const plain = await call(fake, `/v2/portfolios/${portfolio.portfolioId}`, { scope: fake.profileId });
      expect(plain.status).toBe(200);
      expect(plain.body).toMatchObject({ portfolioId: Number(portfolio.portfolioId), name: portfolio.name, inBudget: portfolio.inBudget, state: 'enabled' });
      if (portfolio.budget.policy === 'NO_CAP') {
        expect(plain.body.budget).toBeUndefined();
      } else {
        expect(plain.body.budget).toMatchObject({
          amount: portfolio.budget.amount,
          currencyCode: 'USD',
          policy: portfolio.budget.policy === 'DATE_RANGE' ? 'dateRange' : 'MonthlyRecurring',
          startDate: portfolio.budget.startDate.replace(/-/g, ''),
        });
      }
      const extended = await call(fake, `/v2/portfolios/extended/${portfolio.portfolioId}`, { scope: fake.profileId });
      expect(extended.body).toEqual({
        ...plain.body,
        creationDate: Date.parse(portfolio.extendedData.creationDateTime),
        lastUpdatedDate: Date.parse(portfolio.extendedData.lastUpdateDateTime),
        servingStatus: portfolio.extendedData.servingStatus,
      });
    }
  });

  test("unknown ids, other profiles' records and malformed ids; legacy 401s", async () => {
    expect(await call(fake, '/v2/sp/campaigns/123', { scope: fake.profileId })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', details: expect.any(String) },
    });
    expect(await call(fake, '/v2/portfolios/extended/123', { scope: fake.profileId })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const caCampaign = fake.dataset.campaigns(caProfile)[0]!;
    expect((await call(fake, `/v2/sp/campaigns/${caCampaign.campaignId}`, { scope: fake.profileId })).status).toBe(404);
    expect((await call(fake, `/v2/sp/campaigns/${caCampaign.campaignId}`, { scope: caProfile })).body.name).toBe(caCampaign.name);
    expect(await call(fake, '/v2/portfolios/abc', { scope: fake.profileId })).toMatchObject({ status: 400, body: { code: 'INVALID_ARGUMENT' } });
    expect(await call(fake, '/v2/sp/campaigns/extended/abc', { scope: fake.profileId })).toMatchObject({ status: 400 });
    expect(await call(fake, '/v2/portfolios/1', { scope: fake.profileId, token: null })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED', details: expect.any(String) },
    });
    expect(await call(fake, '/v2/portfolios/1', { scope: '42' })).toMatchObject({ status: 401, body: { details: 'No matching advertiser found for scope' } });
  });
});

describe('throttling', () => {
  test('over the per-profile budget: 429 THROTTLED with an integer Retry-After, then admitted again', async () => {
    limited.setRateLimit(3, 1000);
    try {
      for (let i = 0; i < 3; i += 1) expect((await listCampaigns(limited, {})).status).toBe(200);
      const refused = await listCampaigns(limited, {});
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: 'THROTTLED', message: expect.any(String) });
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      // v2 reads of the same profile share the budget and answer the legacy body.
      const legacy = await call(limited, `/v2/sp/campaigns/${limited.dataset.campaigns(limited.profileId)[0]!.campaignId}`, { scope: limited.profileId });
      expect(legacy).toMatchObject({ status: 429, body: { code: 'THROTTLED', details: expect.any(String) } });
      // Another profile has its own budget.
      const ca = limited.dataset.profiles('NA')[1]!.profileId;
      expect((await listCampaigns(limited, {}, { scope: ca })).status).toBe(200);
      await sleep(Number(refused.headers.get('retry-after')) * 1000);
      expect((await listCampaigns(limited, {})).status).toBe(200);
    } finally {
      limited.resetRateLimits();
    }
  });

  test('unscoped profile calls are limited per client; extended-data lists weigh 5', async () => {
    limited.setRateLimit(10, 1000);
    try {
      expect((await listPortfolios(limited, { includeExtendedDataFields: true })).status).toBe(200);
      expect((await listCampaigns(limited, { includeExtendedDataFields: 'true' })).status).toBe(200);
      expect(await listCampaigns(limited, {})).toMatchObject({ status: 429, body: { code: 'THROTTLED' } });
      limited.setRateLimit(2, 1000);
      expect((await call(limited, '/v2/profiles')).status).toBe(200);
      expect((await call(limited, `/v2/profiles/${limited.profileId}`)).status).toBe(200);
      const refused = await call(limited, '/v2/profiles');
      expect(refused).toMatchObject({ status: 429, body: { code: 'THROTTLED', details: expect.any(String) } });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      limited.resetRateLimits();
    }
    expect((await listCampaigns(limited, {})).status).toBe(200);
  });

  test('with rate limits off nothing is throttled', async () => {
    fake.setRateLimit(1, 60_000);
    const statuses = await Promise.all(Array.from({ length: 15 }, () => listCampaigns(fake, { maxResults: 1 }).then((response) => response.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    fake.resetRateLimits();
  });
});

describe('fault switches', () => {
  test("failNext answers with the route family's error bodies, then recovers", async () => {
    fake.faults.failNext(1);
    expect(await listCampaigns(fake, {})).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR', message: 'Internal Server Error' } });
    fake.faults.failNext(1, 503);
    expect(await call(fake, '/v2/profiles')).toMatchObject({ status: 503, body: { code: 'INTERNAL_ERROR', details: 'Service Unavailable' } });
    fake.faults.failNext(1, 503);
    expect(await listPortfolios(fake, {})).toMatchObject({ status: 503, body: { code: 'INTERNAL_ERROR', message: 'Service Unavailable' } });
    fake.faults.failNext(1, 403);
    expect(await listPortfolios(fake, {})).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', message: 'Forbidden' } });
    fake.faults.failNext(1, 502, 'upstream connect error');
    const text = await call(fake, '/v2/profiles');
    expect(text.status).toBe(502);
    expect(text.body).toBe('upstream connect error');
    expect((await listCampaigns(fake, {})).status).toBe(200);
  });

  test('rateLimitNext injects THROTTLED with the chosen Retry-After style', async () => {
    fake.faults.rateLimitNext(1, { seconds: 3 });
    const seconds = await listCampaigns(fake, {});
    expect(seconds).toMatchObject({ status: 429, body: { code: 'THROTTLED', message: expect.any(String) } });
    expect(seconds.headers.get('retry-after')).toBe('3');
    fake.faults.rateLimitNext(1, { retryAfter: 'http-date' });
    const dated = await call(fake, '/v2/profiles');
    expect(dated).toMatchObject({ status: 429, body: { code: 'THROTTLED', details: expect.any(String) } });
    expect(Number.isNaN(Date.parse(dated.headers.get('retry-after') ?? ''))).toBe(false);
    fake.faults.rateLimitNext(1, { retryAfter: 'none' });
    const bare = await listPortfolios(fake, {});
    expect(bare.status).toBe(429);
    expect(bare.headers.get('retry-after')).toBeNull();
  });

  test('token endpoint faults only with includeAuth, in the LwA shape', async () => {
    fake.faults.failNext(1);
    expect((await refresh(fake)).status).toBe(200);
    expect((await call(fake, '/v2/profiles')).status).toBe(500);
    fake.faults.failNext(1, 500, undefined, { includeAuth: true });
    expect(await refresh(fake)).toMatchObject({ status: 500, body: { error: 'server_error', error_description: expect.any(String) } });
    fake.faults.failNext(1, 503, undefined, { includeAuth: true });
    expect(await refresh(fake)).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    fake.faults.rateLimitNext(1, { includeAuth: true });
    const limitedToken = await refresh(fake);
    expect(limitedToken).toMatchObject({ status: 429, body: { error: 'slow_down' } });
    expect(limitedToken.headers.get('retry-after')).toBe('1');
    fake.faults.resetNext(1, { includeAuth: true });
    await expect(
      rawRequest(`${fake.baseUrl}/auth/o2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: fake.refreshToken,
          client_id: fake.clientId,
          client_secret: fake.clientSecret,
        }).toString(),
      }),
    ).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect((await refresh(fake)).status).toBe(200);
  });

  test('resetNext destroys the connection without a response', async () => {
    const headers = { authorization: `Bearer ${await accessToken(fake)}`, 'amazon-advertising-api-clientid': fake.clientId };
    fake.clearRequests();
    fake.faults.resetNext(1);
    await expect(rawRequest(`${fake.baseUrl}/v2/profiles`, { headers })).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ fault: 'reset', response: { status: 0 } });
    expect((await rawRequest(`${fake.baseUrl}/v2/profiles`, { headers })).status).toBe(200);
  });

  test('truncateNext sends the full Content-Length but half the body', async () => {
    const headers = {
      authorization: `Bearer ${await accessToken(fake)}`,
      'amazon-advertising-api-clientid': fake.clientId,
      'amazon-advertising-api-scope': String(fake.profileId),
      'content-type': CAMPAIGN_TYPE,
    };
    fake.clearRequests();
    fake.faults.truncateNext(1);
    const { status, declared, received } = await readCutBody(`${fake.baseUrl}/sp/campaigns/list`, { method: 'POST', headers, body: '{}' });
    expect(status).toBe(200);
    expect(declared).toBeGreaterThan(1000);
    expect(received).toBe(Math.floor(declared / 2));
    expect(fake.requests[0]).toMatchObject({ fault: 'truncate', response: { status: 200 } });
  });

  test('latency delays answers until reset(); reset() switches every fault off; stats count what arrived', async () => {
    fake.faults.latency(200);
    expect((await call(fake, '/v2/profiles')).status).toBe(200);
    expect(fake.faults.delays).toEqual([200]);
    fake.faults.failNext(5);
    fake.faults.rateLimitNext(5);
    fake.faults.resetNext(5);
    fake.faults.truncateNext(5);
    fake.faults.reset();
    await accessToken(fake);
    fake.resetStats();
    expect((await call(fake, '/v2/profiles')).status).toBe(200);
    expect((await refresh(fake)).status).toBe(200);
    expect(fake.faults.delays).toEqual([]);
    expect(fake.stats).toEqual({ apiRequests: 1, tokenRequests: 1 });
  });
});

describe('router fallbacks', () => {
  test('an unknown path is 404 NOT_FOUND "Could not find resource for full path"; a wrong method is 405 with Allow', async () => {
    const missing = await call(fake, '/sb/v4/campaigns');
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', details: `Could not find resource for full path: ${fake.baseUrl}/sb/v4/campaigns` },
    });
    const wrongMethod = await call(fake, '/sp/campaigns/list', { scope: fake.profileId });
    expect(wrongMethod).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED', message: expect.any(String) } });
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const legacy = await call(fake, '/v2/profiles', { method: 'DELETE' });
    expect(legacy).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED', details: expect.any(String) } });
  });
});

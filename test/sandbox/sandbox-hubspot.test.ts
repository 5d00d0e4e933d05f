import { rawRequest, readCutBody } from '../support/raw-request.js';
/**
 * The HubSpot fake, through real HTTP on loopback: routes, paging, auth, rate limits, search,
 * fault switches; every response served here is checked against upstream-specs/ (DESIGN.md §8, §9).
 * Also tests the OpenAPI conformance checker itself.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startSandbox, type CrmRecord, type HubspotFake, type Sandbox } from '../../engine/sandbox/index.js';
import { checkRequest, checkResponse, loadOpenApi, matchOperation, type OpenApiDocument, type RecordedExchange } from '../support/openapi-conformance.js';
import { startOnFreedPort } from '../support/freed-port.js';
import { httpCall, type HttpAnswer } from '../support/http-call.js';
import { Client } from '@hubspot/api-client';
import { ApiException } from '@hubspot/api-client/lib/codegen/crm/contacts/apis/exception.js';

const SPECS = fileURLToPath(new URL('../../../shared/upstream-specs/', import.meta.url));
const objectsDoc = loadOpenApi(join(SPECS, 'hubspot-crm-objects-v3.json'));
const schemasDoc = loadOpenApi(join(SPECS, 'hubspot-crm-schemas-v3.json'));
const oauthDoc = loadOpenApi(join(SPECS, 'hubspot-oauth-v1.json'));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID_AUTH_MESSAGE =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

/** The live API's 404 for an unknown record id ([3p] HubSpot/hubspot-api-nodejs #669). */
function notFoundBody(id: string, correlationId: string) {
  return { status: 'error', message: 'Object not found.  objectId are usually numeric.', correlationId, category: 'OBJECT_NOT_FOUND', context: { id: [id] } };
}

/** The spec document (and path inside it) of a request to the fake; `/crm/v3/schemas` is an alias. */
function specFor(path: string): { doc: OpenApiDocument; path: string } | undefined {
  if (path.startsWith('/oauth/')) return { doc: oauthDoc, path };
  if (path.startsWith('/crm-object-schemas/')) return { doc: schemasDoc, path };
  if (path.startsWith('/crm/v3/schemas')) return { doc: schemasDoc, path: path.replace('/crm/v3/schemas', '/crm-object-schemas/v3/schemas') };
  if (path.startsWith('/crm/v3/objects')) return { doc: objectsDoc, path };
  return undefined;
}

/** Every fake started in this file; after each test, all they served must conform. */
const fakesInUse: HubspotFake[] = [];

afterEach(() => {
  const problems: string[] = [];
  for (const fake of fakesInUse) {
    for (const exchange of fake.requests) {
      if (exchange.fault === 'reset') {
        expect(exchange.response.status).toBe(0);
        continue;
      }
      expect(exchange.response.headers['x-hubspot-correlation-id']).toMatch(UUID);
      const spec = specFor(exchange.path);
      if (!spec) {
        problems.push(`${exchange.method} ${exchange.path}: not covered by any upstream document`);
        continue;
      }
      problems.push(...checkResponse(spec.doc, { ...exchange, path: spec.path }));
    }
    fake.clearRequests();
  }
  expect(problems).toEqual([]);
});

interface CallInit {
  method?: string;
  /** Bearer token; default the private-app token; null sends no Authorization header. */
  token?: string | null;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

async function call(fake: HubspotFake, path: string, init: CallInit = {}): Promise<HttpAnswer> {
  return httpCall(fake.baseUrl + path, { ...init, token: init.token === undefined ? fake.privateAppToken : init.token });
}

const search = (fake: HubspotFake, type: string, body: unknown, token?: string): Promise<HttpAnswer> =>
  call(fake, `/crm/v3/objects/${type}/search`, { json: body, ...(token ? { token } : {}) });

const refreshForm = (fake: HubspotFake, overrides: Record<string, string> = {}): Record<string, string> => ({
  grant_type: 'refresh_token',
  client_id: fake.oauthClientId,
  client_secret: fake.oauthClientSecret,
  refresh_token: fake.refreshToken,
  ...overrides,
});

/**
 * One request on its own connection (node:http, no keep-alive agent), so that a reset or a cut
 * body reaches the test as an error instead of being retried by a pooled client.
 */

let sandbox: Sandbox;
let fake: HubspotFake;
/** A second sandbox with rate limits on, 60 contacts and another seed. */
let limitedSandbox: Sandbox;
let limited: HubspotFake;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  fake = sandbox.fakes.hubspot;
  limitedSandbox = await startSandbox({ records: 60, seed: 7 });
  limited = limitedSandbox.fakes.hubspot;
  fakesInUse.push(fake, limited);
});

afterAll(async () => {
  await sandbox?.close();
  await limitedSandbox?.close();
});

describe('sandbox', () => {
  test('describe() gives a loopback base URL and a working credential set per scheme', async () => {
    const info = sandbox.describe();
    expect(Object.keys(info)).toEqual(['hubspot', 'asana', 'amazon-ads', 'shopify', 'gong']);
    expect(JSON.parse(JSON.stringify(info))).toEqual(sandbox.upstreams);
    const hubspot = info['hubspot']!;
    expect(hubspot.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(hubspot.base_url).toBe(fake.baseUrl);
    expect(hubspot.config).toEqual({});
    expect(hubspot.credentials).toEqual({ access_token: fake.privateAppToken });
    expect(hubspot.credentials_by_scheme['private_app']).toEqual(hubspot.credentials);
    const oauth = hubspot.credentials_by_scheme['oauth']!;
    expect(Object.keys(oauth).sort()).toEqual(['access_token', 'client_id', 'client_secret', 'refresh_token']);
    expect(oauth['refresh_token']).toBe(fake.refreshToken);
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1', { token: oauth['access_token']! })).status).toBe(200);
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1', { token: hubspot.credentials['access_token']! })).status).toBe(200);
  });

  test('a given port is used by the first fake', async () => {
    const probe = async () => {
      const sandbox = await startSandbox({ records: 5 });
      await sandbox.close();
      return Number(new URL(sandbox.upstreams['hubspot']!.base_url).port);
    };
    const { port, started: fixed } = await startOnFreedPort(probe, (port) => startSandbox({ records: 5, port }));
    try {
      expect(fixed.upstreams['hubspot']!.base_url).toBe(`http://127.0.0.1:${port}`);
      const response = await fetch(`http://127.0.0.1:${port}/crm/v3/objects/contacts`, {
        headers: { authorization: `Bearer ${fixed.fakes.hubspot.privateAppToken}` },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { results: unknown[] }).results).toHaveLength(5);
    } finally {
      await fixed.close();
    }
    await expect(startSandbox({ port: 70000 })).rejects.toThrow(RangeError);
  });

  test('the same seed gives the same data and credentials; another seed does not', async () => {
    const twin = await startSandbox({ records: 60, seed: 7 });
    const other = await startSandbox({ records: 60, seed: 8 });
    try {
      const a = twin.fakes.hubspot;
      const b = other.fakes.hubspot;
      expect(a.privateAppToken).toBe(limited.privateAppToken);
      expect(a.refreshToken).toBe(limited.refreshToken);
      expect(b.privateAppToken).not.toBe(limited.privateAppToken);
      const page = async (f: HubspotFake) => (await call(f, '/crm/v3/objects/deals?limit=20&properties=amount,dealstage')).body.results;
      expect(await page(a)).toEqual(await page(limited));
      expect(await page(b)).not.toEqual(await page(limited));
      expect(a.dataset.counts().contacts).toEqual({ active: 60, archived: 1 });
    } finally {
      await twin.close();
      await other.close();
    }
  });

  test('default volumes: 1200 contacts, 300 companies, 400 deals, 200 tickets, 50 cars, 2% archived', () => {
    const counts = fake.dataset.counts();
    expect(counts.contacts).toEqual({ active: 1200, archived: 24 });
    expect(counts.companies).toEqual({ active: 300, archived: 6 });
    expect(counts.deals).toEqual({ active: 400, archived: 8 });
    expect(counts.tickets).toEqual({ active: 200, archived: 4 });
    expect(counts['p19936437_car']).toEqual({ active: 50, archived: 1 });
    expect(counts['2-3508482']).toEqual(counts['p19936437_car']);
  });
});

describe('GET /crm/v3/objects/{objectType}', () => {
  test('a default page: 10 records, default properties as strings, a base64 cursor and a full next link', async () => {
    const { status, body, headers } = await call(fake, '/crm/v3/objects/contacts');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.results).toHaveLength(10);
    for (const record of body.results) {
      expect(Object.keys(record.properties).sort()).toEqual(['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname']);
      expect(Object.values(record.properties).every((value) => typeof value === 'string')).toBe(true);
      expect(record.properties.hs_object_id).toBe(record.id);
      expect(record.archived).toBe(false);
      expect(record.associations).toBeUndefined();
    }
    expect(body.results[0].properties).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace', email: 'ada.lovelace@example.com' });
    const after: string = body.paging.next.after;
    expect(Buffer.from(after, 'base64').toString('base64')).toBe(after);
    const link = new URL(body.paging.next.link);
    expect(link.origin).toBe(fake.baseUrl);
    expect(link.pathname).toBe('/crm/v3/objects/contacts');
    expect(link.searchParams.get('after')).toBe(after);
  });

  test('paging with after reads every active contact once, in id order, and the last page has no paging', async () => {
    const ids: string[] = [];
    let after: string | undefined;
    let pages = 0;
    let last: any;
    do {
      const { status, body } = await call(fake, `/crm/v3/objects/contacts?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(status).toBe(200);
      ids.push(...body.results.map((record: { id: string }) => record.id));
      after = body.paging?.next.after;
      last = body;
      pages += 1;
    } while (after);
    expect(pages).toBe(12);
    expect(last.paging).toBeUndefined();
    expect(ids).toHaveLength(1200);
    expect(new Set(ids).size).toBe(1200);
    expect(ids).toEqual(fake.dataset.records('contacts').map((record) => record.id));
    const numeric = ids.map(Number);
    expect(numeric).toEqual([...numeric].sort((a, b) => a - b));
    const archived = new Set(fake.dataset.records('contacts', true).map((record) => record.id));
    expect(ids.some((id) => archived.has(id))).toBe(false);
  });

  test('following paging.next.link pages like after does', async () => {
    const first = await call(fake, '/crm/v3/objects/companies?limit=7&properties=name');
    const viaLink = await fetch(first.body.paging.next.link, { headers: { authorization: `Bearer ${fake.privateAppToken}` } });
    const viaAfter = await call(fake, `/crm/v3/objects/companies?limit=7&properties=name&after=${encodeURIComponent(first.body.paging.next.after)}`);
    expect(await viaLink.json()).toEqual(viaAfter.body);
    expect(viaAfter.body.results[0].id).not.toBe(first.body.results[6].id);
  });

  test('limit: 100 is the maximum, above is 400 VALIDATION_ERROR, and so is a non-number', async () => {
    expect((await call(fake, '/crm/v3/objects/contacts?limit=100')).body.results).toHaveLength(100);
    for (const limit of ['101', '0', 'ten']) {
      const { status, body } = await call(fake, `/crm/v3/objects/contacts?limit=${limit}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
      expect(body.correlationId).toMatch(UUID);
    }
  });

  test('an after that is not a cursor is 400', async () => {
    const { status, body } = await call(fake, '/crm/v3/objects/contacts?after=%%%not-a-cursor');
    expect(status).toBe(400);
    expect(body.category).toBe('VALIDATION_ERROR');
  });

  test.each([
    ['companies', '0-2', ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name']],
    ['deals', '0-3', ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline']],
    [
      'tickets',
      '0-5',
      [
        'content',
        'createdate',
        'hs_lastmodifieddate',
        'hs_object_id',
        'hs_pipeline',
        'hs_pipeline_stage',
        'hs_ticket_category',
        'hs_ticket_priority',
        'subject',
      ],
    ],
    ['p19936437_car', '2-3508482', ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id']],
  ])('%s (also as %s) has its default properties', async (name, typeId, defaults) => {
    const byName = await call(fake, `/crm/v3/objects/${name}?limit=5`);
    const byId = await call(fake, `/crm/v3/objects/${typeId}?limit=5`);
    expect(byName.status).toBe(200);
    expect(byId.body.results).toEqual(byName.body.results);
    for (const record of byName.body.results) expect(Object.keys(record.properties).sort()).toEqual(defaults);
  });

  test('contacts are also reachable as 0-1, and an unknown type is 400', async () => {
    const byId = await call(fake, '/crm/v3/objects/0-1?limit=3');
    const byName = await call(fake, '/crm/v3/objects/contacts?limit=3');
    expect(byId.body.results).toHaveLength(3);
    expect(byId.body.results).toEqual(byName.body.results);
    const { status, body } = await call(fake, '/crm/v3/objects/spaceships');
    expect(status).toBe(400);
    expect(body.message).toBe('Unable to infer object type from: spaceships');
  });

  test('properties selects properties, adding the always-present ones; unknown names are ignored', async () => {
    const { body } = await call(fake, '/crm/v3/objects/contacts?limit=50&properties=email,phone,no_such_property');
    for (const record of body.results) {
      const keys = Object.keys(record.properties);
      expect(keys).toEqual(expect.arrayContaining(['createdate', 'email', 'hs_object_id', 'lastmodifieddate']));
      expect(keys.every((key) => ['createdate', 'email', 'hs_object_id', 'lastmodifieddate', 'phone'].includes(key))).toBe(true);
    }
    expect(body.results.some((record: any) => record.properties.phone !== undefined)).toBe(true);
    expect(body.results.some((record: any) => record.properties.phone === undefined)).toBe(true);
  });

  test('archived=true returns only archived records, each with archivedAt', async () => {
    const { body } = await call(fake, '/crm/v3/objects/contacts?archived=true&limit=100');
    const expected = fake.dataset.records('contacts', true).map((record) => record.id);
    expect(body.results.map((record: any) => record.id)).toEqual(expected);
    expect(expected).toHaveLength(24);
    for (const record of body.results) {
      expect(record.archived).toBe(true);
      expect(Date.parse(record.archivedAt)).toBeGreaterThanOrEqual(Date.parse(record.updatedAt));
    }
    expect((await call(fake, '/crm/v3/objects/contacts?archived=maybe')).status).toBe(400);
  });

  test('associations lists typed associated ids, symmetric across types', async () => {
    const { body } = await call(fake, '/crm/v3/objects/contacts?limit=100&associations=companies,deals,0-5,unknown_type');
    const withCompany = body.results.filter((record: any) => record.associations?.companies);
    expect(withCompany.length).toBeGreaterThan(50);
    const contact = withCompany[0];
    expect(contact.associations.companies.results[0].type).toBe('contact_to_company');
    expect(
      Object.keys(body.results.find((record: any) => record.associations)?.associations ?? {}).every((key) => ['companies', 'deals', 'tickets'].includes(key)),
    ).toBe(true);
    const companyId = contact.associations.companies.results[0].id;
    const company = await call(fake, `/crm/v3/objects/companies/${companyId}?associations=contacts`);
    expect(company.body.associations.contacts.results).toContainEqual({ id: contact.id, type: 'company_to_contact' });
    const deals = body.results.filter((record: any) => record.associations?.deals);
    expect(deals[0].associations.deals.results[0].type).toBe('contact_to_deal');
  });

  test('propertiesWithHistory caps the page at 50 and gives {value, timestamp, sourceType} newest first', async () => {
    const { body } = await call(fake, '/crm/v3/objects/contacts?limit=100&properties=lifecyclestage&propertiesWithHistory=lifecyclestage,email');
    expect(body.results).toHaveLength(50);
    expect(body.paging.next.after).toBeDefined();
    let multi = 0;
    for (const record of body.results) {
      const history = record.propertiesWithHistory.lifecyclestage;
      expect(history[0].value).toBe(record.properties.lifecyclestage);
      for (const entry of history) {
        expect(typeof entry.value).toBe('string');
        expect(typeof entry.sourceType).toBe('string');
        expect(Number.isNaN(Date.parse(entry.timestamp))).toBe(false);
      }
      const times = history.map((entry: any) => Date.parse(entry.timestamp));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      if (history.length > 1) multi += 1;
      expect(record.propertiesWithHistory.email).toHaveLength(1);
    }
    expect(multi).toBeGreaterThan(0);
  });
});

describe('GET /crm/v3/objects/{objectType}/{objectId}', () => {
  test('by id and by idProperty=email give the same record', async () => {
    const byId = await call(fake, '/crm/v3/objects/contacts/1001?properties=email,jobtitle&associations=companies');
    expect(byId.status).toBe(200);
    expect(byId.body.id).toBe('1001');
    expect(byId.body.properties.email).toBe('ada.lovelace@example.com');
    const byEmail = await call(fake, '/crm/v3/objects/contacts/ADA.LOVELACE@example.com?idProperty=email&properties=email,jobtitle&associations=companies');
    expect(byEmail.body).toEqual(byId.body);
  });

  test('a custom object by id and by its unique vin', async () => {
    const car = fake.dataset.records('p19936437_car')[3]!;
    const byId = await call(fake, `/crm/v3/objects/2-3508482/${car.id}?properties=vin,make,model`);
    expect(byId.body.properties).toMatchObject({ vin: car.properties['vin'], make: car.properties['make'] });
    const byVin = await call(fake, `/crm/v3/objects/p19936437_car/${car.properties['vin']}?idProperty=vin&properties=vin,make,model`);
    expect(byVin.body).toEqual(byId.body);
  });

  test('an unknown id is 404 OBJECT_NOT_FOUND, a JSON error body with its content type', async () => {
    const { status, body, headers } = await call(fake, '/crm/v3/objects/contacts/999999999');
    expect(status).toBe(404);
    expect(headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(headers.get('x-hubspot-correlation-id')).toMatch(UUID);
    expect(body).toEqual(notFoundBody('999999999', headers.get('x-hubspot-correlation-id')!));
  });

  test('the official @hubspot/api-client gets its typed 404 for an unknown id, and the record for a known one', async () => {
    const client = new Client({ accessToken: fake.privateAppToken, basePath: fake.baseUrl });
    const error = await client.crm.contacts.basicApi.getById('999999999').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiException);
    const typed = error as ApiException<unknown>;
    expect(typed.code).toBe(404);
    expect(typed.body).toEqual(notFoundBody('999999999', typed.headers['x-hubspot-correlation-id']!));
    const contact = fake.dataset.records('contacts')[0]!;
    expect((await client.crm.contacts.basicApi.getById(contact.id)).id).toBe(contact.id);
  });

  test('an archived record is found only with archived=true', async () => {
    const archived = fake.dataset.records('deals', true)[0]!;
    expect((await call(fake, `/crm/v3/objects/deals/${archived.id}`)).status).toBe(404);
    const found = await call(fake, `/crm/v3/objects/deals/${archived.id}?archived=true`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: archived.id, archived: true, archivedAt: archived.archivedAt });
    const live = fake.dataset.records('deals')[0]!;
    expect((await call(fake, `/crm/v3/objects/deals/${live.id}?archived=true`)).status).toBe(404);
  });

  test('an idProperty that is not unique is 400', async () => {
    const { status, body } = await call(fake, '/crm/v3/objects/contacts/Ada?idProperty=firstname');
    expect(status).toBe(400);
    expect(body.category).toBe('VALIDATION_ERROR');
  });
});

describe('POST /crm/v3/objects/{objectType}/search', () => {
  const ms = (value: string | undefined): number => Date.parse(value ?? '');
  const words = (value: string | undefined): string[] => (value ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const cases: Array<[string, string, Record<string, unknown>, (record: CrmRecord) => boolean]> = [
    ['EQ', 'contacts', { propertyName: 'firstname', operator: 'EQ', value: 'ada' }, (r) => r.properties['firstname'] === 'Ada'],
    ['NEQ', 'contacts', { propertyName: 'lifecyclestage', operator: 'NEQ', value: 'customer' }, (r) => r.properties['lifecyclestage'] !== 'customer'],
    [
      'LT',
      'contacts',
      { propertyName: 'createdate', operator: 'LT', value: String(Date.UTC(2023, 6, 1)) },
      (r) => ms(r.properties['createdate']) < Date.UTC(2023, 6, 1),
    ],
    ['LTE', 'deals', { propertyName: 'amount', operator: 'LTE', value: '10000' }, (r) => Number(r.properties['amount']) <= 10000],
    ['GT', 'deals', { propertyName: 'amount', operator: 'GT', value: '100000' }, (r) => Number(r.properties['amount']) > 100000],
    [
      'GTE',
      'contacts',
      { propertyName: 'createdate', operator: 'GTE', value: '2024-06-01T00:00:00.000Z' },
      (r) => ms(r.properties['createdate']) >= Date.UTC(2024, 5, 1),
    ],
    [
      'BETWEEN',
      'deals',
      { propertyName: 'closedate', operator: 'BETWEEN', value: '2023-06-01T00:00:00Z', highValue: String(Date.UTC(2024, 0, 1)) },
      (r) => ms(r.properties['closedate']) >= Date.UTC(2023, 5, 1) && ms(r.properties['closedate']) <= Date.UTC(2024, 0, 1),
    ],
    [
      'IN',
      'contacts',
      { propertyName: 'lifecyclestage', operator: 'IN', values: ['lead', 'customer'] },
      (r) => ['lead', 'customer'].includes(r.properties['lifecyclestage'] ?? ''),
    ],
    [
      'NOT_IN',
      'tickets',
      { propertyName: 'hs_ticket_priority', operator: 'NOT_IN', values: ['LOW', 'URGENT'] },
      (r) => !['LOW', 'URGENT'].includes(r.properties['hs_ticket_priority'] ?? ''),
    ],
    ['HAS_PROPERTY', 'contacts', { propertyName: 'phone', operator: 'HAS_PROPERTY' }, (r) => r.properties['phone'] !== undefined],
    ['NOT_HAS_PROPERTY', 'contacts', { propertyName: 'jobtitle', operator: 'NOT_HAS_PROPERTY' }, (r) => r.properties['jobtitle'] === undefined],
    [
      'CONTAINS_TOKEN',
      'contacts',
      { propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@example.com' },
      (r) => (r.properties['email'] ?? '').endsWith('@example.com'),
    ],
    [
      'NOT_CONTAINS_TOKEN',
      'tickets',
      { propertyName: 'subject', operator: 'NOT_CONTAINS_TOKEN', value: 'invoice' },
      (r) => !words(r.properties['subject']).includes('invoice'),
    ],
  ];

  test.each(cases)('%s on %s matches exactly the records the filter describes', async (_operator, type, filter, predicate) => {
    const expected = fake.dataset
      .records(type)
      .filter(predicate)
      .map((record) => record.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(fake.dataset.records(type).length);
    const { status, body } = await search(fake, type, { filterGroups: [{ filters: [filter] }], limit: 200 });
    expect(status).toBe(200);
    expect(body.total).toBe(expected.length);
    expect(body.results.map((record: any) => record.id)).toEqual(expected.slice(0, 200));
  });

  test('filters in a group are ANDed and groups are ORed', async () => {
    const records = fake.dataset.records('contacts');
    const and = records.filter((r) => r.properties['firstname'] === 'Ada' && r.properties['phone'] !== undefined).length;
    const or = records.filter((r) => r.properties['firstname'] === 'Ada' || r.properties['firstname'] === 'José').length;
    const both = await search(fake, 'contacts', {
      filterGroups: [
        {
          filters: [
            { propertyName: 'firstname', operator: 'EQ', value: 'Ada' },
            { propertyName: 'phone', operator: 'HAS_PROPERTY' },
          ],
        },
      ],
    });
    expect(both.body.total).toBe(and);
    const either = await search(fake, 'contacts', {
      filterGroups: [
        { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'Ada' }] },
        { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'José' }] },
      ],
    });
    expect(either.body.total).toBe(or);
    expect(and).toBeLessThan(or);
  });

  test('query searches the default searchable properties, unicode included', async () => {
    const ada = await search(fake, 'contacts', { query: 'ada', limit: 200, properties: ['firstname', 'lastname', 'email', 'company'] });
    const emails = ada.body.results.map((record: any) => record.properties.email);
    expect(emails).toEqual(expect.arrayContaining(['ada.lovelace@example.com', 'ada.mueller@example.com']));
    for (const record of ada.body.results) expect(JSON.stringify(record.properties).toLowerCase()).toContain('ada');
    const misaki = await search(fake, 'contacts', { query: '美咲' });
    expect(misaki.body.results.map((record: any) => record.properties.email)).toContain('misaki.sato@example.com');
    const zoe = await search(fake, 'contacts', { query: 'Ødegård' });
    expect(zoe.body.results.map((record: any) => record.properties.email)).toContain('zoe.odegard@example.com');
    const exact = await search(fake, 'contacts', { query: 'jose.nunez@example.com' });
    expect(exact.body.total).toBe(1);
    expect((await search(fake, 'contacts', { query: 'zzzzqqq' })).body).toEqual({ total: 0, results: [] });
  });

  test('sorts in object form and in the spec string form', async () => {
    const desc = await search(fake, 'contacts', { sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }], limit: 20 });
    const times = desc.body.results.map((record: any) => Date.parse(record.properties.createdate));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const newest = Math.max(...fake.dataset.records('contacts').map((record) => Date.parse(record.createdAt)));
    expect(times[0]).toBe(newest);
    const asString = await search(fake, 'contacts', { sorts: ['-createdate'], limit: 20 });
    expect(asString.body.results.map((record: any) => record.id)).toEqual(desc.body.results.map((record: any) => record.id));
    const byName = await search(fake, 'companies', { sorts: [{ propertyName: 'name', direction: 'ASCENDING' }], limit: 50 });
    const names = byName.body.results.map((record: any) => record.properties.name.toLowerCase());
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  test('defaults: limit 10, default properties, numeric after, total, no associations', async () => {
    const first = await search(fake, 'contacts', {});
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(1200);
    expect(first.body.results).toHaveLength(10);
    expect(first.body.paging.next.after).toBe('10');
    expect(Object.keys(first.body.results[0].properties).sort()).toEqual(['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname']);
    expect(first.body.results.every((record: any) => record.associations === undefined)).toBe(true);
    const second = await search(fake, 'contacts', { after: first.body.paging.next.after, properties: ['city'] });
    expect(second.body.results[0].id).toBe(fake.dataset.records('contacts')[10]!.id);
    expect(Object.keys(second.body.results[0].properties).sort()).toEqual(['city', 'createdate', 'hs_object_id', 'lastmodifieddate']);
    const last = await search(fake, 'contacts', { after: '1190', limit: 200 });
    expect(last.body.results).toHaveLength(10);
    expect(last.body.paging).toBeUndefined();
  });

  test('archived records never appear', async () => {
    const archivedId = fake.dataset.records('contacts', true)[0]!.id;
    const { body } = await search(fake, 'contacts', { filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'EQ', value: archivedId }] }] });
    expect(body).toEqual({ total: 0, results: [] });
  });

  test('limit above 200 is 400; 200 is fine', async () => {
    expect((await search(fake, 'contacts', { limit: 200 })).body.results).toHaveLength(200);
    const { status, body } = await search(fake, 'contacts', { limit: 201 });
    expect(status).toBe(400);
    expect(body.category).toBe('VALIDATION_ERROR');
  });

  test('the 10,000-result cap is on after + limit, however few records match', async () => {
    const atCap = await search(fake, 'contacts', { after: '9800', limit: 200 });
    expect(atCap.status).toBe(200);
    expect(atCap.body.results).toEqual([]);
    expect(atCap.body.total).toBe(1200);
    const over = await search(fake, 'contacts', { after: '9900', limit: 200 });
    expect(over.status).toBe(400);
    expect(over.body.category).toBe('VALIDATION_ERROR');
    expect(over.body.message).toContain('10000');
    expect((await search(fake, 'contacts', { after: 10000, limit: 1 })).status).toBe(400);
    expect((await search(fake, 'contacts', { after: 'abc' })).status).toBe(400);
  });

  test('6 filter groups are accepted, 7 are not; 25 filters are accepted, 26 are not', async () => {
    const filter = { propertyName: 'firstname', operator: 'EQ', value: 'Ada' };
    const groups = (count: number, each = 1) => Array.from({ length: count }, () => ({ filters: Array.from({ length: each }, () => filter) }));
    expect((await search(fake, 'contacts', { filterGroups: groups(6) })).status).toBe(200);
    const seven = await search(fake, 'contacts', { filterGroups: groups(7) });
    expect(seven.status).toBe(400);
    expect(seven.body.message).toMatch(/filter ?groups/i);
    expect((await search(fake, 'contacts', { filterGroups: [...groups(2, 10), ...groups(1, 5)] })).status).toBe(200);
    const many = await search(fake, 'contacts', { filterGroups: [...groups(2, 10), ...groups(1, 6)] });
    expect(many.status).toBe(400);
    expect(many.body.message).toMatch(/25 filters/);
  });

  test('a query over 3000 characters is 400; 3000 is fine', async () => {
    expect((await search(fake, 'contacts', { query: 'a'.repeat(3000) })).status).toBe(200);
    const { status, body } = await search(fake, 'contacts', { query: 'a'.repeat(3001) });
    expect(status).toBe(400);
    expect(body.category).toBe('VALIDATION_ERROR');
  });

  test('bad operators, missing operands, unknown properties and bad JSON are 400', async () => {
    const bad = [
      { filterGroups: [{ filters: [{ propertyName: 'firstname', operator: 'LIKE', value: 'x' }] }] },
      { filterGroups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ' }] }] },
      { filterGroups: [{ filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: '1' }] }] },
      { filterGroups: [{ filters: [{ propertyName: 'lifecyclestage', operator: 'IN', values: [] }] }] },
      { filterGroups: [{ filters: [{ propertyName: 'no_such_property', operator: 'HAS_PROPERTY' }] }] },
      { sorts: [{ propertyName: 'createdate', direction: 'SIDEWAYS' }] },
    ];
    for (const body of bad) expect((await search(fake, 'contacts', body)).status).toBe(400);
    const response = await fetch(`${fake.baseUrl}/crm/v3/objects/contacts/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.privateAppToken}`, 'content-type': 'application/json' },
      body: '{"filterGroups": [',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { category: string }).category).toBe('VALIDATION_ERROR');
  });

  test('its own 5 per second limiter answers 429 "secondly limit" without rate-limit headers', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => search(limited, 'contacts', { limit: 1 })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const throttled = responses.find((response) => response.status === 429)!;
    expect(throttled.body).toMatchObject({
      status: 'error',
      message: 'You have reached your secondly limit.',
      errorType: 'RATE_LIMIT',
      policyName: 'SECONDLY',
    });
    for (const response of responses) {
      expect([...response.headers.keys()].filter((name) => name.startsWith('x-hubspot-ratelimit'))).toEqual([]);
    }
    limited.clock.advance(1000);
    expect((await search(limited, 'contacts', { limit: 1 })).status).toBe(200);
  });
});

describe('schemas', () => {
  test.each(['/crm-object-schemas/v3/schemas', '/crm/v3/schemas'])('GET %s lists the live custom schema, without paging', async (path) => {
    const { status, body } = await call(fake, path);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['results']);
    expect(body.results).toHaveLength(1);
    const car = body.results[0];
    expect(car).toMatchObject({
      id: '3508482',
      objectTypeId: '2-3508482',
      fullyQualifiedName: 'p19936437_car',
      name: 'car',
      labels: { singular: 'Car', plural: 'Cars' },
      metaType: 'PORTAL_SPECIFIC',
      archived: false,
      restorable: true,
      allowsSensitiveProperties: false,
      primaryDisplayProperty: 'model',
      secondaryDisplayProperties: ['make', 'year'],
      requiredProperties: ['make', 'model', 'vin'],
      searchableProperties: ['make', 'model', 'vin'],
    });
    expect(typeof car.createdByUserId).toBe('number');
    expect(typeof car.updatedByUserId).toBe('number');
    expect(typeof car.description).toBe('string');
    expect(car.properties.map((property: any) => property.name)).toEqual(expect.arrayContaining(['make', 'model', 'vin', 'hs_object_id']));
    expect(car.associations).toContainEqual(expect.objectContaining({ fromObjectTypeId: '2-3508482', toObjectTypeId: '0-1', name: 'car_to_contact' }));
  });

  test('archived=true lists only the archived schema', async () => {
    const { body } = await call(fake, '/crm/v3/schemas?archived=true');
    expect(body.results.map((schema: any) => [schema.name, schema.archived])).toEqual([['boat', true]]);
  });

  test('one schema by type id, fully-qualified name or name; the include flags trim it; unknown is 404', async () => {
    const byId = await call(fake, '/crm-object-schemas/v3/schemas/2-3508482');
    expect(byId.body.name).toBe('car');
    expect((await call(fake, '/crm/v3/schemas/p19936437_car')).body).toEqual(byId.body);
    expect((await call(fake, '/crm/v3/schemas/car')).body).toEqual(byId.body);
    const trimmed = await call(
      fake,
      '/crm/v3/schemas/2-3508482?includePropertyDefinitions=false&includeAssociationDefinitions=false&includeAuditMetadata=false',
    );
    expect(trimmed.body.properties).toEqual([]);
    expect(trimmed.body.associations).toEqual([]);
    expect(trimmed.body.createdAt).toBeUndefined();
    expect(trimmed.body.createdByUserId).toBeUndefined();
    const missing = await call(fake, '/crm/v3/schemas/p19936437_boat');
    expect(missing.status).toBe(404);
    expect(missing.body.category).toBe('OBJECT_NOT_FOUND');
  });
});

describe('auth', () => {
  test('no token and a token the fake did not issue get 401 INVALID_AUTHENTICATION', async () => {
    for (const token of [null, 'pat-na1-00000000-0000-4000-8000-000000000000']) {
      const { status, body, headers } = await call(limited, '/crm/v3/objects/contacts', { token });
      expect(status).toBe(401);
      expect(body).toEqual({
        status: 'error',
        message: INVALID_AUTH_MESSAGE,
        correlationId: headers.get('x-hubspot-correlation-id'),
        category: 'INVALID_AUTHENTICATION',
      });
    }
    const basic = await call(limited, '/crm/v3/objects/contacts', { token: null, headers: { authorization: `Basic ${limited.privateAppToken}` } });
    expect(basic.status).toBe(401);
  });

  test('an issued OAuth token works until it expires, then 401 EXPIRED_AUTHENTICATION', async () => {
    const token = limited.issueAccessToken(600);
    expect((await call(limited, '/crm/v3/objects/deals?limit=1', { token })).status).toBe(200);
    limited.expireAllAccessTokens();
    const { status, body } = await call(limited, '/crm/v3/objects/deals?limit=1', { token });
    expect(status).toBe(401);
    expect(body.category).toBe('EXPIRED_AUTHENTICATION');
    expect(body.message).toMatch(/^The OAuth token used to make this call expired \d+ second\(s\) ago\.$/);
    expect(Date.parse(body.context['expire time'][0])).toBeLessThanOrEqual(limited.clock.now());
    expect((await call(limited, '/crm/v3/objects/deals?limit=1')).status).toBe(200);
  });

  test('a short-lived token expires on its own', async () => {
    const token = limited.issueAccessToken(1);
    expect((await call(limited, '/crm/v3/objects/tickets?limit=1', { token })).status).toBe(200);
    limited.clock.advance(1000);
    expect((await call(limited, '/crm/v3/objects/tickets?limit=1', { token })).body.category).toBe('EXPIRED_AUTHENTICATION');
  });

  test('refresh: a form POST returns a new access token and the same refresh token', async () => {
    const before = limited.stats.tokenRequests;
    const { status, body } = await call(limited, '/oauth/v1/token', { token: null, form: refreshForm(limited) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'bearer', refresh_token: limited.refreshToken, expires_in: 1800, token_use: 'access_token' });
    expect(typeof body.access_token).toBe('string');
    expect(limited.stats.tokenRequests - before).toBe(1);
    const again = await call(limited, '/oauth/v1/token', { token: null, form: refreshForm(limited) });
    expect(again.body.access_token).not.toBe(body.access_token);
    const api = await call(limited, '/crm/v3/objects/contacts?limit=2', { token: body.access_token });
    expect(api.status).toBe(200);
    expect(api.headers.get('x-hubspot-ratelimit-max')).toBe('110');
  });

  test.each([
    ['a wrong refresh token', { refresh_token: 'na1-not-issued' }, 'BAD_REFRESH_TOKEN', 'missing or invalid refresh token'],
    ['a wrong client id', { client_id: 'someone-else' }, 'BAD_CLIENT_ID', 'missing or invalid client id'],
    ['a wrong client secret', { client_secret: 'nope' }, 'BAD_CLIENT_SECRET', 'missing or invalid client secret'],
    ['another grant type', { grant_type: 'password' }, 'BAD_GRANT_TYPE', undefined],
    ['an authorization code', { grant_type: 'authorization_code', code: 'abc' }, 'BAD_AUTH_CODE', undefined],
  ])('refresh with %s is 400 %s', async (_what, overrides, statusText, message) => {
    const { status, body } = await call(limited, '/oauth/v1/token', { token: null, form: refreshForm(limited, overrides as Record<string, string>) });
    expect(status).toBe(400);
    expect(body.status).toBe(statusText);
    if (message) expect(body.message).toBe(message);
    expect(body.correlationId).toMatch(UUID);
  });

  test('the token endpoint wants a form: a JSON body is refused', async () => {
    const { status, body } = await call(limited, '/oauth/v1/token', { token: null, json: refreshForm(limited) });
    expect(status).toBe(400);
    expect(body.status).toBe('BAD_GRANT_TYPE');
  });

  test('a revoked refresh token is BAD_REFRESH_TOKEN', async () => {
    const own = await startSandbox({ records: 5 });
    const hub = own.fakes.hubspot;
    fakesInUse.push(hub);
    try {
      expect((await call(hub, '/oauth/v1/token', { token: null, form: refreshForm(hub) })).status).toBe(200);
      hub.revokeRefreshToken();
      const { status, body } = await call(hub, '/oauth/v1/token', { token: null, form: refreshForm(hub) });
      expect(status).toBe(400);
      expect(body).toMatchObject({ status: 'BAD_REFRESH_TOKEN', message: 'missing or invalid refresh token' });
    } finally {
      await own.close();
    }
  });
});

describe('rate limits', () => {
  beforeEach(() => limited.resetRateLimits());
  afterEach(() => limited.resetRateLimits());

  test('private-app responses carry Max 100, Remaining, Interval 10000 and the Daily headers; OAuth ones Max 110 without Daily', async () => {
    const first = await call(limited, '/crm/v3/objects/contacts?limit=1');
    const second = await call(limited, '/crm/v3/objects/contacts?limit=1');
    expect(first.headers.get('x-hubspot-ratelimit-max')).toBe('100');
    expect(first.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(Number(first.headers.get('x-hubspot-ratelimit-remaining')) - Number(second.headers.get('x-hubspot-ratelimit-remaining'))).toBe(1);
    expect(first.headers.get('x-hubspot-ratelimit-daily')).toBe('250000');
    expect(Number(first.headers.get('x-hubspot-ratelimit-daily-remaining')) - Number(second.headers.get('x-hubspot-ratelimit-daily-remaining'))).toBe(1);
    const oauth = await call(limited, '/crm/v3/objects/contacts?limit=1', { token: limited.issueAccessToken() });
    expect(oauth.headers.get('x-hubspot-ratelimit-max')).toBe('110');
    expect(oauth.headers.get('x-hubspot-ratelimit-remaining')).toBe('109');
    expect(oauth.headers.get('x-hubspot-ratelimit-daily')).toBeNull();
    expect(oauth.headers.get('x-hubspot-ratelimit-daily-remaining')).toBeNull();
  });

  test('over the rolling window: 429 TEN_SECONDLY_ROLLING, Retry-After on every other one, then served again', async () => {
    limited.setRateLimit(3, 1000);
    {
      const responses: HttpAnswer[] = [];
      for (let i = 0; i < 5; i += 1) responses.push(await call(limited, '/crm/v3/objects/companies?limit=1'));
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 429, 429]);
      expect(responses.map((response) => response.headers.get('x-hubspot-ratelimit-remaining'))).toEqual(['2', '1', '0', '0', '0']);
      const throttled = responses.slice(3);
      for (const response of throttled) {
        expect(response.body).toMatchObject({
          status: 'error',
          message: 'You have reached your ten_secondly_rolling limit.',
          errorType: 'RATE_LIMIT',
          policyName: 'TEN_SECONDLY_ROLLING',
          correlationId: response.headers.get('x-hubspot-correlation-id'),
        });
        expect(response.body.requestId).toMatch(UUID);
        expect(response.headers.get('x-hubspot-ratelimit-max')).toBe('3');
        expect(response.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('1000');
      }
      const retryAfter = throttled.map((response) => response.headers.get('retry-after'));
      expect(retryAfter.filter((value) => value === null)).toHaveLength(1);
      expect(Number(retryAfter.find((value) => value !== null))).toBeGreaterThanOrEqual(1);
      limited.clock.advance(1000);
      expect((await call(limited, '/crm/v3/objects/companies?limit=1')).status).toBe(200);
    }
  });

  test('the daily quota of a private app ends in a DAILY 429', async () => {
    limited.setDailyLimit(2);
    {
      expect((await call(limited, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
      expect((await call(limited, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
      const over = await call(limited, '/crm/v3/objects/contacts?limit=1');
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ policyName: 'DAILY', message: 'You have reached your daily limit.' });
      expect(over.headers.get('x-hubspot-ratelimit-daily-remaining')).toBe('0');
      expect((await call(limited, '/crm/v3/objects/contacts?limit=1', { token: limited.issueAccessToken() })).status).toBe(200);
    }
  });

  test('with rateLimits: false nothing is throttled and no rate-limit headers are sent', async () => {
    fake.setRateLimit(1, 10_000);
    try {
      for (let i = 0; i < 3; i += 1) {
        const response = await call(fake, '/crm/v3/objects/contacts?limit=1');
        expect(response.status).toBe(200);
        expect(response.headers.get('x-hubspot-ratelimit-max')).toBeNull();
      }
    } finally {
      fake.resetRateLimits();
    }
  });
});

describe('fault switches', () => {
  afterEach(() => fake.faults.reset());

  test('latency delays responses until reset', async () => {
    fake.faults.latency(250);
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
    expect(fake.faults.delays).toEqual([250, 250]);
    fake.faults.reset();
    await call(fake, '/crm/v3/objects/contacts?limit=1');
    expect(fake.faults.delays).toEqual([]);
  });

  test('failNext answers a 5xx burst with HubSpot error bodies, then recovers', async () => {
    fake.faults.failNext(2);
    fake.faults.failNext(1, 503);
    const statuses: number[] = [];
    const bodies: any[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await call(fake, '/crm/v3/objects/contacts?limit=1');
      statuses.push(response.status);
      bodies.push(response.body);
    }
    expect(statuses).toEqual([500, 500, 503, 200]);
    expect(bodies[0]).toMatchObject({ status: 'error', category: 'INTERNAL_ERROR', message: 'internal error' });
    expect(bodies[2]).toMatchObject({ status: 'error', message: 'Service Unavailable' });
    expect(fake.requests.slice(0, 3).every((exchange) => exchange.fault === 'fail')).toBe(true);
  });

  test('failNext with a 403 gives the MISSING_SCOPES body, and a custom body is sent as given', async () => {
    fake.faults.failNext(1, 403);
    const forbidden = await call(fake, '/crm/v3/objects/deals?limit=1');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.category).toBe('MISSING_SCOPES');
    fake.faults.failNext(1, 502, '<html>Bad gateway</html>');
    const html = await call(fake, '/crm/v3/objects/deals?limit=1');
    expect(html.status).toBe(502);
    expect(html.text).toBe('<html>Bad gateway</html>');
  });

  test('rateLimitNext sends the real 429 with Retry-After in seconds, as an HTTP date, or not at all', async () => {
    fake.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 3 });
    fake.faults.rateLimitNext(1, { retryAfter: 'http-date', seconds: 5 });
    fake.faults.rateLimitNext(1, { retryAfter: 'none' });
    const seconds = await call(fake, '/crm/v3/objects/contacts?limit=1');
    const date = await call(fake, '/crm/v3/objects/contacts?limit=1');
    const none = await call(fake, '/crm/v3/objects/contacts?limit=1');
    for (const response of [seconds, date, none]) {
      expect(response.status).toBe(429);
      expect(response.body).toMatchObject({
        errorType: 'RATE_LIMIT',
        policyName: 'TEN_SECONDLY_ROLLING',
        message: 'You have reached your ten_secondly_rolling limit.',
      });
    }
    expect(seconds.headers.get('retry-after')).toBe('3');
    const when = Date.parse(date.headers.get('retry-after') ?? '');
    expect(when).toBeGreaterThan(Date.now() + 2000);
    expect(none.headers.get('retry-after')).toBeNull();
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
  });

  test('an injected 429 carries the caller’s rate-limit headers at Remaining 0', async () => {
    limited.faults.rateLimitNext(1);
    try {
      const response = await call(limited, '/crm/v3/objects/contacts?limit=1');
      expect(response.status).toBe(429);
      expect(response.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
      expect(response.headers.get('x-hubspot-ratelimit-max')).toBe('100');
      expect(response.headers.get('retry-after')).toBe('1');
    } finally {
      limited.faults.reset();
    }
  });

  test('resetNext destroys the connection without a response', async () => {
    fake.faults.resetNext(1);
    const auth = { authorization: `Bearer ${fake.privateAppToken}` };
    await expect(rawRequest(`${fake.baseUrl}/crm/v3/objects/contacts?limit=1`, { headers: auth })).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ fault: 'reset', response: { status: 0 } });
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
  });

  test('truncateNext sends the full Content-Length but half the body', async () => {
    fake.faults.truncateNext(1);
    const auth = { authorization: `Bearer ${fake.privateAppToken}` };
    const { status, declared, received } = await readCutBody(`${fake.baseUrl}/crm/v3/objects/contacts?limit=20`, { headers: auth });
    expect(status).toBe(200);
    expect(declared).toBeGreaterThan(1000);
    expect(received).toBe(Math.floor(declared / 2));
    expect(fake.requests.at(-1)?.fault).toBe('truncate');
    const whole = await rawRequest(`${fake.baseUrl}/crm/v3/objects/contacts?limit=20`, { headers: auth });
    expect(whole.body.length).toBe(declared);
  });

  test('faults skip the token endpoint unless includeAuth is set', async () => {
    fake.faults.failNext(1);
    expect((await call(fake, '/oauth/v1/token', { token: null, form: refreshForm(fake) })).status).toBe(200);
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1')).status).toBe(500);
    fake.faults.failNext(1, 502, undefined, { includeAuth: true });
    const token = await call(fake, '/oauth/v1/token', { token: null, form: refreshForm(fake) });
    expect(token.status).toBe(502);
    expect(token.body.category).toBe('INTERNAL_ERROR');
    fake.faults.resetNext(1, { includeAuth: true });
    await expect(
      rawRequest(`${fake.baseUrl}/oauth/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(refreshForm(fake)).toString(),
      }),
    ).rejects.toThrow(/ECONNRESET|socket hang up/);
  });

  test('reset() switches every fault off and stats count what arrived', async () => {
    fake.resetStats();
    fake.faults.failNext(5);
    fake.faults.rateLimitNext(5);
    fake.faults.resetNext(5);
    fake.faults.truncateNext(5);
    fake.faults.latency(500);
    fake.faults.reset();
    expect((await call(fake, '/crm/v3/objects/contacts?limit=1')).status).toBe(200);
    expect((await call(fake, '/oauth/v1/token', { token: null, form: refreshForm(fake) })).status).toBe(200);
    expect(fake.faults.delays).toEqual([]);
    expect(fake.stats).toEqual({ apiRequests: 1, tokenRequests: 1 });
  });
});

describe('router fallbacks', () => {
  test('an unknown path is 404 and a known path under another method is 405 with Allow', async () => {
    const missing = await call(fake, '/crm/v3/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });
    const wrongMethod = await call(fake, '/crm/v3/objects/contacts', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    expect(fake.stats.apiRequests).toBeGreaterThanOrEqual(0);
    // Neither exchange is an upstream operation; keep them out of the conformance check.
    fake.clearRequests();
  });
});

describe('conformance of recorded requests', () => {
  test('the requests a client sends for list, search, schemas and token refresh are declared by the specs', async () => {
    await call(fake, '/crm/v3/objects/contacts?limit=5&properties=email&associations=companies&archived=false');
    await search(fake, 'contacts', { filterGroups: [], sorts: [], properties: ['email'], limit: 5, after: '0' });
    await call(fake, '/crm-object-schemas/v3/schemas?archived=false');
    await call(fake, '/oauth/v1/token', { token: null, form: refreshForm(fake) });
    const docs = [objectsDoc, objectsDoc, schemasDoc, oauthDoc];
    expect(fake.requests).toHaveLength(4);
    fake.requests.forEach((exchange, index) => expect(checkRequest(docs[index]!, exchange)).toEqual([]));
  });
});

describe('openapi-conformance checker', () => {
  const validList = {
    results: [{ id: '1', properties: { email: 'a@b.example' }, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z', archived: false }],
  };
  const listExchange = (body: unknown, status = 200): RecordedExchange => ({
    method: 'GET',
    path: '/crm/v3/objects/contacts',
    response: { status, headers: { 'content-type': 'application/json;charset=utf-8' }, body },
  });

  test('a conformant body passes and a bad one fails', () => {
    expect(checkResponse(objectsDoc, listExchange(validList))).toEqual([]);
    const bad = { results: [{ id: 1, properties: { email: 5 }, createdAt: 'yesterday', archived: 'no' }] };
    const problems = checkResponse(objectsDoc, listExchange(bad));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/results/0/id must be string'),
        expect.stringContaining('/results/0/properties/email must be string'),
        expect.stringContaining('/results/0/createdAt must match format "date-time"'),
        expect.stringContaining("must have required property 'updatedAt'"),
        expect.stringContaining('/results/0/archived must be boolean'),
      ]),
    );
    expect(checkResponse(objectsDoc, listExchange({}))).toEqual([expect.stringContaining("must have required property 'results'")]);
  });

  test('error statuses use the default response (a $ref into components), including its uuid format', () => {
    expect(checkResponse(objectsDoc, listExchange({ message: 'x', correlationId: 'aeb5f871-7f07-4993-9211-075dc63e7cbf', category: 'X' }, 400))).toEqual([]);
    expect(checkResponse(objectsDoc, listExchange({ message: 'x', correlationId: 'not-a-uuid' }, 400))).toEqual([
      expect.stringContaining("must have required property 'category'"),
      expect.stringContaining('correlationId must match format "uuid"'),
    ]);
  });

  test('undeclared query parameters, unknown paths and methods, and wrong media types are reported', () => {
    const base = { method: 'GET', path: '/crm/v3/objects/contacts', headers: { authorization: 'Bearer x', 'user-agent': 'test' } };
    expect(checkRequest(objectsDoc, { ...base, query: { limit: '10', after: 'abc' } })).toEqual([]);
    expect(checkRequest(objectsDoc, { ...base, query: { limt: '10' } })).toEqual([
      'GET /crm/v3/objects/contacts: query parameter "limt" is not declared by the operation',
    ]);
    expect(checkRequest(objectsDoc, { ...base, query: { limit: 'ten', archived: 'yes' } })).toHaveLength(2);
    expect(checkRequest(objectsDoc, { ...base, headers: { 'x-custom': '1' } })).toEqual([
      'GET /crm/v3/objects/contacts: header "x-custom" is not declared by the operation',
    ]);
    expect(checkRequest(objectsDoc, { ...base, headers: { 'x-custom': '1' } }, { ignoreHeaders: ['X-Custom'] })).toEqual([]);
    expect(checkRequest(objectsDoc, { ...base, path: '/crm/v4/objects/contacts' })).toEqual(['GET /crm/v4/objects/contacts: no path of the document matches']);
    expect(checkRequest(objectsDoc, { ...base, method: 'PUT' })[0]).toMatch(/method PUT is not declared/);
    const searchRequest = { method: 'POST', path: '/crm/v3/objects/contacts/search', body: '{}' };
    expect(checkRequest(objectsDoc, { ...searchRequest, headers: { 'content-type': 'application/json' } })).toEqual([]);
    expect(checkRequest(objectsDoc, { ...searchRequest, headers: { 'content-type': 'text/plain' } })[0]).toMatch(/media type "text\/plain" is not declared/);
    expect(checkRequest(objectsDoc, { method: 'POST', path: '/crm/v3/objects/contacts/search' })[0]).toMatch(/requires a request body/);
    expect(checkRequest(objectsDoc, { ...base, body: { a: 1 }, headers: { 'content-type': 'application/json' } })[0]).toMatch(/declares none/);
  });

  test('literal segments win over parameters', () => {
    expect(matchOperation(objectsDoc, 'POST', '/crm/v3/objects/contacts/search')?.pathTemplate).toBe('/crm/v3/objects/{objectType}/search');
    const byId = matchOperation(objectsDoc, 'GET', '/crm/v3/objects/contacts/123');
    expect(byId?.pathTemplate).toBe('/crm/v3/objects/{objectType}/{objectId}');
    expect(byId?.params).toEqual({ objectType: 'contacts', objectId: '123' });
    expect(matchOperation(objectsDoc, 'GET', '/crm/v3/nope')).toBeNull();
  });

  test('works on YAML 3.0 documents: nullable, required parameters, server base paths, the allOf-nullable idiom', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'doc.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.0.0',
        'info: { title: t, version: "1" }',
        'servers: [{ url: "https://api.example.com/api/1.0" }]',
        'paths:',
        '  /items/{item_id}:',
        '    parameters: [{ $ref: "#/components/parameters/item_id" }]',
        '    get:',
        '      parameters:',
        '        - { name: mode, in: query, required: true, schema: { type: string, enum: [full, short] } }',
        '        - { name: X-Tenant, in: header, required: true, schema: { type: string } }',
        '      responses:',
        '        "2XX":',
        '          description: ok',
        '          content:',
        '            application/json:',
        '              schema:',
        '                type: object',
        '                required: [data]',
        '                x-vendor: ignored',
        '                example: { data: 1 }',
        '                properties:',
        '                  data: { $ref: "#/components/schemas/Item" }',
        '  /items/search:',
        '    get:',
        '      responses: { "200": { description: ok } }',
        'components:',
        '  parameters:',
        '    item_id: { name: item_id, in: path, required: true, schema: { type: integer } }',
        '  schemas:',
        '    Item:',
        '      type: object',
        '      properties:',
        '        name: { type: string, nullable: true }',
        '        owner: { allOf: [{ $ref: "#/components/schemas/User" }, { nullable: true }] }',
        '    User: { type: object, required: [gid], properties: { gid: { type: string } } }',
      ].join('\n'),
    );
    const doc = loadOpenApi(file);
    expect(matchOperation(doc, 'GET', '/api/1.0/items/search')?.pathTemplate).toBe('/items/search');
    expect(matchOperation(doc, 'GET', '/items/42')?.params).toEqual({ item_id: '42' });
    const request = { method: 'GET', path: '/api/1.0/items/42', query: { mode: 'full' }, headers: { 'x-tenant': 'a' } };
    expect(checkRequest(doc, request)).toEqual([]);
    expect(checkRequest(doc, { ...request, query: {}, headers: {} })).toEqual([
      'GET /api/1.0/items/42: required query parameter "mode" is missing',
      'GET /api/1.0/items/42: required header "X-Tenant" is missing',
    ]);
    expect(checkRequest(doc, { ...request, path: '/items/abc', query: { mode: 'tiny' } })).toEqual([
      'GET /items/abc: query parameter "mode" must be one of full, short, got "tiny"',
      'GET /items/abc: path parameter "item_id" must be an integer, got "abc"',
    ]);
    const respond = (body: unknown, status = 201) => ({ ...request, response: { status, headers: { 'content-type': 'application/json' }, body } });
    expect(checkResponse(doc, respond({ data: { name: null, owner: null } }))).toEqual([]);
    expect(checkResponse(doc, respond({ data: { name: 'x', owner: { gid: '1' } } }))).toEqual([]);
    expect(checkResponse(doc, respond({ data: { name: 3, owner: {} } }))).toEqual(
      expect.arrayContaining([
        expect.stringContaining('body/data/name must be string,null'),
        expect.stringContaining("body/data/owner must have required property 'gid'"),
      ]),
    );
    expect(checkResponse(doc, respond({ data: 1 }))).toHaveLength(1);
    expect(checkResponse(doc, respond({ data: {} }, 404))[0]).toMatch(/status 404 is not declared/);
    expect(checkResponse(doc, { ...respond({ data: {} }), response: { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>' } })[0]).toMatch(
      /content type "text\/html" is not declared/,
    );
    expect(checkResponse(doc, { ...respond({}), response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{oops' } })).toEqual([
      'GET /api/1.0/items/42: response 200: the body is not valid JSON',
    ]);
    expect(checkResponse(doc, { ...request, response: { status: 0, headers: {}, body: '' } })[0]).toMatch(/connection reset/);
  });

  test('works on OpenAPI 3.1 documents (type arrays with null)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'doc.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {
          '/things': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/vnd.things.v3+json': { schema: { $ref: '#/components/schemas/Things' } } },
                },
              },
            },
          },
        },
        components: {
          schemas: {
            Things: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: { type: ['string', 'null'] } } } },
          },
        },
      }),
    );
    const doc = loadOpenApi(file);
    const respond = (body: unknown) => ({
      method: 'GET',
      path: '/things',
      response: { status: 200, headers: { 'content-type': 'application/vnd.things.v3+json' }, body },
    });
    expect(checkResponse(doc, respond({ items: ['a', null] }))).toEqual([]);
    expect(checkResponse(doc, respond({ items: [1] }))).toEqual([expect.stringContaining('/items/0 must be string,null')]);
  });
});

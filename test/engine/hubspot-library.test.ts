import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type ListResult, type RecordResult } from '../../engine/index.js';
import { startHubspot, withCrmDefaults, type HubspotHarness } from '../support/hubspot.js';

let hub: HubspotHarness;

beforeAll(async () => {
  hub = await startHubspot();
});
afterAll(() => hub.close());

function hubspot() {
  // Untyped (connect<string>): these tests name entities and build params at run time.
  return connect<string>('hubspot', { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl });
}

describe('hubspot list', () => {
  test.each(['contacts', 'companies', 'deals', 'tickets'])('%s list returns the upstream page as CRM records with meta', async (entity) => {
    const raw = await hub.raw(`/crm/v3/objects/${entity}?limit=7`);
    const result = (await hubspot().execute(entity, 'list', { limit: 7 })) as ListResult;
    expect(result.data).toHaveLength(7);
    expect(result.data).toEqual(raw.body.results.map(withCrmDefaults));
    expect(result.meta).toEqual({
      has_more: true,
      next_cursor: raw.body.paging.next.after,
      next_link: raw.body.paging.next.link,
    });
    for (const record of result.data) {
      expect(Object.keys(record).sort()).toEqual([
        'archived',
        'archivedAt',
        'associations',
        'createdAt',
        'id',
        'objectWriteTraceId',
        'properties',
        'propertiesWithHistory',
        'updatedAt',
        'url',
      ]);
      expect(typeof record.id).toBe('string');
      expect(record.archived).toBe(false);
    }
  });

  test('the cursor from meta fetches the next page', async () => {
    const first = (await hubspot().execute('contacts', 'list', { limit: 5 })) as ListResult;
    const second = (await hubspot().execute('contacts', 'list', { limit: 5, after: first.meta.next_cursor as string })) as ListResult;
    const raw = await hub.raw(`/crm/v3/objects/contacts?limit=10`);
    expect([...first.data, ...second.data].map((r) => r.id)).toEqual(raw.body.results.map((r: any) => r.id));
  });

  test('records() walks every page: more than 1,000 contacts, each once, in upstream order', async () => {
    const connection = hubspot();
    const ids: string[] = [];
    for await (const record of connection.records('contacts', 'list', { limit: 100 })) ids.push(record.id as string);
    expect(ids.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(ids).size).toBe(ids.length);
    const fake = hub.sandbox.fakes.hubspot;
    expect(ids.length).toBe(fake.dataset.counts().contacts.active);
    expect(connection.stats.requests).toBe(Math.ceil(ids.length / 100));
  });

  test('the last page has has_more false and null cursors', async () => {
    const connection = hubspot();
    let after: string | undefined;
    let page: ListResult;
    do {
      page = (await connection.execute('tickets', 'list', { limit: 100, ...(after ? { after } : {}) })) as ListResult;
      after = page.meta.next_cursor as string | undefined;
    } while (page.meta.has_more);
    expect(page.meta).toEqual({ has_more: false, next_cursor: null, next_link: null });
  });

  test('archived=true returns only archived records with archivedAt', async () => {
    const result = (await hubspot().execute('contacts', 'list', { archived: true, limit: 100 })) as ListResult;
    expect(result.data.length).toBeGreaterThan(0);
    for (const record of result.data) {
      expect(record.archived).toBe(true);
      expect(typeof record.archivedAt).toBe('string');
    }
  });

  test('properties, associations and propertiesWithHistory reach the upstream and come back', async () => {
    const result = (await hubspot().execute('contacts', 'list', {
      limit: 20,
      properties: 'email,firstname',
      associations: 'companies',
      propertiesWithHistory: 'lastname',
    })) as ListResult;
    const withAssociations = result.data.filter((r) => r.associations !== null);
    expect(withAssociations.length).toBeGreaterThan(0);
    for (const record of result.data) {
      expect(Object.keys(record.properties as object)).toEqual(expect.arrayContaining(['email', 'firstname']));
      expect(record.propertiesWithHistory).toEqual({ lastname: expect.any(Array) });
    }
    const sent = hub.sandbox.fakes.hubspot.requests.at(-1)!;
    expect(sent.query).toMatchObject({ limit: '20', properties: 'email,firstname', associations: 'companies', propertiesWithHistory: 'lastname' }); // The engine names itself and asks for compressed answers, as got did before undici.
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(sent.headers['user-agent']).toBe(`connector-engine/${version}`);
    expect(sent.headers['accept-encoding']).toBe('gzip, deflate, br');
  });
});

describe('hubspot get', () => {
  test.each([
    ['contacts', 'contactId'],
    ['companies', 'companyId'],
    ['deals', 'dealId'],
    ['tickets', 'ticketId'],
  ])('%s get returns the record', async (entity, idParam) => {
    const raw = await hub.raw(`/crm/v3/objects/${entity}?limit=3`);
    const id = raw.body.results[2].id;
    const single = await hub.raw(`/crm/v3/objects/${entity}/${id}`);
    const result = (await hubspot().execute(entity, 'get', { [idParam]: id })) as RecordResult;
    expect(result.data).toEqual(withCrmDefaults(single.body));
    expect(result.meta).toEqual({ has_more: false });
  });

  test('idProperty reads a contact by email', async () => {
    const raw = await hub.raw('/crm/v3/objects/contacts?limit=1&properties=email');
    const contact = raw.body.results[0];
    const result = (await hubspot().execute('contacts', 'get', { contactId: contact.properties.email, idProperty: 'email' })) as RecordResult;
    expect(result.data.id).toBe(contact.id);
  });

  test("an unknown id is NOT_FOUND quoting HubSpot's OBJECT_NOT_FOUND message and correlation id", async () => {
    const error = await hubspot()
      .execute('contacts', 'get', { contactId: '999999999' })
      .catch((e) => e);
    const correlationId = hub.sandbox.fakes.hubspot.requests.at(-1)!.response.headers['x-hubspot-correlation-id'];
    expect(error.code).toBe('NOT_FOUND');
    expect(error.status).toBe(404);
    expect(error.message).toBe('HubSpot CRM answered 404: Object not found.  objectId are usually numeric.');
    expect(error.upstream).toEqual({ status: 404, message: 'Object not found.  objectId are usually numeric.', request_id: correlationId });
  });
});

describe('hubspot api_search', () => {
  test('filter groups, total and paging', async () => {
    const raw = await hub.raw('/crm/v3/objects/contacts?limit=1&properties=firstname');
    const firstname = raw.body.results[0].properties.firstname;
    const params = {
      filterGroups: [{ filters: [{ propertyName: 'firstname', operator: 'EQ', value: firstname }] }],
      properties: ['firstname', 'email'],
      limit: 2,
    };
    const result = (await hubspot().execute('contacts', 'api_search', params)) as ListResult;
    expect(result.meta.total).toBeGreaterThanOrEqual(1);
    expect(result.data.length).toBe(Math.min(2, result.meta.total as number));
    for (const record of result.data) expect((record.properties as any).firstname).toBe(firstname);
    const all = [];
    for await (const record of hubspot().records('contacts', 'api_search', params)) all.push(record);
    expect(all).toHaveLength(result.meta.total as number);
    const sent = hub.sandbox.fakes.hubspot.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/crm/v3/objects/contacts/search');
    expect(sent.body).toMatchObject({ filterGroups: params.filterGroups, limit: 2 });
  });

  test.each(['companies', 'deals', 'tickets'])('%s api_search with no params returns records and total', async (entity) => {
    const result = (await hubspot().execute(entity, 'api_search')) as ListResult;
    expect(result.data.length).toBe(10);
    expect(result.meta.total).toBeGreaterThan(10);
    expect(result.meta.has_more).toBe(true);
    expect(typeof result.meta.next_cursor).toBe('string');
  });

  test('query text searches', async () => {
    const raw = await hub.raw('/crm/v3/objects/contacts?limit=1&properties=email');
    const email = raw.body.results[0].properties.email as string;
    const result = (await hubspot().execute('contacts', 'api_search', { query: email })) as ListResult;
    expect(result.data.map((r) => r.id)).toContain(raw.body.results[0].id);
  });

  test('limits are checked before any request: 7 groups, 26 filters, 3001-character query', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const before = fake.requests.length;
    const filter = { propertyName: 'firstname', operator: 'EQ', value: 'x' };
    const error = await hubspot()
      .execute('contacts', 'api_search', {
        filterGroups: Array.from({ length: 7 }, () => ({ filters: [filter] })),
        query: 'q'.repeat(3001),
      })
      .catch((e) => e);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: '/filterGroups', message: 'must NOT have more than 6 items' },
        { path: '/query', message: 'must NOT have more than 3000 characters' },
      ]),
    );
    const many = await hubspot()
      .execute('contacts', 'api_search', { filterGroups: Array.from({ length: 3 }, () => ({ filters: Array(9).fill(filter) })) })
      .catch((e) => e);
    expect(many.code).toBe('INVALID_PARAMS');
    expect(many.details).toEqual([{ path: '/filterGroups', message: 'rule total-filters: filterGroups can hold at most 25 filters in all' }]);
    expect(fake.requests.length).toBe(before);
    const six = (await hubspot().execute('contacts', 'api_search', {
      filterGroups: Array.from({ length: 6 }, () => ({ filters: [filter] })),
    })) as ListResult;
    expect(Array.isArray(six.data)).toBe(true);
  });

  test("paging past HubSpot's 10,000-result cap is the upstream's 400, typed", async () => {
    const error = await hubspot()
      .execute('contacts', 'api_search', { after: '9995', limit: 10 })
      .catch((e) => e);
    expect(error.code).toBe('UPSTREAM_REJECTED');
    expect(error.upstream.status).toBe(400);
    expect(error.upstream.message.length).toBeGreaterThan(0);
    expect(error.upstream.request_id).toMatch(/[0-9a-f-]{36}/);
  });
});

describe('hubspot schemas and objects', () => {
  test('schemas list and get', async () => {
    const raw = await hub.raw('/crm-object-schemas/v3/schemas');
    const result = (await hubspot().execute('schemas', 'list')) as ListResult;
    expect(result.data.length).toBe(raw.body.results.length);
    expect(result.data.length).toBeGreaterThan(0);
    const schema = result.data[0]!;
    for (const field of ['id', 'name', 'objectTypeId', 'fullyQualifiedName', 'primaryDisplayProperty', 'metaType', 'createdAt', 'updatedAt']) {
      expect(typeof schema[field]).toBe('string');
    }
    expect(Array.isArray(schema.requiredProperties)).toBe(true);
    const one = (await hubspot().execute('schemas', 'get', { objectType: schema.fullyQualifiedName as string })) as RecordResult;
    expect(one.data.id).toBe(schema.id);
    const byId = (await hubspot().execute('schemas', 'get', { objectType: schema.objectTypeId as string })) as RecordResult;
    expect(byId.data.name).toBe(schema.name);
    const archived = (await hubspot().execute('schemas', 'list', { archived: true })) as ListResult;
    expect(archived.data.every((s) => s.archived === true)).toBe(true);
  });

  test('objects list and get on the custom object and on a standard type id', async () => {
    const schemas = (await hubspot().execute('schemas', 'list')) as ListResult;
    const objectType = schemas.data[0]!.objectTypeId as string;
    const list = (await hubspot().execute('objects', 'list', { objectType, limit: 5 })) as ListResult;
    expect(list.data).toHaveLength(5);
    const one = (await hubspot().execute('objects', 'get', { objectType, objectId: list.data[1]!.id as string })) as RecordResult;
    expect(one.data.id).toBe(list.data[1]!.id);
    const contacts = (await hubspot().execute('objects', 'list', { objectType: '0-1', limit: 3 })) as ListResult;
    const direct = (await hubspot().execute('contacts', 'list', { limit: 3 })) as ListResult;
    expect(contacts.data).toEqual(direct.data);
    let count = 0;
    for await (const _ of hubspot().records('objects', 'list', { objectType, limit: 20 })) count++;
    expect(count).toBe(hub.sandbox.fakes.hubspot.dataset.counts()[objectType]?.active ?? count);
  });
});

import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, findManifest, type ListResult } from '../../engine/index.js';
import type { RecordedRequest } from '../../engine/sandbox/index.js';
import { checkRequest, checkResponse, loadOpenApi, type OpenApiDocument } from '../support/openapi-conformance.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { upstreamSpec } from '../support/upstream-specs.js';

let hub: HubspotHarness;
let objectsDoc: OpenApiDocument;
let schemasDoc: OpenApiDocument;
let oauthDoc: OpenApiDocument;

beforeAll(async () => {
  hub = await startHubspot();
  objectsDoc = loadOpenApi(upstreamSpec('hubspot-crm-objects-v3.json'));
  schemasDoc = loadOpenApi(upstreamSpec('hubspot-crm-schemas-v3.json'));
  oauthDoc = loadOpenApi(upstreamSpec('hubspot-oauth-v1.json'));
});
afterAll(() => hub.close());

function docFor(path: string): OpenApiDocument {
  if (path.startsWith('/crm-object-schemas/')) return schemasDoc;
  if (path.startsWith('/oauth/')) return oauthDoc;
  return objectsDoc;
}

const everyListParam = { limit: 3, properties: 'email,name,dealname', associations: 'companies', propertiesWithHistory: 'createdate', archived: false };
const searchParams = {
  filterGroups: [{ filters: [{ propertyName: 'createdate', operator: 'HAS_PROPERTY' }] }],
  sorts: [{ propertyName: 'createdate', direction: 'DESCENDING' }],
  properties: ['createdate'],
  limit: 2,
  query: 'a',
};

/** One call per manifest action, with every param that action declares used at least once. */
async function exerciseEveryAction(): Promise<Set<string>> {
  // Untyped (connect<string>): these tests name entities and build params at run time.
  const connection = connect<string>('hubspot', {
    credentials: { client_id: hub.oauth.client_id!, client_secret: hub.oauth.client_secret!, refresh_token: hub.oauth.refresh_token! },
    baseUrl: hub.baseUrl,
  });
  const covered = new Set<string>();
  const run = async (entity: string, action: string, params: Record<string, unknown>) => {
    const result = await connection.execute(entity, action, params);
    covered.add(`${entity}.${action}`);
    return result;
  };
  const ids: Record<string, string> = { contacts: 'contactId', companies: 'companyId', deals: 'dealId', tickets: 'ticketId' };
  for (const [entity, idParam] of Object.entries(ids)) {
    const page = (await run(entity, 'list', everyListParam)) as ListResult;
    await run(entity, 'list', { limit: 2, after: page.meta.next_cursor });
    await run(entity, 'get', { [idParam]: page.data[0]!.id, ...everyListParam, limit: undefined, idProperty: 'hs_object_id' });
    const found = (await run(entity, 'api_search', searchParams)) as ListResult;
    await run(entity, 'api_search', { after: found.meta.next_cursor, limit: 1 });
  }
  const schemas = (await run('schemas', 'list', { archived: false })) as ListResult;
  const objectType = schemas.data[0]!.objectTypeId as string;
  await run('schemas', 'get', { objectType });
  const objects = (await run('objects', 'list', { objectType, ...everyListParam })) as ListResult;
  await run('objects', 'get', {
    objectType,
    objectId: objects.data[0]!.id,
    properties: 'name',
    archived: false,
    associations: 'contacts',
    propertiesWithHistory: 'name',
    idProperty: 'hs_object_id',
  });
  return covered;
}

test('every request the manifest renders matches a HubSpot operation, and every answer validates', async () => {
  const fake = hub.sandbox.fakes.hubspot;
  const start = fake.requests.length;
  const covered = await exerciseEveryAction();
  const { manifest } = findManifest('hubspot');
  const declared = Object.entries(manifest.entities).flatMap(([entity, spec]) => Object.keys(spec.actions).map((a) => `${entity}.${a}`));
  expect([...covered].sort()).toEqual(declared.sort());

  const exchanges: RecordedRequest[] = fake.requests.slice(start);
  expect(exchanges.some((r) => r.path === '/oauth/v1/token')).toBe(true);
  const problems = exchanges.flatMap((exchange) => [...checkRequest(docFor(exchange.path), exchange), ...checkResponse(docFor(exchange.path), exchange)]);
  expect(problems).toEqual([]);
  expect(exchanges.every((r) => r.response.status === 200)).toBe(true);
});

test('the checker is not blind: an undeclared query param and a malformed answer are caught', () => {
  const bogus = { method: 'GET', path: '/crm/v3/objects/contacts', query: { pageSize: '10' }, response: { status: 200, body: { results: [{ id: 5 }] } } };
  expect(checkRequest(objectsDoc, bogus).join('\n')).toContain('pageSize');
  expect(checkResponse(objectsDoc, bogus).length).toBeGreaterThan(0);
});

/**
 * Issue 12 §1, the HubSpot portal's own property definitions: the fake's properties route
 * (conformance to the schemas document's `Property` and `Error`), a sync plan's `discover_fields`
 * (the copy holds custom property values, the sync state holds the discovered types, on SQLite
 * and PostgreSQL), search comparing by those types, a type changed upstream taking effect at the
 * next pass, and how connector types, `entities` and the hosted sync state show it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, findManifest, type Connection, type SyncState } from '../../engine/index.js';
import { startHubspotFake, startSandbox, type CrmRecord, type HubspotFake, type Sandbox } from '../../engine/sandbox/index.js';
import type { SearchHit } from '../../engine/search/index.js';
import { runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { checkComponent, loadOpenApi } from '../support/openapi-conformance.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { createConnector, startSyncHarness, token, waitForSync } from '../support/sync-hosted.js';
import { searchAll, type Rec } from '../support/sync-upstream.js';

const schemasDoc = loadOpenApi(fileURLToPath(new URL('../../../shared/upstream-specs/hubspot-crm-schemas-v3.json', import.meta.url)));

/** The keys of a Property as the fake renders it: the schemas API's shape. */
const PROPERTY_KEYS = [
  'archived',
  'calculated',
  'createdAt',
  'dataSensitivity',
  'description',
  'displayOrder',
  'externalOptions',
  'fieldType',
  'formField',
  'groupName',
  'hasUniqueValue',
  'hidden',
  'hubspotDefined',
  'label',
  'modificationMetadata',
  'name',
  'options',
  'type',
  'updatedAt',
];

/** What a pass of deals discovers from the fake: number, datetime and date properties, hidden and archived ones left out. */
const DEAL_VALUE_TYPES = {
  'properties.amount': 'number',
  'properties.closedate': 'date-time',
  'properties.createdate': 'date-time',
  'properties.hs_lastmodifieddate': 'date-time',
  'properties.hs_object_id': 'number',
  'properties.contract_months': 'number',
  'properties.renewal_date': 'date-time',
};

let cluster: PostgresCluster | undefined;
const dirs: string[] = [];

afterAll(async () => {
  await cluster?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function storeUrl(backend: 'sqlite' | 'postgres'): Promise<string> {
  if (backend === 'postgres') {
    cluster ??= await startPostgres();
    return cluster.createDatabase();
  }
  const dir = mkdtempSync(join(tmpdir(), 'discovered-types-'));
  dirs.push(dir);
  return `sqlite:${join(dir, 'copy.db')}`;
}

async function get(
  fake: HubspotFake,
  path: string,
  token: string | null = fake.privateAppToken,
): Promise<{ status: number; body: any; correlationId: string | null }> {
  const response = await fetch(fake.baseUrl + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: await response.json(), correlationId: response.headers.get('x-hubspot-correlation-id') };
}

/** Every deal the fake holds, live and archived (the copy reads both). */
const allDeals = (fake: HubspotFake): CrmRecord[] => [...fake.dataset.records('deals', false), ...fake.dataset.records('deals', true)];
/** Ids of the deals whose `name` value passes `keep`, sorted as search ids are compared. */
const idsWhere = (records: CrmRecord[], name: string, keep: (value: string) => boolean) =>
  records
    .filter((record) => record.properties[name] !== undefined && keep(record.properties[name]!))
    .map((record) => record.id)
    .sort();

describe('the fake properties route', () => {
  let fake: HubspotFake;
  beforeAll(async () => {
    fake = await startHubspotFake({ records: 30 });
  });
  afterAll(async () => fake?.close());

  test.each(['contacts', 'companies', 'deals', 'tickets', 'p19936437_car', '2-3508482'])(
    'GET /crm/v3/properties/%s answers {results:[Property]} as the schemas document defines it',
    async (type) => {
      const { status, body } = await get(fake, `/crm/v3/properties/${type}`);
      expect(status).toBe(200);
      expect(Object.keys(body)).toEqual(['results']);
      const problems = (body.results as unknown[]).flatMap((property, index) => checkComponent(schemasDoc, 'Property', property, `results/${index}`));
      expect(problems).toEqual([]);
      for (const property of body.results) expect(Object.keys(property).sort()).toEqual(PROPERTY_KEYS);
    },
  );

  test('deals: HubSpot-defined properties and the portal custom ones with their types; hidden flagged, archived only with archived=true', async () => {
    const live = (await get(fake, '/crm/v3/properties/deals')).body.results as Rec[];
    expect(live.map((p) => [p.name, p.type, p.hubspotDefined, p.hidden])).toEqual([
      ['dealname', 'string', true, false],
      ['amount', 'number', true, false],
      ['closedate', 'datetime', true, false],
      ['pipeline', 'enumeration', true, false],
      ['dealstage', 'enumeration', true, false],
      ['dealtype', 'enumeration', true, false],
      ['description', 'string', true, false],
      ['createdate', 'datetime', true, false],
      ['hs_lastmodifieddate', 'datetime', true, false],
      ['hs_object_id', 'number', true, false],
      ['contract_months', 'number', false, false],
      ['renewal_date', 'date', false, false],
      ['seat_count', 'string', false, false],
      ['internal_score', 'number', false, true],
    ]);
    const archived = (await get(fake, '/crm/v3/properties/deals?archived=true')).body.results as Rec[];
    expect(archived.map((p) => [p.name, p.archived, p.archivedAt])).toEqual([['legacy_region', true, '2024-06-03T10:15:00.000Z']]);
    const companies = (await get(fake, '/crm/v3/properties/companies')).body.results as Rec[];
    expect(companies.find((p) => p.name === 'partner_tier')).toMatchObject({
      type: 'enumeration',
      fieldType: 'select',
      hubspotDefined: false,
      options: [{ value: 'bronze' }, { value: 'silver' }, { value: 'gold' }, { value: 'platinum' }],
    });
    const contacts = (await get(fake, '/crm/v3/properties/contacts')).body.results as Rec[];
    expect(contacts.find((p) => p.name === 'secondary_phone')).toMatchObject({ type: 'phone_number', hubspotDefined: false });
  });

  test("an unknown object type is 404 with HubSpot's error body; no token is 401; a bad archived is 400", async () => {
    const missing = await get(fake, '/crm/v3/properties/spaceships');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      status: 'error',
      message: 'Unable to infer object type from: spaceships',
      correlationId: missing.correlationId,
      category: 'OBJECT_NOT_FOUND',
    });
    expect(checkComponent(schemasDoc, 'Error', missing.body, 'body')).toEqual([]);
    const anonymous = await get(fake, '/crm/v3/properties/deals', null);
    expect([anonymous.status, anonymous.body.category]).toEqual([401, 'INVALID_AUTHENTICATION']);
    const bad = await get(fake, '/crm/v3/properties/deals?archived=maybe');
    expect([bad.status, bad.body.category]).toEqual([400, 'VALIDATION_ERROR']);
  });

  test('the route counts against the burst limit of object reads', async () => {
    fake.setRateLimit(3, 10_000);
    try {
      expect((await get(fake, '/crm/v3/objects/deals?limit=1')).status).toBe(200);
      expect((await get(fake, '/crm/v3/properties/deals')).status).toBe(200);
      expect((await get(fake, '/crm/v3/properties/contacts')).status).toBe(200);
      const limited = await get(fake, '/crm/v3/properties/companies');
      expect([limited.status, limited.body.category]).toEqual([429, 'RATE_LIMITS']);
    } finally {
      fake.resetRateLimits();
    }
  });

  test('api_search filters by custom properties with their current types', async () => {
    const searchIds = async (filter: Rec) => {
      const response = await fetch(`${fake.baseUrl}/crm/v3/objects/deals/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.privateAppToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ filterGroups: [{ filters: [filter] }], properties: ['seat_count'], limit: 200 }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { results: Rec[] }).results.map((deal) => String(deal.id)).sort();
    };
    const live = fake.dataset.records('deals');
    const months = await searchIds({ propertyName: 'contract_months', operator: 'GTE', value: '12' });
    expect(months).toEqual(idsWhere([...live], 'contract_months', (value) => Number(value) >= 12));
    const seats = { propertyName: 'seat_count', operator: 'GTE', value: '100' };
    expect(await searchIds(seats)).toEqual(idsWhere([...live], 'seat_count', (value) => value >= '100'));
    fake.properties.setType('deals', 'seat_count', 'number');
    try {
      expect(await searchIds(seats)).toEqual(idsWhere([...live], 'seat_count', (value) => Number(value) >= 100));
    } finally {
      fake.properties.setType('deals', 'seat_count', 'string');
    }
  });

  test('a list carries custom property values only when properties= names them (API-NOTES A4)', async () => {
    const plain = (await get(fake, '/crm/v3/objects/deals?limit=100')).body.results as Rec[];
    expect(plain.filter((deal) => 'contract_months' in (deal.properties as Rec))).toEqual([]);
    const named = (await get(fake, '/crm/v3/objects/deals?limit=100&properties=contract_months')).body.results as Rec[];
    const expected = fake.dataset.records('deals').map((deal) => [deal.id, deal.properties.contract_months]);
    expect(named.map((deal) => [deal.id, (deal.properties as Rec).contract_months])).toEqual(expected);
    expect(expected.filter(([, months]) => months !== undefined).length).toBeGreaterThan(0);
  });
});

describe.each(['sqlite', 'postgres'] as const)('a HubSpot copy with discovered property types, %s', (backend) => {
  let fake: HubspotFake;
  let hubspot: Connection;
  const search = (params: Rec) => hubspot.execute('deals', 'search', params);
  const dealsState = async (): Promise<SyncState> => (await hubspot.syncStates()).find((state) => state.entity === 'deals')!;
  const hitIds = (hits: SearchHit[]) => hits.map((hit) => hit.id).sort();

  beforeAll(async () => {
    fake = await startHubspotFake({ records: 60, rateLimits: false });
    hubspot = connect<string>('hubspot', { credentials: { access_token: fake.privateAppToken }, baseUrl: fake.baseUrl, store: await storeUrl(backend) });
    const [state] = await hubspot.sync({ entities: ['deals'] });
    expect(state?.status).toBe('succeeded');
  }, 60_000);
  afterAll(async () => {
    await hubspot?.close();
    await fake?.close();
  });

  test('the sync state holds the discovered value types: hidden, archived and text properties get none', async () => {
    expect((await dealsState()).value_types).toEqual(DEAL_VALUE_TYPES);
    // The pass asked for every visible property by name, the hidden and archived ones not.
    const reads = fake.requests.filter((request) => request.path === '/crm/v3/objects/deals');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.query['properties']).toBe(
        'dealname,amount,closedate,pipeline,dealstage,dealtype,description,createdate,hs_lastmodifieddate,hs_object_id,contract_months,renewal_date,seat_count',
      );
    }
  });

  test('contract_months gte "12" answers exactly the deals whose custom value is 12 or more as numbers; the hits carry it', async () => {
    const deals = allDeals(fake);
    const expected = idsWhere(deals, 'contract_months', (months) => Number(months) >= 12);
    // The data tells numbers from text: as text, "5" >= "12" and "100" < "12" would mislead.
    expect(idsWhere(deals, 'contract_months', (months) => months >= '12')).not.toEqual(expected);
    const hits = await searchAll(search, { query: { filter: { gte: { 'properties.contract_months': '12' } } }, limit: 9 });
    expect(hitIds(hits)).toEqual(expected);
    for (const hit of hits) {
      const upstream = fake.dataset.find('deals', hit.id)!;
      expect((hit.data.properties as Rec).contract_months).toBe(upstream.properties.contract_months);
      expect((hit.data.properties as Rec).renewal_date).toBe(upstream.properties.renewal_date);
      // Hidden properties are not asked for, so the copy does not hold them.
      expect((hit.data.properties as Rec).internal_score).toBeUndefined();
    }
    const sorted = await searchAll(search, {
      query: { filter: { gte: { 'properties.contract_months': 12 } }, sort: [{ 'properties.contract_months': 'desc' }] },
      limit: 9,
    });
    const months = sorted.map((hit) => Number((hit.data.properties as Rec).contract_months));
    expect(months).toEqual([...months].sort((a, b) => b - a));
  });

  test('a text property the portal turns into a number compares as text until the next pass, then as a number', async () => {
    const deals = allDeals(fake);
    const filter = { query: { filter: { gte: { 'properties.seat_count': '100' } } }, limit: 50 };
    const asText = idsWhere(deals, 'seat_count', (seats) => seats >= '100');
    const asNumber = idsWhere(deals, 'seat_count', (seats) => Number(seats) >= 100);
    expect(asText).not.toEqual(asNumber);
    expect(hitIds(await searchAll(search, filter))).toEqual(asText);

    fake.properties.setType('deals', 'seat_count', 'number');
    // The copy's types are the last pass's: nothing changes before the next one.
    expect(hitIds(await searchAll(search, filter))).toEqual(asText);
    const [state] = await hubspot.sync({ entities: ['deals'] });
    expect(state?.value_types).toEqual({ ...DEAL_VALUE_TYPES, 'properties.seat_count': 'number' });
    expect(hitIds(await searchAll(search, filter))).toEqual(asNumber);
    expect((await dealsState()).value_types?.['properties.seat_count']).toBe('number');
  });

  test("the manifest's value_types win over discovered ones: amount stays a number when the portal says datetime", async () => {
    fake.properties.setType('deals', 'amount', 'datetime', 'date');
    const [state] = await hubspot.sync({ entities: ['deals'] });
    expect(state?.value_types?.['properties.amount']).toBe('date-time');
    const expected = idsWhere(allDeals(fake), 'amount', (amount) => Number(amount) >= 50_000);
    const hits = await searchAll(search, { query: { filter: { gte: { 'properties.amount': '50000' } } }, limit: 50 });
    expect(hitIds(hits)).toEqual(expected);
    fake.properties.setType('deals', 'amount', 'number');
  });

  test('names joining past max_read_param_length fail the pass with URI_TOO_LONG before any read; the last types stay', async () => {
    const before = (await dealsState()).value_types;
    const long = Array.from({ length: 120 }, (_, index) => `custom_field_with_a_rather_long_internal_name_${String(index).padStart(3, '0')}_${'x'.repeat(50)}`);
    for (const name of long)
      fake.properties.add('deals', { name, label: name, type: 'string', fieldType: 'text', groupName: 'dealinformation', description: '' });
    fake.clearRequests();
    const [state] = await hubspot.sync({ entities: ['deals'] });
    const joined =
      'dealname,amount,closedate,pipeline,dealstage,dealtype,description,createdate,hs_lastmodifieddate,hs_object_id,contract_months,renewal_date,seat_count'
        .length +
      long.join(',').length +
      1;
    expect(state?.status).toBe('failed');
    expect(state?.last_error).toBe(
      `URI_TOO_LONG: hubspot deals: the ${13 + 120} discovered field names join to ${joined} characters in "properties", over the 12000 a read may send (max_read_param_length); hide or archive unused fields upstream`,
    );
    expect(fake.requests.map((request) => request.path)).toEqual(['/crm/v3/properties/deals']);
    expect((await dealsState()).value_types).toEqual(before);
    // Search still answers from the last successful pass.
    expect((await search({ query: { filter: { eq: { 'properties.contract_months': 12 } } } })).hits.length).toBe(
      idsWhere(allDeals(fake), 'contract_months', (m) => Number(m) === 12).length,
    );
  });
});

describe('connector types, entities and the hosted sync state show the discovered types', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ records: 30, rateLimits: false });
  }, 60_000);
  afterAll(async () => sandbox?.close());

  test('GET /v1/connector-types marks deals search as discovering types; GET .../sync and `connector-engine sync` show them per entity', async () => {
    const databaseUrl = await storeUrl('sqlite');
    const h = await startSyncHarness(databaseUrl, sandbox, { background: false });
    try {
      const types = await call(h, 'GET', '/v1/connector-types');
      const hubspot = types.body.data.find((type: Rec) => type.type === 'hubspot');
      expect(hubspot.entities.deals.actions.search.discovers_value_types).toBe(true);
      expect(hubspot.entities.deals.actions.search.value_types).toEqual(findManifest('hubspot').manifest.entities.deals?.sync?.value_types);
      expect(hubspot.entities.deals.actions.search.value_types).toMatchObject({ 'properties.amount': 'number', 'properties.closedate': 'date-time' });
      expect(hubspot.entities.tickets.actions.search).toBeUndefined();
      const shopify = types.body.data.find((type: Rec) => type.type === 'shopify');
      expect(shopify.entities.orders.actions.search.discovers_value_types).toBeUndefined();

      const user = await token(h, 'dana');
      const id = await createConnector(h, 'dana', 'hubspot');
      expect((await call(h, 'POST', `/api/v1/connectors/sources/${id}/sync`, { token: user })).status).toBe(202);
      const status = await waitForSync(h, user, id, ['contacts', 'companies', 'deals']);
      const byEntity = Object.fromEntries((status.entities as SyncState[]).map((state) => [state.entity, state.value_types]));
      expect(byEntity.deals).toEqual(DEAL_VALUE_TYPES);
      expect(byEntity.companies).toEqual({
        'properties.numberofemployees': 'number',
        'properties.annualrevenue': 'number',
        'properties.createdate': 'date-time',
        'properties.hs_lastmodifieddate': 'date-time',
        'properties.hs_object_id': 'number',
        'properties.seats_licensed': 'number',
      });
      const hits = await call(h, 'POST', `/api/v1/connectors/sources/${id}/execute`, {
        token: user,
        body: { entity: 'companies', action: 'search', params: { query: { filter: { eq: { 'properties.partner_tier': 'gold' } } }, limit: 100 } },
      });
      const gold = sandbox.fakes.hubspot.dataset.records('companies').filter((company) => company.properties.partner_tier === 'gold');
      expect(hits.body.hits.map((hit: SearchHit) => hit.id).sort()).toEqual(gold.map((company) => company.id).sort());

      // The command line's pass prints the states it leaves, discovered types included.
      const cli = await runCli(['sync', id, '--database-url', databaseUrl], undefined, {
        ENGINE_SECRET: 'sync-test-engine-secret-0123456789',
        ENGINE_UPSTREAM_HUBSPOT: sandbox.upstreams.hubspot!.base_url,
      });
      expect(cli.code, cli.stderr).toBe(0);
      const printed = (JSON.parse(cli.stdout) as { entities: SyncState[] }).entities;
      expect(printed.find((state) => state.entity === 'deals')?.value_types).toEqual(DEAL_VALUE_TYPES);
    } finally {
      await h.service.close();
    }
  });

  test('`entities hubspot` says which searches discover value types', async () => {
    const json = JSON.parse((await runCli(['entities', 'hubspot', '--json'])).stdout);
    expect(json.deals.search.discovers_value_types).toBe(true);
    expect(json.tickets.search).toBeUndefined();
    const text = (await runCli(['entities', 'hubspot'])).stdout;
    expect(text).toContain('    value types of more fields are read from the upstream at every sync pass (see the sync state)');
  });
});

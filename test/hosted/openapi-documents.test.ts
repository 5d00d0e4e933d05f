/**
 * Issue 14 (OpenAPI that generators can use): the hosted document (/openapi.json) and one per
 * connector type (/v1/connector-types/{type}/openapi.json), read over HTTP from a running service,
 * are valid OpenAPI 3.1, match every request the engine accepts with exactly one execute variant,
 * type the search filter as its recursive grammar, and compile through openapi-typescript and tsc.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findManifest, InvalidParamsError } from '../../engine/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { parseSearchParams } from '../../engine/search/index.js';
import { everyOperatorFilter, executeSamples } from '../support/openapi-samples.js';
import { componentValidators, generatedTypes, strictDiagnostics } from '../support/openapi-tooling.js';

const TYPES = ['amazon-ads', 'asana', 'gong', 'hubspot', 'shopify'];
const root = fileURLToPath(new URL('../..', import.meta.url));

let service: HostedService;
const documents: Record<string, any> = {};

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(service.url + path);
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  service = await startHostedService({
    databaseUrl: `sqlite:${join(dir, 'engine.db')}`,
    port: 0,
    secret: 'openapi-test-secret-0123456789',
    logger: { level: 'silent' },
    sync: { background: false },
  });
  documents.hosted = (await get('/openapi.json')).body;
  for (const type of TYPES) documents[type] = (await get(`/v1/connector-types/${type}/openapi.json`)).body;
});
afterAll(async () => {
  await service?.close();
});

/** The execute variants of a document, by component name. */
function variants(document: any): string[] {
  return Object.keys(document.components.schemas).filter((name) => /^ExecuteRequest\.[^.]+\.[^.]+$/.test(name));
}

describe('the per-type route', () => {
  test('serves one document per type, names its type case-insensitively, and answers an unknown type NOT_FOUND', async () => {
    expect(documents.hubspot.info.title).toBe('connector-engine hosted API: hubspot');
    expect(documents.hosted.paths['/v1/connector-types/{type}/openapi.json'].get.responses['404'].description).toBe(
      'NOT_FOUND: no connector type of that name',
    );
    expect(variants(documents.hubspot).sort()).toEqual(
      ['companies', 'contacts', 'deals']
        .flatMap((e) => ['api_search', 'get', 'list', 'search'].map((a) => `ExecuteRequest.${e}.${a}`))
        .concat([
          'ExecuteRequest.objects.get',
          'ExecuteRequest.objects.list',
          'ExecuteRequest.schemas.get',
          'ExecuteRequest.schemas.list',
          'ExecuteRequest.tickets.api_search',
          'ExecuteRequest.tickets.get',
          'ExecuteRequest.tickets.list',
        ])
        .sort(),
    );
    expect(Object.keys(documents.gong.components.schemas).filter((name) => name.startsWith('ConnectorConfig.'))).toEqual(['ConnectorConfig.gong']);
    expect((await get('/v1/connector-types/HubSpot/openapi.json')).body.components).toEqual(documents.hubspot.components);
    const unknown = await get('/v1/connector-types/salesforce/openapi.json');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      code: 'NOT_FOUND',
      message: `unknown connector type "salesforce"; known types: ${TYPES.join(', ')}`,
      details: [{ path: '/type', message: `must be one of ${TYPES.join(', ')}` }],
    });
  });
});

describe('validity', () => {
  test.each(['hosted', ...TYPES])('the %s document is valid OpenAPI 3.1 (@readme/openapi-parser)', async (name) => {
    const result = await validate(structuredClone(documents[name]));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  test('the validator refuses a document whose execute body points nowhere', async () => {
    const broken = structuredClone(documents.hubspot);
    broken.components.schemas['ExecuteRequest.contacts'].oneOf[0].$ref = '#/components/schemas/Nothing';
    expect((await validate(broken)).valid).toBe(false);
  });
});

describe('exactly one variant per request', () => {
  const samples = executeSamples();

  test('every entity/action of every type has samples the engine accepts', () => {
    const pairs = new Set(samples.map((s) => `${s.type} ${s.entity} ${s.action}`));
    const declared = TYPES.flatMap((type) => variants(documents[type]).map((name) => `${type} ${name.split('.').slice(1).join(' ')}`));
    expect([...pairs].sort()).toEqual(declared.sort());
    expect(variants(documents.hosted)).toHaveLength(new Set(samples.map((s) => `${s.entity} ${s.action}`)).size);
  });

  test('each sample matches exactly its own variant in the hosted document and in its type document', () => {
    const checkers = new Map(['hosted', ...TYPES].map((key) => [key, componentValidators(documents[key])]));
    for (const name of ['hosted', 'type'] as const) {
      for (const sample of samples) {
        const check = checkers.get(name === 'hosted' ? 'hosted' : sample.type)!;
        const document = documents[name === 'hosted' ? 'hosted' : sample.type];
        const matched = variants(document).filter((variant) => check(variant)(sample.body));
        expect({ sample: `${sample.type} ${sample.entity} ${sample.action} ${sample.kind}`, in: name, matched }).toEqual({
          sample: `${sample.type} ${sample.entity} ${sample.action} ${sample.kind}`,
          in: name,
          matched: [`ExecuteRequest.${sample.entity}.${sample.action}`],
        });
        expect(check('ExecuteRequest')(sample.body)).toBe(true);
      }
    }
  });

  test('users list, offered by asana and gong, is one variant whose params are either type’s', () => {
    const check = componentValidators(documents.hosted);
    const variant = documents.hosted.components.schemas['ExecuteRequest.users.list'];
    expect(variant.properties.params).toEqual({
      anyOf: [{ $ref: '#/components/schemas/asana.users.list.Params' }, { $ref: '#/components/schemas/gong.users.list.Params' }],
    });
    expect(variants(documents.hosted).filter((name) => check(name)({ entity: 'users', action: 'list' }))).toEqual(['ExecuteRequest.users.list']);
    expect(check('ExecuteRequest')({ entity: 'users', action: 'list', params: { workspace: '1001' } })).toBe(true);
    expect(check('ExecuteRequest')({ entity: 'users', action: 'list', params: { cursor: 'abc' } })).toBe(true);
    expect(check('ExecuteRequest')({ entity: 'users', action: 'list', params: { workspace: '1001', cursor: 'abc' } })).toBe(false);
  });

  test('requests the engine refuses match no variant', () => {
    const check = componentValidators(documents.hosted);
    const refused = [
      { entity: 'contactz', action: 'list' },
      { entity: 'contacts', action: 'download', params: {} },
      { entity: 'contacts', action: 'get' },
      { entity: 'contacts', action: 'list', params: { limit: 'ten' } },
      { entity: 'contacts', action: 'list', params: { limt: 2 } },
      { entity: 'contacts', action: 'list', colour: 'blue' },
      { entity: 'contacts', action: 'search', params: { limit: 5 } },
      { entity: 'tickets', action: 'search', params: { query: {} } },
      { entity: 'locations', action: 'list', params: { limit: 5 } },
    ];
    for (const body of refused) expect({ body, matched: variants(documents.hosted).filter((name) => check(name)(body)) }).toEqual({ body, matched: [] });
  });
});

describe('the search filter grammar', () => {
  const spec = findManifest('hubspot').manifest.entities.contacts!;
  const searchable = spec.sync!.searchable;
  const engineAccepts = (params: unknown) => {
    try {
      parseSearchParams(params, searchable, spec.sync!.value_types ?? {});
      return true;
    } catch (error) {
      if (error instanceof InvalidParamsError) return false;
      throw error;
    }
  };

  test('is a recursive schema: and/or/not refer back to the filter component', () => {
    const filter = documents.hubspot.components.schemas['hubspot.contacts.search.Filter'];
    const self = { $ref: '#/components/schemas/hubspot.contacts.search.Filter' };
    const byOperator = Object.fromEntries(filter.oneOf.map((node: any) => [node.required[0], node.properties[node.required[0]]]));
    expect(Object.keys(byOperator)).toEqual(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword', 'and', 'or', 'not']);
    expect([byOperator.and, byOperator.or, byOperator.not]).toEqual([
      { type: 'array', minItems: 1, items: self },
      { type: 'array', minItems: 1, items: self },
      self,
    ]);
    expect(documents.hubspot.components.schemas['hubspot.contacts.search.Params'].properties.query.properties.filter.anyOf).toEqual([self, { type: 'null' }]);
  });

  test('accepts and refuses the filters, sorts and fields that parseSearchParams does', () => {
    const check = componentValidators(documents.hubspot)('hubspot.contacts.search.Params');
    const cases: Array<[string, unknown]> = [
      ['every operator, nested', { query: { filter: everyOperatorFilter(spec) } }],
      ['no filter', { query: {} }],
      ['null filter, sort and cursor', { query: { filter: null, sort: null }, cursor: null }],
      [
        'a path inside an object',
        { query: { filter: { like: { 'properties.email': '%@example.com' } }, sort: [{ 'properties.email': 'asc' }] }, fields: ['properties.email'] },
      ],
      ['an element path of an array', { query: { filter: { eq: { 'companies.id': '1' } } } }],
      ['two operators in one node', { query: { filter: { eq: { id: '1' }, neq: { id: '2' } } } }],
      ['an unknown operator', { query: { filter: { between: { id: ['1', '2'] } } } }],
      ['an unknown field', { query: { filter: { eq: { colour: 'blue' } } } }],
      ['a path below a scalar field', { query: { filter: { eq: { 'archived.x': true } } } }],
      ['two fields under one operator', { query: { filter: { eq: { id: '1', archived: true } } } }],
      ['an empty and', { query: { filter: { and: [] } } }],
      ['a not holding a list', { query: { filter: { not: [{ eq: { id: '1' } }] } } }],
      ['an empty in', { query: { filter: { in: { id: [] } } } }],
      ['an empty like', { query: { filter: { like: { id: '' } } } }],
      ['a range on null', { query: { filter: { gt: { id: null } } } }],
      ['a sort on an array field', { query: { sort: [{ companies: 'asc' }] } }],
      ['a sort direction that is not asc or desc', { query: { sort: [{ id: 'up' }] } }],
      ['an unknown fields path', { query: {}, fields: ['colour'] }],
      ['no query', { limit: 5 }],
      ['a limit over 10,000', { query: {}, limit: 10001 }],
    ];
    const verdicts = cases.map(([what, params]) => ({ what, schema: check(params), engine: engineAccepts(params) }));
    expect(verdicts).toEqual(cases.map(([what], i) => ({ what, schema: i < 5, engine: i < 5 })));
  });
});

describe('openapi-typescript', () => {
  test('generates declarations of every document that compile under tsc --strict, with typed requests, records and hits', async () => {
    const base = join(root, 'test', '.tmp');
    mkdirSync(base, { recursive: true });
    const dir = mkdtempSync(join(base, 'openapi-types-'));
    const files: string[] = [];
    for (const name of ['hosted', ...TYPES]) {
      const text = await generatedTypes(documents[name]);
      expect(text).not.toContain('Record<string, never>;\n            };\n        };\n        "ExecuteResult');
      writeFileSync(join(dir, `${name}-api.d.ts`), text);
      files.push(join(dir, `${name}-api.d.ts`));
    }
    for (const name of ['hubspot', 'hosted']) {
      writeFileSync(join(dir, `${name}-usage.ts`), USAGE.replace('./hubspot-api.js', `./${name}-api.js`));
      files.push(join(dir, `${name}-usage.ts`));
    }
    expect(strictDiagnostics(files)).toEqual([]);
  });
});

/**
 * Typed uses of the generated declarations: the README's list, get and search requests, the
 * records and hits they answer, and one `@ts-expect-error` per kind of mistake (tsc reports an
 * unused one, so each mistake must fail to compile).
 */
const USAGE = `import type { components } from './hubspot-api.js';
type Schemas = components['schemas'];
type Request = Schemas['ExecuteRequest'];
export const requests: Request[] = [
  { entity: 'contacts', action: 'list', params: { limit: 2 } },
  { entity: 'contacts', action: 'get', params: { contactId: '1001' } },
  { entity: 'deals', action: 'search', params: { query: { filter: { gte: { 'properties.amount': '50000' } }, sort: [{ 'properties.amount': 'asc' }] }, limit: 2, fields: ['id', 'properties.amount'] } },
  {
    entity: 'contacts',
    action: 'search',
    params: {
      query: { filter: { and: [{ like: { 'properties.email': '%@example.com' } }, { not: { eq: { archived: true } } }, { keyword: { 'properties.firstname': 'ada grace' } }] }, sort: [{ createdAt: 'desc' }] },
      limit: 3,
      fields: ['id', 'properties.email', 'companies'],
    },
  },
];
// @ts-expect-error an unknown entity
export const unknownEntity: Request = { entity: 'contactz', action: 'list' };
// @ts-expect-error an action the entity does not offer
export const unknownAction: Request = { entity: 'contacts', action: 'download' };
// @ts-expect-error limit is an integer
export const textLimit: Request = { entity: 'contacts', action: 'list', params: { limit: 'ten' } };
// @ts-expect-error an unknown param
export const unknownParam: Request = { entity: 'contacts', action: 'list', params: { limt: 2 } };
// @ts-expect-error get needs its id
export const noId: Request = { entity: 'contacts', action: 'get' };
// @ts-expect-error a filter node is an operator, not a field
export const fieldAsOperator: Request = { entity: 'deals', action: 'search', params: { query: { filter: { amount: 5 } } } };
// @ts-expect-error and takes a list of filters
export const andOfOne: Request = { entity: 'deals', action: 'search', params: { query: { filter: { and: { eq: { id: '1' } } } } } };

declare const page: Schemas['ExecuteResult.contacts.list'];
export const email: string | null | undefined = page.data[0]?.properties.email;
export const more: boolean = page.meta.has_more;
export const next: string | number | null = page.meta.next_cursor;
declare const one: Schemas['ExecuteResult.contacts.get'];
export const id: string = one.data.id;
export const associations: unknown = one.data.associations?.companies;
declare const found: Schemas['ExecuteResult.deals.search'];
export const amount: string | null | undefined = found.hits[0]?.data.properties?.amount;
export const score: number | undefined = found.hits[0]?.score;
export const cursor: string | null = found.next_cursor;
// @ts-expect-error a record is not a string
export const notText: string = page.data[0];
// @ts-expect-error a get answers one record, not a list
export const notList = one.data.map((record) => record);
`;

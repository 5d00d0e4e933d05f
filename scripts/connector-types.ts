/**
 * Generates engine/typed/connector-types.generated.ts: per shipped connector type, entity and
 * action, the params, the record, the meta fields and the search hits, as one JSON Schema of the
 * `ShippedConnectors` map compiled by json-schema-to-typescript. What each part holds is what
 * `execute` returns today (engine/runtime/connection.ts, extract.ts, the paging strategies).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { loadManifestFile, type ActionSpec, type EntitySpec, type JsonSchema, type Manifest } from '../engine/manifest/index.js';

type Definitions = Record<string, JsonSchema>;

const OPTIONS = {
  bannerComment: '',
  additionalProperties: true,
  ignoreMinAndMaxItems: true,
  unreachableDefinitions: false,
  format: true,
  style: { printWidth: 160, singleQuote: true, trailingComma: 'all' as const },
};

/** `amazon-ads`, `sponsored_product_campaigns` -> `AmazonAds`, `SponsoredProductCampaigns`. */
function pascal(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '')
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');
}

/** Keywords whose value is one schema, and those whose value maps names (or positions) to schemas. */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/**
 * An author's schema without `title`s, so json-schema-to-typescript names no types after them
 * (two entities may title a part alike); a property *named* title stays.
 */
function untitled(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'title') continue;
    if (ONE_SCHEMA.has(key)) out[key] = untitled(value);
    else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object')
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, untitled(sub)]));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(untitled);
    else out[key] = value;
  }
  return out;
}

/** Adds a named type to the definitions and answers a reference to it; a name used twice is a generator bug. */
function define(defs: Definitions, name: string, schema: unknown): JsonSchema {
  if (Object.hasOwn(defs, name)) throw new Error(`connector types: ${name} is defined twice`);
  defs[name] = { ...(untitled(schema) as JsonSchema), title: name };
  return { $ref: `#/definitions/${name}` };
}

/** An object schema whose every property is required and nothing else is allowed. */
function exact(properties: Record<string, unknown>, description?: string): JsonSchema {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties, ...(description ? { description } : {}) };
}

/** The JSON type of the page token the action's paging hands out as `meta.next_cursor` (engine/runtime/paging). */
function tokenSchema(action: ActionSpec): JsonSchema | undefined {
  const paging = action.pagination;
  if (!paging || paging.type === 'none') return undefined;
  if (paging.type === 'page_number' || paging.type === 'offset') return { type: 'number' };
  if (paging.type === 'body_token') {
    const param = (action.params?.properties as Record<string, { type?: unknown }> | undefined)?.[paging.param];
    const types = [param?.type].flat();
    return types.includes('integer') || types.includes('number') ? { type: ['string', 'number'] } : { type: 'string' };
  }
  return { type: 'string' };
}

const NEXT_CURSOR = 'Pass it back, as it is, in the paging param for the next page; null on the last page.';

/**
 * The meta of one action's results: `has_more` always; the manifest's meta fields (null when the
 * answer lacks them; typed as the page token where they read the token's own path); the paging's
 * `next_cursor` and a record_key paging's `token_meta` field.
 */
function metaSchema(action: ActionSpec): JsonSchema {
  const properties: Record<string, unknown> = { has_more: { type: 'boolean', description: 'Whether more records may follow.' } };
  const token = tokenSchema(action);
  const paging = action.pagination;
  if (paging?.type === 'record_key' && paging.token_meta !== undefined) {
    properties[paging.token_meta] = {
      anyOf: [exact({ [paging.param]: { type: 'string' } }), { type: 'null' }],
      description: `The cursor as {${paging.param}}; null on the last page.`,
    };
  }
  for (const [name, path] of Object.entries(action.response.meta ?? {})) {
    const isToken = token !== undefined && paging?.type === 'body_token' && path === paging.token_path;
    properties[name] = isToken
      ? { anyOf: [token, { type: 'null' }], description: NEXT_CURSOR }
      : { tsType: 'unknown', description: `The answer's \`${path || '(body)'}\`, or null.` };
  }
  if (action.response.records !== undefined && token !== undefined && !('next_cursor' in properties)) {
    properties.next_cursor = { anyOf: [token, { type: 'null' }], description: NEXT_CURSOR };
  }
  return exact(properties);
}

/** The TypeScript-facing kind of an action: a page of records, one record, or a file. */
function kindOf(action: ActionSpec): 'records' | 'record' | 'download' {
  if (action.file) return 'download';
  return action.response.records !== undefined ? 'records' : 'record';
}

const EMPTY_PARAMS = { type: 'object', additionalProperties: false, properties: {} };

/**
 * The params schema to type: an action that takes none is `Record<string, never>`, since the
 * empty interface `{}` would let any object (and any value but null) through.
 */
function paramsSchema(action: ActionSpec): JsonSchema {
  const params = action.params ?? EMPTY_PARAMS;
  const named = Object.keys((params.properties as Record<string, unknown> | undefined) ?? {});
  return named.length === 0 && params.additionalProperties === false ? { ...params, tsType: 'Record<string, never>' } : params;
}

function actionSchema(defs: Definitions, base: string, name: string, action: ActionSpec, record: JsonSchema): JsonSchema {
  const kind = kindOf(action);
  const parts: Record<string, unknown> = {
    kind: { const: kind },
    params: define(defs, `${base}${pascal(name)}Params`, paramsSchema(action)),
    record,
  };
  if (kind !== 'download') parts.meta = define(defs, `${base}${pascal(name)}Meta`, metaSchema(action));
  return exact(parts, action.description);
}

const FIELD_SCHEMAS: Record<string, JsonSchema> = {
  string: { type: ['string', 'null'] },
  integer: { type: ['integer', 'null'] },
  number: { type: ['number', 'null'] },
  boolean: { type: ['boolean', 'null'] },
  object: { anyOf: [{ type: 'object' }, { type: 'null' }] },
  array: { type: ['array', 'null'] },
};

/**
 * A search hit's `data`: the searchable fields the record has (or the request's `fields` keep), so
 * each is optional. Typed as the record schema types it, unless the sync plan computes it; else
 * as its searchable type, which a record may hold as null (SPEC.md's tables: "its value may be null").
 */
function hitSchema(entity: EntitySpec): JsonSchema {
  const sync = entity.sync;
  const recordProperties = (entity.record.properties ?? {}) as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(sync?.searchable ?? {})) {
    const computed = sync?.fields !== undefined && Object.hasOwn(sync.fields, name);
    properties[name] = !computed && Object.hasOwn(recordProperties, name) ? recordProperties[name] : FIELD_SCHEMAS[type];
  }
  return { type: 'object', additionalProperties: false, properties };
}

function entitySchema(defs: Definitions, type: string, name: string, entity: EntitySpec): JsonSchema {
  const base = pascal(type, name);
  const record = define(defs, `${base}Record`, entity.record);
  const actions: Record<string, unknown> = {};
  for (const [actionName, action] of Object.entries(entity.actions)) actions[actionName] = actionSchema(defs, base, actionName, action, record);
  if (entity.sync) {
    const fields = Object.fromEntries(Object.entries(entity.sync.searchable).map(([field, fieldType]) => [field, { const: fieldType }]));
    actions.search = exact(
      { kind: { const: 'search' }, fields: define(defs, `${base}SearchFields`, exact(fields)), hit: define(defs, `${base}SearchHit`, hitSchema(entity)) },
      'Searches the synchronized copy (needs a store, or the hosted service).',
    );
  }
  return define(defs, `${base}Actions`, exact(actions, entity.description));
}

/** The schema of the whole map: connector type -> entity -> action -> its parts. */
function shippedSchema(manifests: Manifest[]): JSONSchema {
  const defs: Definitions = {};
  const connectors: Record<string, unknown> = {};
  for (const manifest of manifests) {
    const entities: Record<string, unknown> = {};
    for (const [name, entity] of Object.entries(manifest.entities)) entities[name] = entitySchema(defs, manifest.type, name, entity);
    connectors[manifest.type] = define(defs, `${pascal(manifest.type)}Entities`, exact(entities, manifest.name));
  }
  return {
    ...exact(connectors, 'Every shipped connector type: its entities, their actions, and what each takes and returns.'),
    title: 'ShippedConnectors',
    definitions: defs,
  } as JSONSchema;
}

/** The shipped manifests, loaded and checked as the engine loads them, in file order. */
function shippedManifests(root: string): Manifest[] {
  const dir = join(root, 'connectors');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => loadManifestFile(join(dir, file)).manifest);
}

/** The text of engine/typed/connector-types.generated.ts. */
export async function connectorTypesSource(root: string): Promise<string> {
  const body = await compile(shippedSchema(shippedManifests(root)), 'ShippedConnectors', { ...OPTIONS, cwd: join(root, 'connectors') });
  const banner = '/**\n * GENERATED from connectors/*.yaml by `npm run generate`; do not edit. A test fails when this file\n * is stale.\n */\n';
  return `${banner}\n${body}`;
}

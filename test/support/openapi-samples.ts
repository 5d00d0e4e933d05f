/**
 * Execute requests for every entity and action of every shipped connector type, built from the
 * manifests, that the engine itself accepts (its params validator, or parseSearchParams for
 * `search`): the samples the OpenAPI documents must match with exactly one variant.
 */
import { findManifest, shippedManifests } from '../../engine/index.js';
import type { EntitySpec } from '../../engine/manifest/index.js';
import { compileConnector } from '../../engine/runtime/index.js';
import { parseSearchParams } from '../../engine/search/index.js';

type Schema = Record<string, any>;

/** One sample: the body of an execute request and what it samples. */
export interface ExecuteSample {
  type: string;
  entity: string;
  action: string;
  /** `minimal`: required params only (plus what a rule asks for); `full`: every param set. */
  kind: 'minimal' | 'full';
  body: { entity: string; action: string; params?: Record<string, unknown> };
}

/** Texts tried in order for a string param with a pattern (ids, enums of comma lists, ranges). */
const TEXTS = ['1001', 'me', 'seller', 'enabled', 'bytes=0-9', 'name', 'shop-1', '2024-01', 'now'];

function sampleText(schema: Schema): string {
  if (schema.format === 'date-time') return '2024-01-02T03:04:05Z';
  if (schema.format === 'date') return '2024-01-02';
  const fits = (text: string) =>
    text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity) && (!schema.pattern || new RegExp(schema.pattern, 'u').test(text));
  const found = TEXTS.find(fits) ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  return found;
}

/** A value the schema accepts: its const or first enum value, else one of its (first) type. */
function sampleValue(schema: Schema): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf ?? schema.oneOf)) return sampleValue((schema.anyOf ?? schema.oneOf)[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? Infinity);
  if (type === 'boolean') return true;
  if (type === 'array') return [sampleValue(schema.items ?? {})];
  if (type === 'object') return sampleObject(schema, schema.required ?? []);
  return sampleText(schema);
}

function sampleObject(schema: Schema, names: string[]): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(names.filter((name) => properties[name]).map((name) => [name, sampleValue(properties[name]!)]));
}

/** The params of each rule's first `anyOf: [{required}]` alternative: what a rule such as "give a project" asks for. */
function ruleNames(rules: Schema[] | undefined): string[] {
  return (rules ?? []).flatMap((rule) =>
    Array.isArray(rule.schema?.anyOf) && Array.isArray(rule.schema.anyOf[0]?.required) ? rule.schema.anyOf[0].required : [],
  );
}

/** The first params the engine accepts, or undefined. */
function accepted(validate: (params: unknown) => unknown, candidates: Record<string, unknown>[]): Record<string, unknown> | undefined {
  return candidates.find((params) => {
    try {
      validate(params);
      return true;
    } catch {
      return false;
    }
  });
}

function actionSamples(type: string, entity: string, action: string): ExecuteSample[] {
  const compiled = compileConnector(findManifest(type)).actions.get(entity)!.get(action)!;
  const schema = (compiled.spec.params ?? { properties: {} }) as Schema;
  const required = (schema.required ?? []) as string[];
  const minimal = accepted(compiled.validateParams, [
    sampleObject(schema, required),
    sampleObject(schema, [...required, ...ruleNames(compiled.spec.rules as Schema[])]),
  ]);
  if (!minimal) throw new Error(`no minimal sample of ${type} ${entity} ${action} passes the engine's check: extend test/support/openapi-samples.ts`);
  const full = accepted(compiled.validateParams, [sampleObject(schema, Object.keys(schema.properties ?? {}))]);
  const body = (params: Record<string, unknown>) => ({ entity, action, ...(Object.keys(params).length > 0 ? { params } : {}) });
  return [{ type, entity, action, kind: 'minimal', body: body(minimal) }, ...(full ? [{ type, entity, action, kind: 'full' as const, body: body(full) }] : [])];
}

/** A filter using every operator on the entity's fields, nested in and/or/not. */
export function everyOperatorFilter(spec: EntitySpec): Record<string, unknown> {
  const searchable = spec.sync!.searchable;
  const typed = spec.sync!.value_types ?? {};
  const names = Object.keys(searchable);
  const text = names.find((name) => searchable[name] === 'string' && !typed[name]) ?? names[0]!;
  const container = names.find((name) => searchable[name] === 'object' || searchable[name] === 'array');
  const nested = container ? [{ eq: { [`${container}.name`]: 'x' } }] : [];
  return {
    and: [
      { eq: { [text]: 'ada' } },
      { not: { neq: { [text]: null } } },
      { or: [{ gt: { [text]: 'a' } }, { gte: { [text]: 'a' } }, { lt: { [text]: 'z' } }, { lte: { [text]: 'z' } }] },
      { in: { [text]: ['ada', 'grace'] } },
      { or: [{ like: { [text]: '%ad%' } }, { fuzzy: { [text]: 'ada' } }, { keyword: { [text]: 'ada grace' } }] },
      ...nested,
    ],
  };
}

function searchSamples(type: string, entity: string, spec: EntitySpec): ExecuteSample[] {
  const searchable = spec.sync!.searchable;
  const scalar = Object.keys(searchable).find((name) => searchable[name] !== 'object' && searchable[name] !== 'array')!;
  const full = { query: { filter: everyOperatorFilter(spec), sort: [{ [scalar]: 'desc' }] }, limit: 10, cursor: null, fields: [scalar] };
  const samples = [{ query: {} }, full];
  for (const params of samples) parseSearchParams(params, searchable, spec.sync!.value_types ?? {});
  return samples.map((params, i) => ({ type, entity, action: 'search', kind: i === 0 ? 'minimal' : 'full', body: { entity, action: 'search', params } }));
}

/** Every shipped type's samples: each declared action, and `search` on each entity with a sync plan. */
export function executeSamples(): ExecuteSample[] {
  return [...shippedManifests().values()].flatMap(({ manifest }) =>
    Object.entries(manifest.entities).flatMap(([entity, spec]) => [
      ...Object.keys(spec.actions).flatMap((action) => actionSamples(manifest.type, entity, action)),
      ...(spec.sync ? searchSamples(manifest.type, entity, spec) : []),
    ]),
  );
}

/**
 * What an execute answers, as JSON Schema, from the manifest of its action: the same shapes
 * runtime/extract.ts builds (`{data, meta}`) and engine/search returns (`{hits, next_cursor,
 * took_ms}`), with the entity's record schema in them, so generated clients read typed records.
 */
import type { ActionSpec, EntitySpec, JsonSchema } from '../manifest/index.js';
import { pagingOf } from '../runtime/index.js';

type Schema = Record<string, unknown>;

const PAGE_TOKEN: Schema = {
  type: ['string', 'integer', 'null'],
  description: "The next page: pass it back, as it is, as the action's paging param (null on the last page).",
};

const HAS_MORE: Schema = { type: 'boolean', description: 'Whether more records may follow.' };

/**
 * The meta of an answer (extract.ts): always has_more; a list also the strategy's own fields and,
 * when it pages, next_cursor; then every field the manifest reads from the answer (null when absent).
 */
function metaSchema(action: ActionSpec): Schema {
  const list = action.response.records !== undefined;
  const paging = pagingOf(action.pagination);
  const properties: Record<string, Schema> = { has_more: HAS_MORE };
  if (list) {
    for (const name of Object.keys(paging.emptyMeta()))
      properties[name] = { type: ['object', 'null'], description: 'The next page as {param: value} (null on the last page).' };
    if (paging.pages) properties.next_cursor = PAGE_TOKEN;
  }
  for (const [name, path] of Object.entries(action.response.meta ?? {})) {
    properties[name] = name === 'next_cursor' ? PAGE_TOKEN : { description: `The upstream answer's ${path || '(body)'} (null when absent).` };
  }
  return { type: 'object', required: Object.keys(properties), properties };
}

/** A list-like or get answer: `data` holds the records (one record for a get) and `meta` the paging fields. */
export function actionResultSchema(action: ActionSpec, recordRef: string): Schema {
  const list = action.response.records !== undefined;
  const data = list ? { type: 'array', items: { $ref: recordRef } } : { $ref: recordRef };
  return { type: 'object', required: ['data', 'meta'], properties: { data, meta: metaSchema(action) } };
}

/** A schema with no `required` anywhere: a hit holds only the paths the request's `fields` kept. */
function optionalEverywhere(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(optionalEverywhere);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required') continue;
    // Under properties the keys are field names (one may be called "required"), each a schema.
    out[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, optionalEverywhere(sub)]))
        : optionalEverywhere(value);
  }
  return out;
}

/**
 * A hit's `data`: the searchable fields, each as the record schema has it (when it has it) or as
 * its searchable type or null (fields the sync plan computes, such as associated ids), none required.
 */
function hitDataSchema(spec: EntitySpec): Schema {
  const record = (spec.record.properties ?? {}) as Record<string, JsonSchema>;
  const properties = Object.fromEntries(
    Object.entries(spec.sync?.searchable ?? {}).map(([name, type]) => [name, record[name] ? optionalEverywhere(record[name]) : { type: [type, 'null'] }]),
  );
  return { type: 'object', description: "The record's searchable fields (or the ones `fields` picked).", properties };
}

/** A `search` answer (SPEC.md Search result). */
export function searchResultSchema(spec: EntitySpec): Schema {
  const hit = {
    type: 'object',
    required: ['id', 'score', 'data'],
    properties: { id: { type: 'string' }, score: { type: 'number', description: 'Text relevance (1 without a text operator).' }, data: hitDataSchema(spec) },
  };
  return {
    type: 'object',
    required: ['hits', 'next_cursor', 'took_ms'],
    properties: {
      hits: { type: 'array', items: hit },
      next_cursor: { type: ['string', 'null'], description: 'Pass it back as `cursor` for the next page (null on the last page).' },
      took_ms: { type: 'number', description: 'Query time in ms.' },
    },
  };
}

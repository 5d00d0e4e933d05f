import type { EntitySpec } from '../manifest/index.js';
import { defaultSortable, FILTER_OPERATORS, SEARCH_LIMITS, searchFilterSchema, searchPathPattern, searchSortKeySchema } from '../search/index.js';

/** What `search` is, for descriptions generated from manifests (connector types, OpenAPI, CLI). */
export const SEARCH_ACTION_DESCRIPTION =
  'Searches the synchronized copy (not the upstream): filter by operator then field, sort, page with cursor, pick fields.';

/** Where the filter grammar sits inside the params schema, so and/or/not can refer back to it. */
const SEARCH_FILTER_DEF = 'Filter';

/**
 * The JSON Schema of an entity's `search` params (SPEC.md "Common search action parameters"),
 * naming its searchable fields, so GET /v1/connector-types and the OpenAPI documents show what
 * `search` accepts: the filter is the recursive grammar in `$defs` (the OpenAPI documents move it
 * to their components). The engine's own check is parseSearchParams, which also bounds the tree.
 * Null stands for "none" where parseSearchParams takes it (filter, sort, cursor, fields).
 */
export function searchParamsSchema(spec: EntitySpec): Record<string, unknown> | undefined {
  const searchable = spec.sync?.searchable;
  if (!searchable) return undefined;
  const fields = Object.keys(searchable);
  const sortable = spec.sync?.sortable ?? defaultSortable(searchable, spec.sync?.value_types);
  const typed = Object.entries(spec.sync?.value_types ?? {}).map(([path, type]) => `${path} (${type})`);
  // The typed paths are named here so connector types, the OpenAPI document and `entities` all show them.
  const discover = spec.sync?.discover_fields;
  const discoveredNote = discover
    ? ` The types of fields under ${discover.under} are also read from the upstream at every sync pass (the entity's sync state shows them).`
    : '';
  const typedNote =
    (typed.length > 0
      ? ` Value types: ${typed.join(', ')}: compared and sorted by value; a number path takes a number or a decimal string, a date-time path an ISO 8601 date or date-time (no offset: UTC) or epoch milliseconds.`
      : '') + discoveredNote;
  const self = `#/$defs/${SEARCH_FILTER_DEF}`;
  return {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    $defs: { [SEARCH_FILTER_DEF]: searchFilterSchema(searchable, self) },
    properties: {
      query: {
        type: 'object',
        additionalProperties: false,
        description: 'Filter and sort conditions.',
        properties: {
          filter: {
            anyOf: [{ $ref: self }, { type: 'null' }],
            description: `One operator (${FILTER_OPERATORS.join(', ')}) mapping to {field: value}, or and/or to a list of filters, or not to a filter. Fields: ${fields.join(', ')} (dot paths reach inside objects and array elements).${typedNote}`,
          },
          sort: {
            type: ['array', 'null'],
            maxItems: SEARCH_LIMITS.maxSortKeys,
            description: `Sort keys in order, each {"<field>": "asc" | "desc"}; default: score, then id. Ties go by id; other value types and missing values come last. Indexed when the first key is sortable (${sortable.join(', ')}); any other path of one value sorts the same, unindexed (slower on a large copy).`,
            items: searchSortKeySchema(searchable),
          },
        },
      },
      limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMITS.maxLimit, default: SEARCH_LIMITS.defaultLimit, description: 'Maximum results.' },
      cursor: { type: ['string', 'null'], maxLength: SEARCH_LIMITS.maxCursorLength, description: "Cursor from the previous response's next_cursor." },
      fields: {
        type: ['array', 'null'],
        minItems: 1,
        maxItems: SEARCH_LIMITS.maxFields,
        items: { type: 'string', pattern: searchPathPattern(searchable) },
        description: `Field paths to include in results (default: every searchable field: ${fields.join(', ')}).`,
      },
    },
  };
}

import type { SqlParams } from './sql-params.js';
import type { FieldRef } from './types.js';

/** A JSON value in SQLite: its json_type() name and its SQL value. */
export interface SqliteValue {
  type: string;
  value: string;
}

/** `$."a"."b"`: segments are validated to a safe alphabet, and the path itself is bound. */
function jsonPath(segments: readonly string[]): string {
  return `$${segments.map((segment) => `."${segment}"`).join('')}`;
}

/** `FROM json_each(...) AS eN WHERE <it is an array>` over an array field, and the element (or its sub-path) as a value. */
export function sqliteElements(field: FieldRef, params: SqlParams): { from: string; value: SqliteValue } {
  const alias = params.alias('e');
  const path = params.add(jsonPath([field.top]));
  const from = `FROM json_each(r.data, ${path}) AS ${alias} WHERE json_type(r.data, ${path}) = 'array'`;
  if (field.sub.length === 0) return { from, value: { type: `${alias}.type`, value: `${alias}.atom` } };
  const sub = params.add(jsonPath(field.sub));
  const ifObject = (expression: string) => `CASE WHEN ${alias}.type = 'object' THEN ${expression} END`;
  return { from, value: { type: ifObject(`json_type(${alias}.value, ${sub})`), value: ifObject(`json_extract(${alias}.value, ${sub})`) } };
}

/** The one value at a non-array field's path. */
export function sqliteSingle(field: FieldRef, params: SqlParams): SqliteValue {
  const path = params.add(jsonPath([field.top, ...field.sub]));
  return { type: `json_type(r.data, ${path})`, value: `json_extract(r.data, ${path})` };
}

/** Applies a value test to the field: directly, or as "any element" for array fields. */
export function sqliteTest(field: FieldRef, params: SqlParams, predicate: (value: SqliteValue) => string): string {
  if (!field.elements) return `coalesce(${predicate(sqliteSingle(field, params))}, 0)`;
  const { from, value } = sqliteElements(field, params);
  return `EXISTS (SELECT 1 ${from} AND coalesce(${predicate(value)}, 0))`;
}

/** Applies a per-value integer to the field: the value's, or the best element's; 0 when there is none. */
export function sqliteBest(field: FieldRef, params: SqlParams, count: (value: SqliteValue) => string): string {
  if (!field.elements) return `coalesce(${count(sqliteSingle(field, params))}, 0)`;
  const { from, value } = sqliteElements(field, params);
  return `coalesce((SELECT max(${count(value)}) ${from}), 0)`;
}

/**
 * The folded string(s) at the field, padded with a space each side: the value, or every string
 * element joined by spaces (so each word keeps its own edges). NULL when there is no string.
 */
export function sqliteFoldedText(field: FieldRef, params: SqlParams): string {
  if (!field.elements) {
    const v = sqliteSingle(field, params);
    return `CASE WHEN ${v.type} = 'text' THEN ' ' || lower(${v.value}) || ' ' END`;
  }
  const { from, value } = sqliteElements(field, params);
  return `(SELECT ' ' || group_concat(lower(${value.value}), ' ') || ' ' ${from} AND ${value.type} = 'text')`;
}

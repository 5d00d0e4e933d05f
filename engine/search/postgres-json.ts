import type { SqlParams } from './sql-params.js';
import type { FieldRef } from './types.js';

/** `r.data -> $1 -> $2`: every segment bound as text (`->` with text never indexes into arrays). */
export function pgAccess(root: string, segments: readonly string[], params: SqlParams): string {
  return segments.reduce((expression, segment) => `(${expression} -> ${params.add(segment)}::text)`, root);
}

/**
 * The value at `segments` below `root` as text, reached with `->>` on its parent: a string's own
 * text, any other JSON value as written, NULL when missing. Why: `->` copies the value into a jsonb
 * of its own first (a like test on a 5,000-row window spent a third of its time on that); callers
 * that need a string test the type too.
 */
function pgRawText(root: string, segments: readonly string[], params: SqlParams): string {
  if (segments.length === 0) return `(${root} #>> '{}')`;
  return `(${pgAccess(root, segments.slice(0, -1), params)} ->> ${params.add(segments[segments.length - 1])}::text)`;
}

/** `FROM jsonb_array_elements(...) AS eN(v)` over an array field (no rows when it is not an array), the element value, and its raw text (pgRawText, written when asked). */
export function pgElements(field: FieldRef, params: SqlParams): { from: string; value: string; text: () => string } {
  const alias = params.alias('e');
  const array = pgAccess('r.data', [field.top], params);
  const from = `FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${array}) = 'array' THEN ${array} ELSE '[]'::jsonb END) AS ${alias}(v)`;
  return { from, value: pgAccess(`${alias}.v`, field.sub, params), text: () => pgRawText(`${alias}.v`, field.sub, params) };
}

/** The one value at a non-array field's path. */
export function pgSingle(field: FieldRef, params: SqlParams): string {
  return pgAccess('r.data', [field.top, ...field.sub], params);
}

/** Applies a jsonb value test to the field: directly, or as "any element" for array fields. */
export function pgTest(field: FieldRef, params: SqlParams, predicate: (value: string) => string): string {
  if (!field.elements) return `coalesce(${predicate(pgSingle(field, params))}, false)`;
  const { from, value } = pgElements(field, params);
  return `EXISTS (SELECT 1 ${from} WHERE coalesce(${predicate(value)}, false))`;
}

/**
 * Applies a per-value integer to the field: the value's, or the best element's; 0 when there is
 * none. `count` gets the value (jsonb) and its raw text (pgRawText; written only when asked, as
 * each segment is a bound parameter).
 */
export function pgBest(field: FieldRef, params: SqlParams, count: (value: string, text: () => string) => string): string {
  if (!field.elements) return `coalesce(${count(pgSingle(field, params), () => pgRawText('r.data', [field.top, ...field.sub], params))}, 0)`;
  const { from, value, text } = pgElements(field, params);
  return `coalesce((SELECT max(${count(value, text)}) ${from}), 0)`;
}

/** A jsonb string as text in the "C" collation (NULL for anything else), so lower() folds ASCII only. */
export const pgText = (value: string) => `(CASE WHEN jsonb_typeof(${value}) = 'string' THEN (${value} #>> '{}') END) COLLATE "C"`;

/** The folded string(s) at the field: the value, or every string element joined by spaces. NULL when there is no string. */
export function pgFoldedText(field: FieldRef, params: SqlParams): string {
  if (!field.elements) return `lower(${pgText(pgSingle(field, params))})`;
  const { from, value } = pgElements(field, params);
  return `(SELECT lower(string_agg(${pgText(value)}, ' ')) ${from})`;
}

/**
 * The text of a jsonb value at `segments` under `root` (`->` for every segment but the last, then
 * `->>`; `#>> '{}'` for the root itself): the string's text when it is one, else the JSON text of
 * what is there or NULL. One operator call less than pgText's, and no type test; callers that
 * need a string test its type as well.
 */
export function pgAccessText(root: string, segments: readonly string[], params: SqlParams): string {
  if (segments.length === 0) return `(${root} #>> '{}')`;
  return `(${pgAccess(root, segments.slice(0, -1), params)} ->> ${params.add(segments[segments.length - 1])}::text)`;
}

/**
 * The `fields` parameter: trims records to the named top-level fields (API-NOTES B.6).
 */
import { listParam, type ParamMap } from '../param-map.js';

/**
 * The requested field names, or undefined when `fields` is absent or blank.
 * Why: `fields=id,name` (comma list; repeated parameters are accepted too).
 */
export function requestedFields(query: ParamMap): string[] | undefined {
  const fields = listParam(query, 'fields');
  return fields && fields.length > 0 ? fields : undefined;
}

/**
 * A copy of `record` with only `fields`, in the record's own order; unknown names are ignored.
 * Without fields, the record itself.
 * Why: B.6: "`fields` (comma list) trims records to those fields", on lists and gets alike.
 */
export function selectFields(record: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (!fields) return record;
  const wanted = new Set(fields);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) if (wanted.has(name)) out[name] = value;
  return out;
}

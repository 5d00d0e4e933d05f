import { fieldKind, resolveFieldPath } from './field-path.js';
import { SEARCH_LIMITS } from './limits.js';
import { describeValue, isPlainObject, pointerSegment, type Problems } from './problems.js';
import type { SearchableFields, SortKey, ValueTypes } from './types.js';

/**
 * Validates `query.sort` (`[{"<field>": "asc"|"desc"}]`). Sorting needs one value per record, so
 * array fields and whole objects are refused; a path inside an object is fine. A path in
 * `sortable` is marked so: its kept keys serve the order; any other sorts the same, unindexed.
 */
export function parseSort(
  raw: unknown,
  path: string,
  searchable: SearchableFields,
  problems: Problems,
  valueTypes: ValueTypes = {},
  sortable: ReadonlySet<string> = new Set(),
): SortKey[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > SEARCH_LIMITS.maxSortKeys) {
    problems.add(path, `must be an array of at most ${SEARCH_LIMITS.maxSortKeys} {"<field>": "asc"|"desc"} objects, got ${describeValue(raw)}`);
    return [];
  }
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const at = `${path}/${i}`;
    const names = isPlainObject(item) ? Object.keys(item) : [];
    if (!isPlainObject(item) || names.length !== 1) {
      problems.add(at, `must be an object with exactly one field, e.g. {"created_at": "desc"}, got ${describeValue(item)}`);
      return;
    }
    const name = names[0] as string;
    const here = `${at}/${pointerSegment(name)}`;
    const direction = item[name];
    const field = resolveFieldPath(name, searchable, valueTypes);
    if (typeof field === 'string') return problems.add(here, field);
    const kind = fieldKind(field);
    if (kind === 'element' || kind === 'object') {
      return problems.add(
        here,
        `cannot sort by the ${field.type} field "${field.path}"${kind === 'object' ? '; sort by a sub-field such as "' + field.path + '.<name>"' : ''}`,
      );
    }
    if (direction !== 'asc' && direction !== 'desc') return problems.add(here, `must be "asc" or "desc", got ${describeValue(direction)}`);
    if (seen.has(field.path)) return problems.add(here, 'is already a sort key');
    seen.add(field.path);
    keys.push({ field: sortable.has(field.path) ? { ...field, sortable: true } : field, direction });
  });
  return keys;
}

import { SEARCH_LIMITS } from './limits.js';
import type { FieldRef, SearchableFields, ValueTypes } from './types.js';

/** Characters a path segment may hold: enough for every manifest's field and property names, and always safe inside a quoted JSON path. */
export const SEGMENT_CHARACTERS = 'A-Za-z0-9_$@:-';
const SEGMENT = new RegExp(`^[${SEGMENT_CHARACTERS}]+$`);

/**
 * Resolves a dot path (`name`, `properties.email`, `followers.gid`) against the entity's searchable
 * fields. Returns the reference, or the message explaining what is wrong with it; the top-level
 * name must be searchable, and only object and array fields have sub-fields. A path the manifest
 * types (`value_types`) carries its value type.
 */
export function resolveFieldPath(path: string, searchable: SearchableFields, valueTypes: ValueTypes = {}): FieldRef | string {
  const segments = path.split('.');
  const [top, ...sub] = segments;
  if (top === undefined || !Object.hasOwn(searchable, top)) {
    return `unknown field "${path.length > 80 ? `${path.slice(0, 77)}...` : path}"; searchable fields are: ${Object.keys(searchable).sort().join(', ')}`;
  }
  if (segments.length > SEARCH_LIMITS.maxPathSegments) return `has more than ${SEARCH_LIMITS.maxPathSegments} segments`;
  for (const segment of segments) {
    if (segment.length === 0) return 'has an empty segment (paths are names joined by single dots)';
    if (segment.length > SEARCH_LIMITS.maxSegmentLength || !SEGMENT.test(segment)) {
      return `segment "${segment.slice(0, 40)}" may only hold letters, digits and _ $ @ : - (at most ${SEARCH_LIMITS.maxSegmentLength})`;
    }
  }
  const type = searchable[top] as FieldRef['type'];
  if (sub.length > 0 && type !== 'object' && type !== 'array') {
    return `"${top}" is a ${type} field and has no sub-fields`;
  }
  const valueType = Object.hasOwn(valueTypes, path) ? valueTypes[path] : undefined;
  return { path, top, sub, type, elements: type === 'array', ...(valueType ? { valueType } : {}) };
}

/** How a reference may be compared: a declared scalar, a whole object, an unknown value inside an object, or array elements. */
export type FieldKind = 'typed' | 'object' | 'nested' | 'element';

/** The comparison kind of a reference (see FieldKind). */
export function fieldKind(field: FieldRef): FieldKind {
  if (field.elements) return 'element';
  if (field.sub.length > 0) return 'nested';
  return field.type === 'object' ? 'object' : 'typed';
}

/**
 * The field's name in the text indexes: the dot path, with `[]` after an array field's name
 * (`name`, `assignee.name`, `tags[]`, `followers[].name`). The indexes write every string of a
 * record under the same spelling (engine/store/record-table.ts), keys with `.` or `[` left out, so
 * one spelling never stands for two places in a record.
 */
export function indexPath(field: FieldRef): string {
  return `${field.top}${field.elements ? '[]' : ''}${field.sub.map((segment) => `.${segment}`).join('')}`;
}

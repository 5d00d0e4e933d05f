/**
 * Spells out "any JSON object" in a generated OpenAPI document. An object schema that names no
 * properties means any object, but openapi-typescript reads it as `Record<string, never>`, so a
 * generated client could read nothing from it (a record's `associations`, the sync state).
 */

const COMPOSED = ['properties', 'additionalProperties', 'patternProperties', '$ref', 'oneOf', 'anyOf', 'allOf'];

function isBareObject(node: Record<string, unknown>): boolean {
  const { type } = node;
  const object = type === 'object' || (Array.isArray(type) && type.includes('object'));
  return object && !COMPOSED.some((key) => key in node);
}

/** A copy in which every bare object schema says `additionalProperties: {}` (the same meaning, written out). */
export function openObjects<T>(value: T): T {
  if (Array.isArray(value)) return value.map(openObjects) as T;
  if (!value || typeof value !== 'object') return value;
  const node = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, openObjects(item)]));
  return (isBareObject(node) ? { ...node, additionalProperties: {} } : node) as T;
}

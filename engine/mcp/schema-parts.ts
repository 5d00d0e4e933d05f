/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The `properties` of a JSON Schema that are schemas themselves (anything else is left out). */
export function schemaProperties(schema: unknown): Record<string, Record<string, unknown>> {
  const properties = isObject(schema) ? schema.properties : undefined;
  if (!isObject(properties)) return {};
  return Object.fromEntries(Object.entries(properties).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1])));
}

/** The `required` names of a JSON Schema. */
export function schemaRequired(schema: unknown): string[] {
  const required = isObject(schema) ? schema.required : undefined;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

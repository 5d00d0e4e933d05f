/**
 * The fields of an object schema as rows, nested ones included: `filterGroups[].filters[].operator`
 * is a field of each filter of each group. Why: params and records nest, and a reader needs every
 * name that can be sent or read, not only the top level.
 */
import type { JsonSchema } from '../../engine/manifest/index.js';
import { isSchema } from './schema-words.js';

/** One field of an object schema. */
export interface SchemaRow {
  /** Dot path from the top; `[]` marks each element of an array. */
  path: string;
  schema: JsonSchema;
  /** Required in the object that holds it. */
  required: boolean;
}

/** The object schema whose properties a value's fields are: itself, or its array's items. */
function fieldsOf(schema: JsonSchema): { prefix: string; object: JsonSchema } | undefined {
  if (isSchema(schema.properties)) return { prefix: '', object: schema };
  if (isSchema(schema.items) && isSchema(schema.items.properties)) return { prefix: '[]', object: schema.items };
  return undefined;
}

/** Every field of an object schema, depth first, in the order the schema names them. */
export function schemaRows(schema: JsonSchema | undefined, path = ''): SchemaRow[] {
  if (!schema || !isSchema(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).flatMap(([name, field]) => {
    if (!isSchema(field)) return [];
    const row: SchemaRow = { path: `${path}${name}`, schema: field, required: required.has(name) };
    const nested = fieldsOf(field);
    return nested ? [row, ...schemaRows(nested.object, `${row.path}${nested.prefix}.`)] : [row];
  });
}

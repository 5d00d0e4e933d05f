/**
 * JSON Schema in words, for the reference pages: a type ("string or null", "array of object")
 * and its constraints ("1 to 100", "one of: a, b"), read from the manifests' params, records,
 * credentials and config schemas.
 */
import type { JsonSchema } from '../../engine/manifest/index.js';
import { code } from './markdown.js';

/** Whether a value is a (sub)schema object, so nested keywords can be read safely. */
export function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function literal(value: unknown): string {
  return code(typeof value === 'string' ? value : JSON.stringify(value));
}

function typeNames(schema: JsonSchema): string[] {
  // A reference names its definition ("#/$defs/Filter" reads "filter"); the row's description explains it.
  if (typeof schema.$ref === 'string') return [(schema.$ref.split('/').pop() ?? 'any').toLowerCase()];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))];
  if ('const' in schema) return [schema.const === null ? 'null' : typeof schema.const];
  return [];
}

/** The type of a schema in words: alternatives joined with "or", arrays with their item type. */
export function typeText(schema: JsonSchema): string {
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(alternatives)) return [...new Set(alternatives.filter(isSchema).map(typeText))].join(' or ');
  const names = typeNames(schema).map((name) => {
    if (name === 'array' && isSchema(schema.items)) return `array of ${typeText(schema.items)}`;
    if (name === 'object' && isSchema(schema.additionalProperties) && !isSchema(schema.properties)) return `object of ${typeText(schema.additionalProperties)}`;
    return name;
  });
  return names.length > 0 ? names.join(' or ') : 'any';
}

/** The unit after a bound: "1 character", "100 characters". */
function unitAfter(count: number, unit: string): string {
  if (!unit) return '';
  return count === 1 ? ` ${unit}` : ` ${unit}s`;
}

/** A lower and upper bound in words ("1 to 100", "at least 1 character", "at most 50 items"), or nothing. */
function bounds(low: unknown, high: unknown, unit = ''): string[] {
  if (typeof low === 'number' && typeof high === 'number') return [`${low} to ${high}${unitAfter(high, unit)}`];
  if (typeof low === 'number') return [`at least ${low}${unitAfter(low, unit)}`];
  if (typeof high === 'number') return [`at most ${high}${unitAfter(high, unit)}`];
  return [];
}

/**
 * Keywords shown elsewhere on a page (type, nesting, required, default, description) or in words
 * below; any other keyword a manifest uses is shown as written, so a page never leaves one out.
 */
const SHOWN = new Set([
  '$ref',
  '$defs',
  'type',
  'description',
  'properties',
  'items',
  'required',
  'additionalProperties',
  'default',
  'writeOnly',
  'anyOf',
  'oneOf',
  'title',
]);
const IN_WORDS = [
  'enum',
  'const',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
];

function otherKeywords(schema: JsonSchema): string[] {
  return Object.entries(schema)
    .filter(([keyword]) => !SHOWN.has(keyword) && !IN_WORDS.includes(keyword))
    .map(([keyword, value]) => `${keyword} ${code(JSON.stringify(value))}`);
}

/** The constraints of a schema in words, each one short, in a fixed order. */
export function constraintText(schema: JsonSchema): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of: ${schema.enum.map(literal).join(', ')}`);
  if ('const' in schema) parts.push(`exactly ${literal(schema.const)}`);
  if (typeof schema.format === 'string') parts.push(`format ${schema.format}`);
  if (typeof schema.pattern === 'string') parts.push(`pattern ${code(schema.pattern)}`);
  parts.push(...bounds(schema.minimum, schema.maximum));
  parts.push(...bounds(schema.exclusiveMinimum, schema.exclusiveMaximum).map((text) => `${text} (exclusive)`));
  parts.push(...bounds(schema.minLength, schema.maxLength, 'character'));
  parts.push(...bounds(schema.minItems, schema.maxItems, 'item'));
  parts.push(...otherKeywords(schema));
  return parts.join('; ');
}

/** A schema's default as the pages show it (JSON), or nothing when it has none. */
export function defaultText(schema: JsonSchema): string {
  return 'default' in schema ? code(JSON.stringify(schema.default)) : '';
}

/** The schema's own description, or nothing. */
export function descriptionText(schema: JsonSchema): string {
  return typeof schema.description === 'string' ? schema.description : '';
}

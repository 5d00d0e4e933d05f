/**
 * The record fields of an entity: every field of its record schema with its type, and notes from
 * the manifest (required, the schema's description, and the actions' field mappings).
 */
import type { EntitySpec, FieldMapping } from '../../engine/manifest/index.js';
import { code, table } from './markdown.js';
import { schemaRows } from './schema-rows.js';
import { descriptionText, typeText } from './schema-words.js';

function mappingText(mapping: FieldMapping): string {
  const parts: string[] = [];
  if (mapping.from !== undefined) parts.push(`Read from ${code(mapping.from || '(record)')}.`);
  if (mapping.transform) parts.push(`Converted: ${mapping.transform}.`);
  if ('default' in mapping) parts.push(`${code(JSON.stringify(mapping.default))} when the upstream leaves it out.`);
  return parts.join(' ');
}

/** Field -> what the actions' mappings do to it, naming the actions when they differ. */
function mappingNotes(spec: EntitySpec): Map<string, string> {
  const byField = new Map<string, Map<string, string[]>>();
  for (const [action, actionSpec] of Object.entries(spec.actions)) {
    for (const [field, mapping] of Object.entries(actionSpec.fields ?? {})) {
      const texts = byField.get(field) ?? new Map<string, string[]>();
      const text = mappingText(mapping);
      texts.set(text, [...(texts.get(text) ?? []), action]);
      byField.set(field, texts);
    }
  }
  const all = Object.keys(spec.actions).length;
  return new Map(
    [...byField].map(([field, texts]) => [
      field,
      [...texts].map(([text, actions]) => (actions.length === all ? text : `${text.replace(/\.$/, '')} (${actions.join(', ')}).`)).join('; '),
    ]),
  );
}

/** The record part of an entity: a table of its fields. */
export function recordSection(spec: EntitySpec): string {
  const notes = mappingNotes(spec);
  const rows = schemaRows(spec.record).map((row) => {
    const text = [descriptionText(row.schema), row.required ? 'Always present.' : '', notes.get(row.path) ?? ''].filter((part) => part !== '');
    return [code(row.path), typeText(row.schema), text.join(' ')];
  });
  const intro = "Fields of a record as the engine returns it, from the manifest's record schema.";
  return rows.length > 0
    ? [intro, '', table(['Field', 'Type', 'Notes'], rows)].join('\n')
    : 'The manifest names no record fields: records pass through as the upstream sends them.';
}

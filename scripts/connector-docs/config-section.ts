/**
 * The "Config" part of a reference page: each setting with its type, default and constraints, and
 * which actions need a setting (their `required_config`) and where to find its value.
 */
import { configNeeds, type Manifest } from '../../engine/manifest/index.js';
import { code, table } from './markdown.js';
import { schemaRows } from './schema-rows.js';
import { constraintText, defaultText, descriptionText, typeText } from './schema-words.js';

function needsText(manifest: Manifest): string[] {
  return configNeeds(manifest).map((need) => {
    const users = Object.entries(need.needed_by).map(([entity, actions]) => `${code(entity)} (${actions.join(', ')})`);
    const lookup = need.find_with
      ? ` Find a value with ${code(`${need.find_with.entity} ${need.find_with.action}`)} (field ${code(need.find_with.field)}).`
      : '';
    return `- ${code(need.setting)} is needed by ${users.join(', ')}: without it those actions fail with ${code('INVALID_CONFIG')} before any request.${lookup}`;
  });
}

/** The config part, or a sentence saying the connector takes no settings. */
export function configSection(manifest: Manifest): string {
  const rows = schemaRows(manifest.config).map((row) => [
    code(row.path),
    typeText(row.schema),
    row.required ? 'yes' : 'no',
    defaultText(row.schema),
    constraintText(row.schema),
    descriptionText(row.schema),
  ]);
  if (rows.length === 0) return `## Config\n\nNo settings: pass no ${code('config')}.`;
  const needs = needsText(manifest);
  const intro = `Settings passed as ${code('config')}; a setting left out takes its default.`;
  return [
    '## Config',
    '',
    intro,
    '',
    table(['Setting', 'Type', 'Required', 'Default', 'Constraints', 'Description'], rows),
    ...(needs.length > 0 ? ['', ...needs] : []),
  ].join('\n');
}

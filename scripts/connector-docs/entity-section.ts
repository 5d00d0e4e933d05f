/**
 * One entity of a reference page: its description, its actions (declared ones, then `search`
 * over the synchronized copy), its record fields, and its example call with the sandbox's answer.
 */
import type { EntitySpec } from '../../engine/manifest/index.js';
import { actionSection } from './action-section.js';
import { exampleSection } from './example-section.js';
import { code } from './markdown.js';
import { recordSection } from './record-section.js';
import type { ExampleRun } from './run-examples.js';
import { searchSection } from './search-section.js';

/** What an entity section needs besides the manifest. */
export interface EntityInput {
  type: string;
  entity: string;
  spec: EntitySpec;
  example: ExampleRun;
  origins: string[];
}

/** The action names of an entity, `search` last when it has a sync plan. */
export function actionNames(spec: EntitySpec): string[] {
  return [...Object.keys(spec.actions), ...(spec.sync ? ['search'] : [])];
}

/** The section of one entity. */
export function entitySection(input: EntityInput): string {
  const { type, entity, spec } = input;
  const search = searchSection(entity, spec);
  return [
    `### ${entity}`,
    '',
    spec.description ?? 'The manifest does not describe this entity.',
    '',
    `Actions: ${actionNames(spec).map(code).join(', ')}.`,
    '',
    '**Record fields.** ' + recordSection(spec),
    ...Object.entries(spec.actions).flatMap(([name, action]) => ['', actionSection(entity, name, action)]),
    ...(search ? ['', search] : []),
    '',
    exampleSection(type, input.example, input.origins),
  ].join('\n');
}

/**
 * The `search` action of an entity with a sync plan: its params, its answer, and the searchable
 * fields with the types search compares them by. It reads the synchronized copy, not the upstream.
 */
import type { EntitySpec, SyncPlan } from '../../engine/manifest/index.js';
import { SEARCH_ACTION_DESCRIPTION, searchParamsSchema } from '../../engine/sync/index.js';
import { paramTable, metaList } from './action-section.js';
import { code, table } from './markdown.js';

const SEARCH_META = [
  { name: 'hits', text: 'The matching records, each `{ id, score, data }`: `data` holds the searchable fields (or those `fields` names).' },
  { name: 'next_cursor', text: 'Pass it back as `cursor` for the next page; null on the last page.' },
  { name: 'took_ms', text: 'How long the query took, in milliseconds.' },
];

function computedText(plan: SyncPlan, field: string): string {
  const mapping = plan.fields?.[field];
  if (!mapping) return '';
  const pluck = mapping.pluck ? `, the ${code(mapping.pluck)} of each` : '';
  const fallback = 'default' in mapping ? `; ${code(JSON.stringify(mapping.default))} when absent` : '';
  return `Computed: read from ${code(mapping.from)}${pluck}${fallback}.`;
}

/** The searchable fields, then the typed paths under them. */
function searchableTable(plan: SyncPlan): string {
  const typed = plan.value_types ?? {};
  const rows = Object.entries(plan.searchable).map(([field, type]) => [code(field), type, typed[field] ?? '', computedText(plan, field)]);
  const nested = Object.entries(typed).filter(([path]) => !(path in plan.searchable));
  for (const [path, type] of nested) rows.push([code(path), `(in ${code(path.split('.')[0] ?? path)})`, type, '']);
  const note =
    'A value type makes search compare and sort the path by value: `number` (a number or a decimal string), `date-time` (an instant, from an ISO 8601 date or date-time or epoch milliseconds).';
  return [table(['Field', 'Type', 'Value type', 'Notes'], rows), ...(Object.keys(typed).length > 0 ? ['', note] : [])].join('\n');
}

function discoveredText(plan: SyncPlan): string[] {
  const discover = plan.discover_fields;
  if (!discover) return [];
  const types = Object.entries(discover.types).map(([upstream, type]) => `${code(upstream)} as ${type}`);
  return [
    '',
    `Every sync pass also reads the account's own field definitions: the fields under ${code(discover.under)} get their value types from them (${types.join(', ')}); the entity's sync state shows them, and the types above win.`,
  ];
}

/** The search part of an entity, or nothing when the entity has no sync plan. */
export function searchSection(entity: string, spec: EntitySpec): string | undefined {
  const params = searchParamsSchema(spec);
  if (!spec.sync || !params) return undefined;
  return [
    `#### ${code(`${entity} search`)}`,
    '',
    `${SEARCH_ACTION_DESCRIPTION} Needs a store: ${code('connect(type, { ..., store })')} and ${code('sync()')} in the library, or a hosted connector.`,
    '',
    paramTable(params),
    '',
    `Answers ${code('{ hits, next_cursor, took_ms }')}:`,
    '',
    metaList(SEARCH_META),
    '',
    'Searchable fields:',
    '',
    searchableTable(spec.sync),
    ...discoveredText(spec.sync),
  ].join('\n');
}

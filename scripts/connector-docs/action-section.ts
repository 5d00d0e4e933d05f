/**
 * One action of an entity on a reference page: what it does, how it pages, its params (every
 * nested field, with type, required, constraints and default), the manifest's rules between
 * params, and the meta fields of its answer.
 */
import type { ActionSpec, JsonSchema, ParamRule } from '../../engine/manifest/index.js';
import { pagingOf } from '../../engine/runtime/index.js';
import { code, table } from './markdown.js';
import { metaFields, type MetaField } from './meta-fields.js';
import { schemaRows } from './schema-rows.js';
import { constraintText, defaultText, descriptionText, typeText } from './schema-words.js';

/** The params of an action as a table, or a sentence when it takes none. */
export function paramTable(params: JsonSchema | undefined): string {
  const rows = schemaRows(params).map((row) => [
    code(row.path),
    typeText(row.schema),
    row.required ? 'yes' : 'no',
    constraintText(row.schema),
    defaultText(row.schema),
    descriptionText(row.schema),
  ]);
  return rows.length > 0 ? table(['Param', 'Type', 'Required', 'Constraints', 'Default', 'Description'], rows) : 'No params.';
}

function ruleText(rule: ParamRule): string {
  const on = rule.field ? ` (on ${code(rule.field)})` : '';
  const count = 'count' in rule ? ` At most ${rule.count.max} values match ${code(rule.count.path)}.` : '';
  return `- ${code(rule.name)}${on}: ${rule.message}.${count}`;
}

/** The meta fields as a list. */
export function metaList(fields: MetaField[]): string {
  return fields.map((field) => `- ${code(field.name)}: ${field.text}`).join('\n');
}

function pagingText(action: ActionSpec): string {
  const paging = pagingOf(action.pagination);
  if (!paging.pages) return action.response.records !== undefined ? 'One answer holds every record (no paging).' : '';
  const { pagination_param: param, pagination_keep_params: keep, paged_order: order } = paging.describe();
  const kept = keep && keep.length > 0 ? ` Next pages send only ${[param ?? '', ...keep].map(code).join(', ')}.` : '';
  const ordered = order
    ? ` ${code('records()')} pages it only in ${code(order.field)} order${order.order ? ` (${code(`${order.order.param}: ${order.order.value}`)} or left out)` : ''}.`
    : '';
  return `Paged: pass ${code('meta.next_cursor')} back as ${code(param ?? '')}, or let ${code('records()')} follow the pages.${kept}${ordered}`;
}

function answerText(action: ActionSpec): string[] {
  if (action.file) {
    return [
      `Answers a ${code('DownloadStream')}: the file's bytes as an async iterable of chunks, never buffered, with ${code('status')}, ${code('contentType')}, ${code('contentLength')}, ${code('contentRange')} and the ${code('record')} it was read from.`,
    ];
  }
  return [
    `Answers ${code('{ data, meta }')}: ${action.response.records !== undefined ? 'an array of records' : 'one record'} in ${code('data')}, and in ${code('meta')}:`,
    '',
    metaList(metaFields(action)),
  ];
}

/** The section of one declared action. */
export function actionSection(entity: string, name: string, action: ActionSpec): string {
  const parts = [`#### ${code(`${entity} ${name}`)}`, ''];
  if (action.description) parts.push(action.description, '');
  const config = action.request.required_config ?? [];
  if (config.length > 0) parts.push(`Needs config ${config.map(code).join(', ')}.`, '');
  const how = action.file ? '' : pagingText(action);
  parts.push(...(how ? [how, ''] : []), paramTable(action.params));
  const rules = action.rules ?? [];
  if (rules.length > 0) parts.push('', 'Rules between params (checked before any request):', '', ...rules.map(ruleText));
  parts.push('', ...answerText(action));
  return parts.join('\n');
}

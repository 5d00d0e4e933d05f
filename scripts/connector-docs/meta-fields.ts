/**
 * The meta fields of an action's answer, named the way the runtime builds them (engine/runtime
 * extract.ts): `has_more` first, then fields the pagination strategy adds, then the manifest's
 * `response.meta`, then `next_cursor` for paged lists.
 */
import type { ActionSpec } from '../../engine/manifest/index.js';
import { pagingOf } from '../../engine/runtime/index.js';
import { code } from './markdown.js';

/** One meta field and what it holds, in words. */
export interface MetaField {
  name: string;
  text: string;
}

function passBack(action: ActionSpec): string {
  const param = pagingOf(action.pagination).describe().pagination_param;
  return param ? `; pass it back, unchanged, as ${code(param)}` : '';
}

function listMeta(action: ActionSpec): MetaField[] {
  const paging = pagingOf(action.pagination);
  const fields: MetaField[] = [{ name: 'has_more', text: 'Whether more records may follow (always present).' }];
  for (const name of Object.keys(paging.emptyMeta())) {
    fields.push({ name, text: `The next page's cursor as ${code(`{${paging.describe().pagination_param ?? ''}: cursor}`)}, null on the last page.` });
  }
  for (const [name, path] of Object.entries(action.response.meta ?? {})) {
    const hint = name === 'next_cursor' ? passBack(action) : '';
    fields.push({ name, text: `From the answer's ${code(path || '(body)')}, null when absent${hint}.` });
  }
  if (paging.pages && !fields.some((field) => field.name === 'next_cursor')) {
    fields.push({ name: 'next_cursor', text: `The next page's cursor, null on the last page${passBack(action)}.` });
  }
  return fields;
}

/** The meta fields of an action's `{ data, meta }` answer. */
export function metaFields(action: ActionSpec): MetaField[] {
  if (action.response.records !== undefined) return listMeta(action);
  const fields: MetaField[] = [{ name: 'has_more', text: 'Always false: the answer is one record.' }];
  for (const [name, path] of Object.entries(action.response.meta ?? {}))
    fields.push({ name, text: `From the answer's ${code(path || '(body)')}, null when absent.` });
  return fields;
}

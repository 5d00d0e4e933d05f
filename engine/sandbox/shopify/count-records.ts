/**
 * The generic `…/count.json` handler (API-NOTES B.6: count responses return `{"count": N}`).
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { invalidParam } from './errors.js';
import { buildSelection, filterValues } from './list-query.js';
import { applySelection } from './list-records.js';
import type { ShopifyRecord } from './model.js';
import type { ResourceDef } from './resources.js';

/**
 * Counts the records the same filters (and defaults: orders count `status=open`) would list;
 * `limit`, `page_info` and `fields` are ignored.
 * Why: clients size syncs and check completeness with counts.
 */
export function countRecords<R extends ShopifyRecord>(def: ResourceDef<R>, records: readonly R[], req: FakeRequest): FakeResponse {
  const selection = buildSelection(def, filterValues(def, req.query));
  if (!selection.ok) return invalidParam(selection.param, selection.message);
  return jsonResponse(200, { count: applySelection(records, selection.value).length });
}

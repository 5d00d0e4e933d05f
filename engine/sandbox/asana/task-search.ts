/**
 * `GET /workspaces/{workspace_gid}/tasks/search` (API-NOTES B4): premium only, no `next_page`,
 * at most 100 results, its own 60/min limit (applied by the route's gate).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaContext } from './context.js';
import { badRequest, searchNotPremium } from './errors.js';
import { parseOptFields } from './field-selection.js';
import type { AsanaTask } from './model.js';
import { readLimit } from './paging.js';
import { booleanParam, queryValue, resolveWorkspace } from './params.js';
import { renderListItem } from './render.js';
import { asanaJson } from './respond.js';
import { searchPredicate } from './search-filters.js';

/** Results when no `limit` is sent; the real default is [unverified] (the spec only caps it at 100). */
export const SEARCH_DEFAULT_LIMIT = 20;

const SORT_FIELDS = new Set(['due_date', 'created_at', 'completed_at', 'likes', 'modified_at', 'relevance']);

function sortValue(task: AsanaTask, sortBy: string): number | undefined {
  switch (sortBy) {
    case 'due_date':
      return task.dueAt !== null ? Date.parse(task.dueAt) : task.dueOn !== null ? Date.parse(task.dueOn) : undefined;
    case 'created_at':
      return Date.parse(task.createdAt);
    case 'completed_at':
      return task.completedAt !== null ? Date.parse(task.completedAt) : undefined;
    case 'likes':
      return task.likerGids.length;
    default:
      // `modified_at`, and `relevance` (the fake has no relevance model: it ranks by modification).
      return Date.parse(task.modifiedAt);
  }
}

/**
 * Searches the tasks of a premium workspace. A free workspace gets B4's 402 body word for word.
 * Results are sorted by `sort_by` (default `modified_at`) descending unless `sort_ascending=true`;
 * tasks without a value (no due date, not completed) come last either way; ties go by gid.
 * The answer is `{data: [...]}` without `next_page` (B4: no offset pagination; page by
 * narrowing `created_at.before/after`). `limit` must be 1-100.
 * Why: the engine's `workspace_task_search` list and the `search` actions read this.
 */
export function searchTasks(ctx: AsanaContext, req: FakeRequest): FakeResponse {
  const workspace = resolveWorkspace(ctx.data, 'workspace', req.params['workspace_gid'] ?? '');
  if (!workspace.ok) return workspace.response;
  if (!workspace.value.premium) return searchNotPremium();
  const limit = readLimit(req);
  if (!limit.ok) return limit.response;
  const sortBy = queryValue(req.query, 'sort_by') ?? 'modified_at';
  if (!SORT_FIELDS.has(sortBy)) return badRequest(`sort_by: Not a valid enum value: ${sortBy}`);
  const ascending = booleanParam(req.query, 'sort_ascending');
  if (!ascending.ok) return ascending.response;
  const predicate = searchPredicate(ctx.data, req.query, ctx.records.meGid);
  if (!predicate.ok) return predicate.response;
  const direction = ascending.value === true ? 1 : -1;
  const matches = ctx.data
    .tasksOf(workspace.value.gid)
    .filter(predicate.value)
    .map((task) => ({ task, key: sortValue(task, sortBy) }))
    .sort((a, b) => {
      if (a.key === undefined || b.key === undefined) {
        if (a.key !== b.key) return a.key === undefined ? 1 : -1;
      } else if (a.key !== b.key) {
        return (a.key - b.key) * direction;
      }
      return a.task.gid < b.task.gid ? -direction : a.task.gid > b.task.gid ? direction : 0;
    })
    .slice(0, limit.limit ?? SEARCH_DEFAULT_LIMIT);
  const selection = parseOptFields(req.query);
  return asanaJson(req, { data: matches.map(({ task }) => renderListItem(ctx.records, 'task', task.gid, selection)) });
}

import type { ListResult } from '../runtime/index.js';
import type { SearchResult } from '../search/index.js';
import { encodeCursor, type PageCursor } from './page-cursor.js';
import { takeWithinBudget } from './result-budget.js';

/** One call of a paged tool: the tool's name, the params read, and how far into that page it starts. */
export interface PagedCall {
  tool: string;
  start: PageCursor;
  /** The params of the page after this one, from the upstream's (or the copy's) token. */
  nextParams(token: string | number): Record<string, unknown>;
}

function pageToken(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/**
 * Where the next call starts: further into this page while it has records left, else at the next
 * page the answer names, else nowhere (the last page).
 */
function nextCursor(call: PagedCall, taken: number, rest: boolean, token: string | number | undefined): string | null {
  if (rest) return encodeCursor(call.tool, { params: call.start.params, skip: call.start.skip + taken });
  if (token === undefined) return null;
  return encodeCursor(call.tool, { params: call.nextParams(token), skip: 0 });
}

/**
 * A list-like answer cut to the budget. `meta` keeps the action's fields, with `next_cursor` (what
 * the tool's `cursor` takes) and `has_more` speaking for what the agent can still read.
 */
export function listAnswer(result: ListResult, call: PagedCall): Record<string, unknown> {
  const { taken, rest } = takeWithinBudget(result.data, call.start.skip);
  const next = nextCursor(call, taken.length, rest, pageToken(result.meta.next_cursor));
  return { data: taken, meta: { ...result.meta, has_more: rest || result.meta.has_more, next_cursor: next } };
}

/** Search hits cut to the budget, with `next_cursor` for the tool's `cursor`. */
export function searchAnswer(result: SearchResult, call: PagedCall): Record<string, unknown> {
  const { taken, rest } = takeWithinBudget(result.hits, call.start.skip);
  return { ...result, hits: taken, next_cursor: nextCursor(call, taken.length, rest, pageToken(result.next_cursor)) };
}

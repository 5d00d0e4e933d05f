import { readPath } from '../../http/index.js';
import type { ActionSpec, PageNumberPagination } from '../../manifest/index.js';
import { pageSizeOf, withToken } from './param-schema.js';
import type { PagingStrategy } from './types.js';

/** A count the body reports (a total of records or of pages), or undefined when it has none. */
export function countAt(json: unknown, path: string | undefined): number | undefined {
  if (path === undefined) return undefined;
  const value = readPath(json, path);
  const count = typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

function startOf(spec: PageNumberPagination): number {
  return spec.start ?? 1;
}

/** Whether the page just read is the last one, by the rules the spec allows. */
function isLastPage(spec: PageNumberPagination, action: ActionSpec, page: number, read: number, json: unknown, params: Record<string, unknown>): boolean {
  if (read === 0) return true;
  const size = pageSizeOf(action, spec.page_size_param, params);
  if (size !== undefined && read < size) return true;
  const totalPages = countAt(json, spec.total_pages_path);
  if (totalPages !== undefined && page - startOf(spec) + 1 >= totalPages) return true;
  const total = countAt(json, spec.total_path);
  // Pages before this one were full: with the size unknown, this page's length stands for it.
  return total !== undefined && (page - startOf(spec)) * (size ?? read) + read >= total;
}

/**
 * `page_number`: pages are numbered from `start` (default 1); the next page is the current number
 * plus one. The read stops on an empty page, a page shorter than the size asked for, or when the
 * body's total (of records or of pages) is reached. The token is the next page number itself.
 */
export const pageNumberPaging: PagingStrategy<PageNumberPagination> = {
  readPage(spec, { action, answer, records, params }) {
    const current = params[spec.param];
    const page = typeof current === 'number' ? current : startOf(spec);
    const last = isLastPage(spec, action, page, records.length, answer.json, params);
    return { records, token: last ? undefined : page + 1, hasMore: !last };
  },
  nextParams: (spec, current, token) => withToken(current, spec.param, token),
  describe: (spec) => ({ pagination_param: spec.param, pagination_keep_params: null }),
};

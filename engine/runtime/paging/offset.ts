import type { OffsetPagination } from '../../manifest/index.js';
import { countAt } from './page-number.js';
import { pageSizeOf, withToken } from './param-schema.js';
import type { PagingStrategy } from './types.js';

/**
 * `offset`: the next page starts where this one ended (offset + records read). The read stops on
 * an empty page, a page shorter than the limit asked for, or at the body's total of records. The
 * token is the next offset itself.
 */
export const offsetPaging: PagingStrategy<OffsetPagination> = {
  readPage(spec, { action, answer, records, params }) {
    const current = params[spec.param];
    const next = (typeof current === 'number' ? current : 0) + records.length;
    const size = pageSizeOf(action, spec.page_size_param, params);
    const total = countAt(answer.json, spec.total_path);
    const last = records.length === 0 || (size !== undefined && records.length < size) || (total !== undefined && next >= total);
    return { records, token: last ? undefined : next, hasMore: !last };
  },
  nextParams: (spec, current, token) => withToken(current, spec.param, token),
  describe: (spec) => ({ pagination_param: spec.param, pagination_keep_params: null }),
};

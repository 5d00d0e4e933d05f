import type { PagingStrategy } from './types.js';

/** `none`: one answer holds every record. */
export const nonePaging: PagingStrategy<{ type: 'none' }> = {
  readPage: (_spec, { records }) => ({ records, token: undefined, hasMore: false }),
  nextParams: (_spec, current) => current,
  describe: () => ({ pagination_param: null, pagination_keep_params: null }),
};

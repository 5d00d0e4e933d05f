import { readPath } from '../../http/index.js';
import type { BodyTokenPagination } from '../../manifest/index.js';
import { takesNumber, withToken } from './param-schema.js';
import type { PageToken, PagingStrategy } from './types.js';

/**
 * The token as the param takes it back: a number stays a number when the param is typed as one
 * (and becomes text otherwise); absent, null or "" means the last page.
 */
function tokenValue(value: unknown, numeric: boolean): PageToken | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && numeric) return value;
  return String(value);
}

/** `body_token`: the answer's body names the next page's token; it goes back in a param. */
export const bodyTokenPaging: PagingStrategy<BodyTokenPagination> = {
  readPage(spec, { action, answer, records }) {
    const token = tokenValue(readPath(answer.json, spec.token_path), takesNumber(action, spec.param));
    return { records, token, hasMore: token !== undefined };
  },
  nextParams: (spec, current, token) => withToken(current, spec.param, token),
  describe: (spec) => ({ pagination_param: spec.param, pagination_keep_params: null }),
};

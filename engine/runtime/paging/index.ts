/**
 * Pagination strategies, one module each: how a request is adjusted, how an answer names the next
 * page, what `records()` sends next, and how clients are told.
 * The rest of the engine reaches them only through {@link pagingOf}.
 */
import type { ActionSpec, PaginationSpec } from '../../manifest/index.js';
import { bodyTokenPaging } from './body-token.js';
import { linkHeaderPaging } from './link-header.js';
import { nonePaging } from './none.js';
import { offsetPaging } from './offset.js';
import { pageNumberPaging } from './page-number.js';
import { recordKeyPaging } from './record-key.js';
import type { PageInput, PageReading, PageToken, PagingDescription, PagingStrategy } from './types.js';

export { PageLoopGuard } from './page-loop-guard.js';
export type { PagedOrder, PageReading, PageToken, PagingDescription } from './types.js';
export { pagedOrderOf, unpageableReason } from './record-key.js';

type Strategies = { [K in PaginationSpec['type']]: PagingStrategy<Extract<PaginationSpec, { type: K }>> };

const STRATEGIES: Strategies = {
  none: nonePaging,
  body_token: bodyTokenPaging,
  link_header: linkHeaderPaging,
  record_key: recordKeyPaging,
  page_number: pageNumberPaging,
  offset: offsetPaging,
};

/** An action's paging with its spec bound: what the engine calls. */
export interface Paging {
  /** Whether pages follow one another (false for `none` and for actions without pagination). */
  pages: boolean;
  requestParams(action: ActionSpec, params: Record<string, unknown>, label: string): Record<string, unknown>;
  assertPageable(params: Record<string, unknown>, label: string): void;
  readPage(input: PageInput): PageReading;
  emptyMeta(): Record<string, unknown>;
  nextParams(current: Record<string, unknown>, token: PageToken): Record<string, unknown>;
  describe(): PagingDescription;
}

function bind<S>(strategy: PagingStrategy<S>, spec: S, pages: boolean): Paging {
  return {
    pages,
    requestParams: (action, params, label) => strategy.requestParams?.(spec, action, params, label) ?? params,
    assertPageable: (params, label) => strategy.assertPageable?.(spec, params, label),
    readPage: (input) => strategy.readPage(spec, input),
    emptyMeta: () => strategy.emptyMeta?.(spec) ?? {},
    nextParams: (current, token) => strategy.nextParams(spec, current, token),
    describe: () => strategy.describe(spec),
  };
}

const UNPAGED = bind(nonePaging, { type: 'none' }, false);
const bound = new WeakMap<PaginationSpec, Paging>();

/**
 * The paging of an action (an action without pagination reads one answer, as `none`), bound once
 * per spec: every page of every call asks for it, and a bound paging holds nothing per call.
 */
export function pagingOf(spec: PaginationSpec | undefined): Paging {
  if (!spec) return UNPAGED;
  let paging = bound.get(spec);
  if (!paging) {
    paging = bind(STRATEGIES[spec.type] as PagingStrategy<PaginationSpec>, spec, spec.type !== 'none');
    bound.set(spec, paging);
  }
  return paging;
}

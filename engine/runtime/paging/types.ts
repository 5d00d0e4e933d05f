import type { UpstreamAnswer } from '../../http/index.js';
import type { ActionSpec } from '../../manifest/index.js';
import type { RecordData } from '../record-data.js';

/**
 * A page token as `meta.next_cursor` holds it: the upstream's own token text, or a page number or
 * offset as a number, so that passing it back into an integer-typed param validates.
 */
export type PageToken = string | number;

/** What an answer says about the next page. */
export interface PageReading {
  /** The page's records (a strategy may drop records an earlier page returned). */
  records: RecordData[];
  /** The next page's token; undefined on the last page or when the order cannot be paged. */
  token: PageToken | undefined;
  /** Whether more records may match (true with a token, and also for a full page that cannot be paged). */
  hasMore: boolean;
  /** Meta fields the strategy adds (e.g. a sibling action's way of reporting the cursor). */
  meta?: Record<string, unknown>;
}

/** One answer of a list-like action, as a strategy reads it. */
export interface PageInput {
  action: ActionSpec;
  answer: UpstreamAnswer;
  records: RecordData[];
  /** The params the caller gave (before the strategy adjusted the request). */
  params: Record<string, unknown>;
  label: string;
}

/** How /v1/connector-types describes an action's paging to clients that follow pages themselves. */
export interface PagingDescription {
  pagination_param: string | null;
  pagination_keep_params: string[] | null;
  paged_order?: PagedOrder;
}

/**
 * One pagination strategy: everything the engine does differently for it, in one module. Why: a
 * new strategy then touches its module, the registry and the schema (whose `x-param` annotations
 * drive the load-time param checks), and nothing else.
 */
export interface PagingStrategy<S> {
  /** The params the request is rendered with (default: the caller's). */
  requestParams?(spec: S, action: ActionSpec, params: Record<string, unknown>, label: string): Record<string, unknown>;
  /** Refuses, before any request, a records() call whose pages cannot all be read. */
  assertPageable?(spec: S, params: Record<string, unknown>, label: string): void;
  /** Reads the next page's token (and may drop repeated records) from an answer. */
  readPage(spec: S, input: PageInput): PageReading;
  /** Meta fields an empty answer (204) still carries besides `next_cursor`. */
  emptyMeta?(spec: S): Record<string, unknown>;
  /** The params of the next page. */
  nextParams(spec: S, current: Record<string, unknown>, token: PageToken): Record<string, unknown>;
  describe(spec: S): PagingDescription;
}

/**
 * The orders a keyset-paged action can page in, as data: its key field, the order param and the
 * value that selects the key order, and whether ascending pages can be narrowed. Why: the hosted
 * client reads it from /v1/connector-types to refuse an unpageable records() before any request,
 * exactly as the library does.
 */
export interface PagedOrder {
  field: string;
  order?: { param: string; value: string };
  ascending_param?: string;
  ascending: boolean;
}

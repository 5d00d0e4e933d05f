/**
 * Keyset paging for upstreams that have no page token but sort by a date-time field and filter on
 * it (a task search whose documented way to page is "sorting on created_at and narrowing with
 * created_at.before/after"). The next page is the same request narrowed to the last
 * key read, inclusively; the records already read at that key travel in the cursor, the request
 * asks for that many more (within the page size param's `maximum`), and they are dropped from the
 * answer, so a page boundary inside a run of equal keys neither loses nor repeats a record.
 */
import { InvalidParamsError, UpstreamError } from '../../errors.js';
import { readPath } from '../../http/index.js';
import type { ActionSpec, RecordKeyPagination } from '../../manifest/index.js';
import type { RecordData } from '../record-data.js';
import { withToken } from './param-schema.js';
import type { PagedOrder, PagingStrategy } from './types.js';

/** Where the previous page ended: its last key, and the ids read at that key so far. */
interface KeyCursor {
  key: string;
  ids: string[];
}

/** One page of a keyset-paged action. */
export interface KeyedPage {
  /** The page's records, without those an earlier page already returned. */
  records: RecordData[];
  /** The cursor of the next page; undefined on the last page, or when this order cannot be paged. */
  token: string | undefined;
  /** Whether the upstream filled the page, so that more records may match. */
  full: boolean;
}

function encodeCursor(cursor: KeyCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function badCursor(pagination: RecordKeyPagination, label: string): InvalidParamsError {
  const { param } = pagination;
  return new InvalidParamsError(`invalid params for ${label}: ${param} is not a cursor this action handed out`, {
    details: [{ path: `/${param}`, message: 'must be meta.next_cursor of the previous page, unchanged' }],
  });
}

function decodeCursor(pagination: RecordKeyPagination, token: unknown, label: string): KeyCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(String(token), 'base64url').toString('utf8'));
  } catch {
    throw badCursor(pagination, label);
  }
  const cursor = parsed as Partial<KeyCursor> | null;
  const valid =
    typeof cursor === 'object' &&
    cursor !== null &&
    typeof cursor.key === 'string' &&
    !Number.isNaN(Date.parse(cursor.key)) &&
    Array.isArray(cursor.ids) &&
    cursor.ids.every((id) => typeof id === 'string');
  if (!valid) throw badCursor(pagination, label);
  return { key: cursor.key as string, ids: cursor.ids as string[] };
}

/** The largest page size the action's params schema allows, if it names one. */
function pageSizeMax(action: ActionSpec, pagination: RecordKeyPagination): number {
  const properties = (action.params?.properties ?? {}) as Record<string, { maximum?: unknown }>;
  const maximum = properties[pagination.page_size_param]?.maximum;
  return typeof maximum === 'number' ? maximum : Number.POSITIVE_INFINITY;
}

/** The page size asked of the upstream: the caller's, plus room for the records the cursor says were read. */
function sentPageSize(action: ActionSpec, pagination: RecordKeyPagination, params: Record<string, unknown>, cursor: KeyCursor | undefined): number {
  const size = Number(params[pagination.page_size_param]);
  return cursor ? Math.min(size + cursor.ids.length, pageSizeMax(action, pagination)) : size;
}

function ascending(pagination: Pick<RecordKeyPagination, 'ascending_param'>, params: Record<string, unknown>): boolean {
  return pagination.ascending_param !== undefined && params[pagination.ascending_param] === true;
}

/** The paged order of a record_key pagination. */
export function pagedOrderOf(pagination: RecordKeyPagination): PagedOrder {
  return {
    field: pagination.field,
    ...(pagination.order ? { order: { ...pagination.order } } : {}),
    ...(pagination.ascending_param !== undefined ? { ascending_param: pagination.ascending_param } : {}),
    ascending: pagination.narrow.ascending !== undefined,
  };
}

/** Why this call's order cannot be paged, or undefined when it can. */
export function unpageableReason(paged: PagedOrder, params: Record<string, unknown>): { path: string; message: string } | undefined {
  const { order, field } = paged;
  if (order && params[order.param] !== undefined && params[order.param] !== order.value) {
    return { path: `/${order.param}`, message: `pages are read in ${field} order only: leave ${order.param} out or set it to ${order.value}` };
  }
  if (ascending(paged, params) && !paged.ascending) {
    return { path: `/${paged.ascending_param}`, message: `pages are read in descending ${field} order only` };
  }
  return undefined;
}

/**
 * Refuses, before any request, a call that would need more than one page in an order the upstream
 * cannot be narrowed by. Why: `records()` promises every record; in another order it could only
 * repeat or skip some.
 */
export function assertPageable(pagination: RecordKeyPagination, params: Record<string, unknown>, label: string): void {
  const reason = unpageableReason(pagedOrderOf(pagination), params);
  if (!reason) return;
  throw new InvalidParamsError(
    `invalid params for ${label}: records() reads every page, and ${reason.message} (in another order, execute gives the first page)`,
    {
      details: [reason],
    },
  );
}

/**
 * The params a request is rendered with: a cursor sets the narrowing param to its key, inclusive
 * (one millisecond past it), since records with that very key may still be unread, and widens the
 * page by the records already read at that key, which the answer will repeat.
 * Why: the cursor is opaque to the manifest; only the engine knows which bound it sets.
 */
export function keyedRequestParams(
  action: ActionSpec,
  pagination: RecordKeyPagination,
  params: Record<string, unknown>,
  label: string,
): Record<string, unknown> {
  const token = params[pagination.param];
  if (token === undefined) return params;
  const cursor = decodeCursor(pagination, token, label);
  const reason = unpageableReason(pagedOrderOf(pagination), params);
  if (reason) {
    throw new InvalidParamsError(`invalid params for ${label}: ${pagination.param} continues a paged read, and ${reason.message}`, { details: [reason] });
  }
  const up = ascending(pagination, params);
  const bound = new Date(Date.parse(cursor.key) + (up ? -1 : 1)).toISOString();
  return {
    ...params,
    [up ? (pagination.narrow.ascending as string) : pagination.narrow.descending]: bound,
    [pagination.page_size_param]: sentPageSize(action, pagination, params, cursor),
  };
}

function keyOf(pagination: RecordKeyPagination, record: RecordData, label: string): number {
  const value = readPath(record, pagination.field);
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new UpstreamError(`${label} answered a record without a date-time at "${pagination.field}", so its pages cannot be followed`);
  return ms;
}

function idOf(pagination: RecordKeyPagination, record: RecordData): string {
  return String(readPath(record, pagination.id));
}

/**
 * Reads one answer of a keyset-paged action: drops the records the cursor says were read, keeps
 * at most the caller's page size, and makes the next cursor from the last record kept (with every
 * id read at its key) when more may match and the order can be paged. Why: see the module comment.
 */
export function readKeyedPage(
  action: ActionSpec,
  pagination: RecordKeyPagination,
  raw: RecordData[],
  params: Record<string, unknown>,
  label: string,
): KeyedPage {
  const token = params[pagination.param];
  const cursor = token === undefined ? undefined : decodeCursor(pagination, token, label);
  const cursorMs = cursor ? Date.parse(cursor.key) : Number.NaN;
  const fresh = cursor ? raw.filter((r) => !(keyOf(pagination, r, label) === cursorMs && cursor.ids.includes(idOf(pagination, r)))) : raw;
  const size = Number(params[pagination.page_size_param]);
  const records = fresh.slice(0, size);
  const full = (raw.length > 0 && raw.length >= sentPageSize(action, pagination, params, cursor)) || fresh.length > records.length;
  if (!full || unpageableReason(pagedOrderOf(pagination), params)) return { records, token: undefined, full };
  const last = records.at(-1);
  // Nothing new in a full answer: more records share the cursor's key than a page can hold.
  if (last === undefined) return { records, token: String(token), full };
  const lastMs = keyOf(pagination, last, label);
  const ids = records.filter((r) => keyOf(pagination, r, label) === lastMs).map((r) => idOf(pagination, r));
  if (cursor && cursorMs === lastMs) ids.push(...cursor.ids.filter((id) => !ids.includes(id)));
  return { records, token: encodeCursor({ key: String(readPath(last, pagination.field)), ids }), full };
}

/** `record_key`: see the module comment. The cursor is opaque text. */
export const recordKeyPaging: PagingStrategy<RecordKeyPagination> = {
  requestParams: (spec, action, params, label) => keyedRequestParams(action, spec, params, label),
  assertPageable,
  readPage(spec, { action, records, params, label }) {
    const keyed = readKeyedPage(action, spec, records, params, label);
    // In an order that cannot be paged there is no cursor, yet a full page still means more may match.
    const meta = spec.token_meta !== undefined ? { [spec.token_meta]: keyed.token === undefined ? null : { [spec.param]: keyed.token } } : undefined;
    return { records: keyed.records, token: keyed.token, hasMore: keyed.full, ...(meta ? { meta } : {}) };
  },
  emptyMeta: (spec) => (spec.token_meta !== undefined ? { [spec.token_meta]: null } : {}),
  nextParams: (spec, current, token) => withToken(current, spec.param, token),
  describe: (spec) => ({ pagination_param: spec.param, pagination_keep_params: null, paged_order: pagedOrderOf(spec) }),
};

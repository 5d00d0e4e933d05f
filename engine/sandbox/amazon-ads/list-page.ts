/**
 * Filtering and `nextToken` paging shared by the v3 list operations (API-NOTES A.4, A.5).
 */
import type { FakeResponse } from '../responses.js';
import type { AdsContext } from './context.js';
import { invalidNextToken, type ListFlavor, type ListQuery } from './list-request.js';
import { decodeNextToken, encodeNextToken, filterFingerprint, type TokenBinding } from './next-token.js';

/** One page of a filtered list. */
export interface ListPage<T> {
  items: T[];
  /** Absent on the last page (A.5: "nextToken is absent on the last page"). */
  nextToken?: string;
  /** A.4/A.5 `totalResults`: every record matching the filters, across pages. */
  totalResults: number;
}

/**
 * True when `name` passes the query's name filter: EXACT_MATCH compares with each value exactly;
 * BROAD_MATCH matches a case-insensitive substring of the first value only (spec
 * `QueryTermMatchType`: "only matches for the first query included will be returned").
 */
export function nameMatches(query: ListQuery, name: string): boolean {
  if (!query.names) return true;
  if (query.names.match === 'EXACT_MATCH') return query.names.values.includes(name);
  const first = query.names.values[0];
  return first === undefined || name.toLowerCase().includes(first.toLowerCase());
}

/**
 * Cuts one page out of already-filtered records, starting where `query.nextToken` says.
 * A token issued for another list, profile or filter set is refused with the v3 400.
 * Why: v3 lists paginate with an opaque token in the body and report `totalResults` (A.5).
 */
export function pageOf<T>(
  ctx: AdsContext,
  list: ListFlavor,
  profileId: number,
  query: ListQuery,
  records: readonly T[],
): { ok: true; page: ListPage<T> } | { ok: false; response: FakeResponse } {
  const binding: TokenBinding = {
    list,
    profileId,
    fingerprint: filterFingerprint({ states: query.states, ids: query.ids, portfolioIds: query.portfolioIds, names: query.names }),
  };
  let offset = 0;
  if (query.nextToken !== undefined) {
    const decoded = decodeNextToken(ctx.tokenSecret, binding, query.nextToken);
    if (decoded === undefined) return { ok: false, response: invalidNextToken(list, query.nextToken) };
    offset = decoded;
  }
  const end = offset + query.pageSize;
  const page: ListPage<T> = { items: records.slice(offset, end), totalResults: records.length };
  if (end < records.length) page.nextToken = encodeNextToken(ctx.tokenSecret, binding, end);
  return { ok: true, page };
}

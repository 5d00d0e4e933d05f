/**
 * Server-chosen page size and the `records` block (API-NOTES C.2).
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { queryDigest, type CursorCodec } from './cursor.js';
import { malformed } from './errors.js';

/**
 * C.2: the spec has no `limit` parameter; the server picks the page size, commonly 100
 * [unverified], which is also the spec's `currentPageSize` example.
 */
export const PAGE_SIZE = 100;

/** `Records` (C.2): `cursor` only "when there are more records to be retrieved". */
export interface RecordsBlock {
  totalRecords: number;
  currentPageSize: number;
  currentPageNumber: number;
  cursor?: string;
}

/** One page of a list, or the 400 for a bad cursor. */
export type PageOutcome<T> = { ok: true; items: T[]; records: RecordsBlock } | { ok: false; response: FakeResponse };

/**
 * Cuts the page a request asks for out of the whole filtered list. Without a cursor it is page 0;
 * with one, the cursor must be one this fake issued for the same operation and the same other
 * inputs (`inputs`), else 400. Page numbers start at 0 (the spec's `currentPageNumber` example).
 * Why: every list route pages the same way.
 */
export function paginate<T>(codec: CursorCodec, req: FakeRequest, op: string, inputs: unknown, all: readonly T[], cursor: string | undefined): PageOutcome<T> {
  const query = queryDigest(inputs);
  let offset = 0;
  let page = 0;
  if (cursor !== undefined && cursor !== '') {
    const state = codec.decode(cursor);
    if (!state || state.op !== op || state.offset < 0 || state.offset >= all.length) {
      return { ok: false, response: malformed(req, 'The cursor is not valid') };
    }
    if (state.query !== query) {
      return { ok: false, response: malformed(req, 'The cursor does not belong to this request: all other request inputs must stay the same while paging') };
    }
    offset = state.offset;
    page = state.page;
  }
  const items = all.slice(offset, offset + PAGE_SIZE);
  const records: RecordsBlock = { totalRecords: all.length, currentPageSize: items.length, currentPageNumber: page };
  const next = offset + items.length;
  if (next < all.length) records.cursor = codec.encode({ op, query, offset: next, page: page + 1 });
  return { ok: true, items, records };
}

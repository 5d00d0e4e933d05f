/**
 * The opaque `page_info` cursor of REST list endpoints (API-NOTES B.3).
 */

/** What a cursor remembers: the original filters and where the page it points to starts. */
export interface PageCursor {
  /** The list it belongs to (`orders`, `fulfillments`...); a cursor is refused elsewhere. */
  resource: string;
  /** `next`: records after the key; `prev`: records before it. */
  direction: 'next' | 'prev';
  lastId: number;
  /** The sort value of the key record (its id, or its timestamp with `order=updated_at …`). */
  lastValue: string;
  /** The filters of the first request (B.3: "`page_info` carries the original filters"). */
  filters: Record<string, string>;
}

const RESERVED = new Set(['resource', 'direction', 'last_id', 'last_value']);

/**
 * Encodes a cursor as base64url JSON in the shape real cursors decode to
 * (`{"created_at_min":"…","last_id":115362070331680,"last_value":"115362070331680","direction":"next"}`,
 * airbytehq/airbyte#31639), plus the list it belongs to.
 * Why: clients must treat `page_info` as opaque and pass it back verbatim (B.3).
 */
export function encodePageInfo(cursor: PageCursor): string {
  const body = { ...cursor.filters, resource: cursor.resource, last_id: cursor.lastId, last_value: cursor.lastValue, direction: cursor.direction };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor, or undefined when the text is not one the fake could have issued.
 * Why: a damaged or invented cursor is a 400 `{"errors":{"page_info":"Invalid value."}}`.
 */
export function decodePageInfo(text: string): PageCursor | undefined {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const body = parsed as Record<string, unknown>;
  const { resource, direction, last_id: lastId, last_value: lastValue } = body;
  if (typeof resource !== 'string' || (direction !== 'next' && direction !== 'prev')) return undefined;
  if (typeof lastId !== 'number' || !Number.isSafeInteger(lastId) || typeof lastValue !== 'string') return undefined;
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (RESERVED.has(name)) continue;
    if (typeof value !== 'string') return undefined;
    filters[name] = value;
  }
  return { resource, direction, lastId, lastValue, filters };
}

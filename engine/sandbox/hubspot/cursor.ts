/**
 * The list endpoint's opaque `after` cursor (A4: e.g. `NTI1Cg%3D%3D`, base64 of an id).
 */

/**
 * Encodes the id of the first record of the next page.
 * Why: HubSpot cursors are opaque base64 strings; clients must pass them back verbatim.
 */
export function encodeAfter(nextId: number): string {
  return Buffer.from(String(nextId), 'utf8').toString('base64');
}

/**
 * Decodes a cursor to the first id to return, or undefined when it is not a cursor.
 * A bare decimal id is accepted too, as in the link of A4's real example (`?after=2`).
 */
export function decodeAfter(after: string): number | undefined {
  const trimmed = after.trim();
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8').trim();
    if (/^\d{1,15}$/.test(decoded)) return Number(decoded);
  }
  if (/^\d{1,15}$/.test(trimmed)) return Number(trimmed);
  return undefined;
}

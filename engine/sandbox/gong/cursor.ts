/**
 * Gong's opaque paging cursors (C.2). The spec's example cursor is a JWT
 * (`eyJhbGciOiJIUzI1NiJ9.eyJjYWxsSWQiM1M30.6qKw...`); the fake's are signed the same way, so a
 * cursor a client invents, edits or carries to another query is recognised and refused.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** What a cursor remembers: the operation, a digest of the other inputs, and where the next page starts. */
export interface CursorState {
  /** Which list operation issued it (`users`, `calls`, `extensive`, `transcripts`). */
  op: string;
  /** Digest of the request inputs other than the cursor. */
  query: string;
  /** Index of the first record of the next page. */
  offset: number;
  /** Zero-based number of the next page (`records.currentPageNumber`). */
  page: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

/** Encodes and verifies cursors with a per-fake key. */
export class CursorCodec {
  constructor(private readonly key: string) {}

  /** Issues the cursor of the next page. Why: `records.cursor` (C.2). */
  encode(state: CursorState): string {
    const body = Buffer.from(JSON.stringify({ op: state.op, q: state.query, o: state.offset, p: state.page })).toString('base64url');
    return `${HEADER}.${body}.${this.sign(`${HEADER}.${body}`)}`;
  }

  /** The state of a cursor this fake issued, or undefined for anything else. */
  decode(cursor: string): CursorState | undefined {
    const parts = cursor.trim().split('.');
    if (parts.length !== 3) return undefined;
    const [head, body, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${head}.${body}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      const { op, q, o, p } = parsed;
      if (typeof op !== 'string' || typeof q !== 'string' || !Number.isInteger(o) || !Number.isInteger(p)) return undefined;
      return { op, query: q, offset: o as number, page: p as number };
    } catch {
      return undefined;
    }
  }

  private sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

/**
 * A digest of request inputs, independent of key order.
 * Why: C.2: "All other request inputs should remain the same" while paging; the fake checks it.
 */
export function queryDigest(inputs: unknown): string {
  return createHash('sha256').update(canonicalJson(inputs)).digest('base64url').slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

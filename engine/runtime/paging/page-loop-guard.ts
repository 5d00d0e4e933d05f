import type { PageToken } from './types.js';

/** A page's identity: its length and its first and last records (none when empty). */
function pageFingerprint(records: readonly unknown[]): string | undefined {
  return records.length === 0 ? undefined : `${records.length}\n${JSON.stringify(records[0])}\n${JSON.stringify(records.at(-1))}`;
}

/**
 * Tells a read of every page that it would never end, for the library's `records()` and the
 * hosted client's alike: an upstream that hands back a token it already gave, or one that ignores
 * the page param and answers the same page again under a new page number or offset.
 */
export class PageLoopGuard {
  private readonly tokens = new Set<string>();
  private previous: string | undefined;

  /** True when these records are the page read just before (an empty page never is). */
  samePageAgain(records: readonly unknown[]): boolean {
    const fingerprint = pageFingerprint(records);
    const again = fingerprint !== undefined && fingerprint === this.previous;
    this.previous = fingerprint;
    return again;
  }

  /** True when this token was given before; the number 2 and the text "2" are the same page. */
  repeatedToken(token: PageToken): boolean {
    const key = String(token);
    if (this.tokens.has(key)) return true;
    this.tokens.add(key);
    return false;
  }
}

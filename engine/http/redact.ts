const MAX_QUOTE = 500;

/** Removes secrets from text that may reach a caller, a log or a response. */
export type Redactor = (text: string) => string;

/**
 * Builds a redactor over the current secrets (read at each use, so rotated tokens count): every secret value (and its URL-encoded form) becomes
 * [REDACTED], and the text is cut to 500 characters, since upstream bodies are quoted, not kept.
 */
export function createRedactor(secrets: () => Iterable<unknown>): Redactor {
  return (text) => {
    const values = new Set<string>();
    for (const secret of secrets()) {
      if (typeof secret !== 'string' || secret.length < 4) continue;
      values.add(secret);
      values.add(encodeURIComponent(secret));
    }
    const sorted = [...values].sort((a, b) => b.length - a.length);
    let out = text;
    for (const value of sorted) out = out.split(value).join('[REDACTED]');
    return out.length > MAX_QUOTE ? out.slice(0, MAX_QUOTE) + '…' : out;
  };
}

/** U+0000, or a UTF-16 surrogate that is not half of a pair (see engine/store/storable-text.ts). */
const UNSTORABLE = /[\0\p{Cs}]/u;
const EVERY_UNSTORABLE = /[\0\p{Cs}]/gu;

/** The replacement character: what a UTF-8 encoder writes for a lone surrogate anyway. */
const REPLACEMENT = '\ufffd';

/**
 * The value with U+0000 and lone surrogates in its strings and keys replaced by U+FFFD, so an
 * upstream record that holds them (a CRM field pasted from a binary file) is stored alike by both
 * stores instead of failing the whole batch on PostgreSQL ("unsupported Unicode escape sequence")
 * while SQLite keeps it. Returns the same value, not a copy, when there is nothing to replace.
 */
export function toStorable<T>(value: T): T {
  if (typeof value === 'string') return (UNSTORABLE.test(value) ? value.replace(EVERY_UNSTORABLE, REPLACEMENT) : value) as T;
  if (Array.isArray(value)) {
    const items = value.map((item) => toStorable(item));
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const pair: [string, unknown] = [toStorable(key), toStorable(item)];
    if (pair[0] !== key || pair[1] !== item) changed = true;
    return pair;
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}

/**
 * U+0000 or a UTF-16 surrogate that is not half of a pair. PostgreSQL `text` and `jsonb` cannot
 * hold U+0000 (the server refuses it: "invalid byte sequence" / "unsupported Unicode escape
 * sequence"), and a lone surrogate has no UTF-8 form, so both drivers would store U+FFFD in its
 * place. With the `u` flag a paired surrogate is one code point and does not match `\p{Cs}`.
 */
const UNSTORABLE = /[\0\p{Cs}]/u;

/**
 * True when both stores keep `text` exactly as given. Input that fails this is refused at the
 * door (400), because storing or comparing it would either fail inside the database (a 500) or
 * silently match something else.
 */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

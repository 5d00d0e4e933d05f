import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A new identifier: the prefix and 24 characters of lowercase base32 (120 random bits), so ids are
 * unguessable, URL-safe, and say what they name ("conn_", "cli_").
 */
export function newId(prefix: string): string {
  const bytes = randomBytes(15);
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return prefix + out;
}

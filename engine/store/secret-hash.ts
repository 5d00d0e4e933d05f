import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PREFIX = 'scrypt';
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const DEFAULT = { N: 2 ** 14, r: 8, p: 1 };

/**
 * Hashes a platform client's secret for storage: scrypt with a random salt, its cost parameters
 * kept in the text (`scrypt$N$r$p$<salt b64>$<hash b64>`) so they can be raised later without
 * breaking hashes already stored. Runs on libuv's thread pool, off the event loop.
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(secret, salt, HASH_BYTES, DEFAULT);
  return [PREFIX, DEFAULT.N, DEFAULT.r, DEFAULT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/**
 * True when `secret` is the one `hash` was made from. Compares in constant time; a malformed or
 * unknown hash is simply false, so a damaged row can never authenticate anyone.
 */
export async function verifySecret(secret: string, hash: string): Promise<boolean> {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4] as string, 'base64');
  const expected = Buffer.from(parts[5] as string, 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  let actual: Buffer;
  try {
    actual = await derive(secret, salt, expected.length, { N, r, p });
  } catch {
    return false;
  }
  return timingSafeEqual(actual, expected);
}

function derive(secret: string, salt: Buffer, length: number, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

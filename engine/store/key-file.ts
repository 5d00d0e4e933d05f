import { randomBytes, scrypt } from 'node:crypto';
import { chmod, link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDirectory } from './private-files.js';
import { StoreSetupError } from './store-errors.js';

/** Where the encryption key comes from: the operator's secret, or a key file in the data directory. */
export interface LoadKeyOptions {
  /** `ENGINE_SECRET`: any length; an empty string counts as unset. */
  secret?: string;
  /** The server's data directory; holds `engine.key` when no secret is given. */
  dataDir: string;
}

/** The file name of the generated key inside the data directory. */
export const KEY_FILE_NAME = 'engine.key';

const KEY_BYTES = 32;
// Fixed on purpose: the same ENGINE_SECRET must give the same key on every server process.
const SECRET_SALT = 'connector-engine/ENGINE_SECRET/v1';
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * The 32-byte key that encrypts credentials at rest. With `ENGINE_SECRET` the key is derived from
 * it with scrypt (a slow KDF, since an operator's secret may be a passphrase), so every process
 * given the same secret agrees without sharing a file. Without it, `<dataDir>/engine.key` is read,
 * or created once with 32 random bytes and mode 0600; creation is atomic (write a temp file, then
 * hard-link it into place), so two processes starting together end up with the same key.
 */
export async function loadOrCreateKey(options: LoadKeyOptions): Promise<Buffer> {
  if (options.secret) return deriveKey(options.secret);
  const path = join(options.dataDir, KEY_FILE_NAME);
  const existing = await readKeyFile(path);
  if (existing) return existing;
  ensurePrivateDirectory(options.dataDir);
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const created = await readKeyFile(path);
  if (!created) throw new StoreSetupError(`Key file ${path} vanished right after it was created.`);
  return created;
}

async function readKeyFile(path: string): Promise<Buffer | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (bytes.length !== KEY_BYTES) {
    throw new StoreSetupError(`Key file ${path} holds ${bytes.length} bytes, expected ${KEY_BYTES}; refusing to replace it.`);
  }
  return bytes;
}

function deriveKey(secret: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, SECRET_SALT, KEY_BYTES, SCRYPT, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

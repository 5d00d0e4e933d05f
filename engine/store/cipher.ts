import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptionError, StoreSetupError } from './store-errors.js';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Encrypts and decrypts short secrets (connector credentials) for storage at rest. */
export interface Cipher {
  /** `v1:<iv>:<tag>:<ciphertext>` (base64 parts); a fresh random IV every call. */
  encrypt(plaintext: string): string;
  /** The plaintext; throws `DecryptionError` if the text was altered, malformed, or made with another key. */
  decrypt(text: string): string;
}

/**
 * AES-256-GCM with a random 12-byte IV per message and the 16-byte authentication tag stored with
 * it, so any change to a stored credential is detected instead of decrypting to garbage. The
 * leading version lets a later format (or key rotation) coexist with data written now.
 */
export function createCipher(key: Buffer): Cipher {
  if (key.length !== 32) throw new StoreSetupError(`An AES-256 key has 32 bytes, this one has ${key.length}.`);
  const secretKey = Buffer.from(key);
  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, secretKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
    },
    decrypt(text) {
      const parts = text.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) {
        throw new DecryptionError(`Encrypted value is not in the ${VERSION} format.`);
      }
      const [, ivText, tagText, bodyText] = parts as [string, string, string, string];
      if (![ivText, tagText, bodyText].every((part) => BASE64.test(part))) {
        throw new DecryptionError('Encrypted value is not valid base64.');
      }
      const iv = Buffer.from(ivText, 'base64');
      const tag = Buffer.from(tagText, 'base64');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new DecryptionError('Encrypted value has a malformed IV or authentication tag.');
      }
      try {
        const decipher = createDecipheriv(ALGORITHM, secretKey, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        const body = Buffer.from(bodyText, 'base64');
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch (cause) {
        throw new DecryptionError('Encrypted value failed authentication: altered, or encrypted with another key.', { cause });
      }
    },
  };
}

import { randomBytes } from 'node:crypto';
import { hashSecret, verifySecret, type PlatformClientRecord, type Store } from '../store/index.js';

/**
 * Checks a platform client's id and secret in the same time whatever is wrong with them. An
 * unknown or revoked client is verified against a dummy hash made by hashSecret (so of the same
 * scrypt cost as real ones) instead of answering at once: otherwise the ~5 ms answer for an
 * unknown id against ~200 ms for a wrong secret tells an attacker which client ids exist.
 */
export class ClientAuthenticator {
  private readonly dummy: Promise<string>;

  /** The dummy is made from random bytes nobody knows, so no secret ever matches it. */
  constructor(private readonly store: Store) {
    // Made at start-up, so the first unknown id does not pay for it (and stand out by its time).
    this.dummy = hashSecret(randomBytes(32).toString('base64'));
    this.dummy.catch(() => undefined);
  }

  /** The client when the id names a live client and the secret is its own; undefined otherwise. */
  async authenticate(clientId: string, secret: string): Promise<PlatformClientRecord | undefined> {
    const client = await this.store.findClient(clientId);
    const live = client !== undefined && !client.revoked_at;
    const hash = live ? client.secret_hash : await this.dummy;
    const matches = await verifySecret(secret, hash);
    return live && matches ? client : undefined;
  }
}

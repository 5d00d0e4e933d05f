import { lookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRange } from './address-range.js';

/**
 * What the guarded lookup fails a connection with: the address and its range. The connection is
 * shared by every request to its origin, so the request that was refused turns it into its own
 * HOST_NOT_ALLOWED (EgressPolicy.connectRefusal), naming its URL and purpose.
 */
export class AddressRefused extends Error {
  readonly code = 'EADDRESSREFUSED';

  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(`refused to connect to ${address}, a ${range} address`);
  }
}

/**
 * A DNS lookup for the `lookup` socket option of the guarded dispatcher that resolves a host once
 * and fails with AddressRefused when any of its addresses is not public unicast, so the address
 * checked is the address connected to: a name that passes the host list but resolves (or rebinds)
 * to 127.0.0.1, 10.x or 169.254.169.254 never gets a connection. It answers both call shapes:
 * `all: true` (Node's autoSelectFamily, on by default, asks for every address) and a single address.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    const bad = addresses.find((entry) => addressRange(entry.address) !== 'unicast');
    if (bad) return callback(new AddressRefused(bad.address, addressRange(bad.address)) as NodeJS.ErrnoException, '');
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
};

import { lookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRange } from './address-range.js';

/** Builds the error for an address that may not be connected to. */
export type AddressRefusal = (address: string, range: string) => Error;

/**
 * A DNS lookup for got's `dnsLookup` (Node's `lookup` socket option) that resolves a host once and
 * fails when any of its addresses is not public unicast, so the address checked is the address
 * connected to: a name that passes the host list but resolves (or rebinds) to 127.0.0.1, 10.x or
 * 169.254.169.254 never gets a connection. It answers both call shapes: `all: true` (Node's
 * autoSelectFamily, on by default, asks for every address) and a single address.
 */
export function guardedLookup(refuse: AddressRefusal): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      const bad = addresses.find((entry) => addressRange(entry.address) !== 'unicast');
      if (bad) return callback(refuse(bad.address, addressRange(bad.address)) as NodeJS.ErrnoException, '');
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

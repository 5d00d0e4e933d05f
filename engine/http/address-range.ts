import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

function unbracketed(address: string): string {
  return address.replace(/^\[|\]$/g, '');
}

/**
 * The range an IP address belongs to, as ipaddr.js names it (`unicast`, `loopback`, `private`,
 * `linkLocal`, `uniqueLocal`, `multicast`, `unspecified`, `broadcast`, `carrierGradeNat`,
 * `reserved`, ...), after unmapping IPv4-mapped IPv6 (`::ffff:127.0.0.1` is `loopback`); `invalid`
 * for text that is not an address. Only `unicast` may be reached through a manifest's hosts:
 * everything else is this machine, its private networks, or no single host at all.
 * Why a library: the special ranges (CGNAT, NAT64, Teredo, documentation, ...) are many and follow
 * the RFCs; ipaddr.js keeps them (fastify already depends on it).
 */
export function addressRange(address: string): string {
  const text = unbracketed(address);
  if (isIP(text) === 0) return 'invalid';
  const parsed = ipaddr.process(text);
  const range = parsed.range();
  // IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291 §2.5.5.1) may still be tunnelled to
  // the IPv4 address; ipaddr.js calls it unicast, so it is named and refused here.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible';
  return range;
}

/** True for an IPv4 or IPv6 literal (brackets allowed): Node connects to those without a DNS lookup. */
export function isIpLiteral(host: string): boolean {
  return isIP(unbracketed(host)) !== 0;
}

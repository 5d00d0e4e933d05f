import type { Dispatcher } from 'undici';
import { HostNotAllowedError } from '../errors.js';
import { hostAllowed, type HostLists, type HostPurpose } from '../manifest/index.js';
import { addressRange, isIpLiteral } from './address-range.js';
import { guardedDispatcher, trustedDispatcher } from './dispatchers.js';
import { AddressRefused } from './guarded-lookup.js';

/** The rule a refused request broke. */
export type EgressRule = 'url' | 'credentials' | 'https' | 'address' | 'host';

/** What a permitted request must be sent with. */
export interface EgressPermit {
  /**
   * The undici dispatcher to send it through: for manifest-listed hosts one whose connections
   * refuse non-public addresses at connect time (AddressRefused); for operator-named origins a plain one.
   */
  dispatcher: Dispatcher;
}

export interface EgressPolicyOptions {
  /** The manifest's host lists. */
  hosts: HostLists;
  /**
   * Origins the operator named (base URL override, allowOrigins), already normalized by
   * `new URL(x).origin`: trusted exactly as named, http and loopback included, for any purpose.
   */
  trustedOrigins?: readonly string[];
  /** Names the connector in error messages. */
  label: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80', 'ftp:': '21' };

/** Host, port and path of a URL: all a refusal may show (the query may hold a presigned signature). */
function place(url: URL): string {
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const host = url.hostname || '(no host)';
  return `${host}${port ? `:${port}` : ''}${url.pathname.slice(0, 200)}`;
}

/**
 * Decides, before any connection, whether a request may go where its URL points: the outbound
 * side of DESIGN.md §6 ("a tenant cannot point the server at an internal address"). A URL is sent
 * only when it carries no user info and either its origin is one the operator named, or it is
 * https to a host the manifest lists for the request's purpose; then the address it resolves to
 * must be public unicast, checked at connect time by the permit's dispatcher so DNS rebinding
 * cannot pass. Nothing in credentials or config can widen what is allowed.
 */
export class EgressPolicy {
  private readonly trusted: ReadonlySet<string>;

  constructor(private readonly options: EgressPolicyOptions) {
    this.trusted = new Set(options.trustedOrigins ?? []);
  }

  /**
   * Parses a URL that came from an upstream answer or from credentials (a download URL, a
   * redirect's Location, an account base URL), relative to `base` when given; anything that is not
   * a URL is refused like a forbidden one (HOST_NOT_ALLOWED, rule url).
   */
  parse(text: unknown, purpose: HostPurpose, base?: URL): URL {
    if (typeof text === 'string' && text !== '') {
      try {
        return new URL(text, base);
      } catch {
        // Refused below.
      }
    }
    throw new HostNotAllowedError(`${this.options.label}: refused the ${purpose} request to an unparsable URL (rule url: it is not an absolute URL)`, {
      details: [{ path: `/hosts/${purpose}`, message: 'rule url: it is not an absolute URL' }],
    });
  }

  /**
   * Returns what the request must be sent with, or throws HOST_NOT_ALLOWED naming the purpose,
   * host, port and rule. `purposes` lists every list the URL may be found in (API calls may go to
   * the API hosts or to the account's own host).
   */
  permit(url: URL, purposes: HostPurpose | HostPurpose[]): EgressPermit {
    const names = Array.isArray(purposes) ? purposes : [purposes];
    const refuse = (rule: EgressRule, reason: string) => this.refusal(names, url, rule, reason);
    if (url.username !== '' || url.password !== '') throw refuse('credentials', 'a URL may not carry a user name or password');
    if (this.trusted.has(url.origin)) return { dispatcher: trustedDispatcher() };
    if (url.protocol !== 'https:') throw refuse('https', `only https may be used, not ${url.protocol.replace(/:$/, '') || 'this scheme'}`);
    if (isIpLiteral(url.hostname) && addressRange(url.hostname) !== 'unicast') {
      throw refuse('address', `${url.hostname} is a ${addressRange(url.hostname)} address; only public unicast addresses may be reached`);
    }
    if (!names.some((name) => hostAllowed(url.hostname, this.options.hosts[name]))) {
      const lists = names.map((name) => `hosts.${name} [${(this.options.hosts[name] ?? []).join(', ')}]`).join(' or ');
      throw refuse('host', `${url.hostname} is not in the manifest's ${lists} and is no operator-allowed origin`);
    }
    return { dispatcher: guardedDispatcher() };
  }

  /**
   * The HOST_NOT_ALLOWED of a request whose connection the guarded lookup refused (`error` is what
   * the request failed with), naming the request's purpose, host, port and rule; undefined for any
   * other failure.
   */
  connectRefusal(error: unknown, url: URL, purposes: HostPurpose | HostPurpose[]): HostNotAllowedError | undefined {
    const refused = error instanceof AddressRefused ? error : (error as { cause?: unknown } | undefined)?.cause;
    if (!(refused instanceof AddressRefused)) return undefined;
    const reason = `${url.hostname} resolves to ${refused.address}, a ${refused.range} address; only public unicast addresses may be reached`;
    return this.refusal(Array.isArray(purposes) ? purposes : [purposes], url, 'address', reason);
  }

  private refusal(purposes: HostPurpose[], url: URL, rule: EgressRule, reason: string): HostNotAllowedError {
    const purpose = purposes.join('/');
    return new HostNotAllowedError(`${this.options.label}: refused the ${purpose} request to ${place(url)} (rule ${rule}: ${reason})`, {
      details: [{ path: `/hosts/${purposes[0] ?? 'api'}`, message: `rule ${rule}: ${reason}` }],
    });
  }
}

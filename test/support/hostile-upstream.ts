import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listener that must never be reached: it counts every TCP connection and every HTTP request. */
export interface Attacker {
  /** The address it listens on, as a URL host (`127.0.0.2`, `[::1]`). */
  host: string;
  port: number;
  /** `scheme://host:port` of the listener. */
  origin(scheme?: string): string;
  connections: number;
  requests: number;
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Starts an attacker on `address` (127.0.0.1, 127.0.0.2, ::1). Resolves to undefined when the
 * machine cannot bind that address (no IPv6 loopback), so a test can skip just those cases.
 */
export async function startAttacker(address: string): Promise<Attacker | undefined> {
  const counts = { connections: 0, requests: 0 };
  const server = createServer((_req, res) => {
    counts.requests++;
    res.end('attacker content');
  });
  server.on('connection', () => counts.connections++);
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL' || (error as NodeJS.ErrnoException).code === 'EAFNOSUPPORT') return undefined;
    throw error;
  }
  const host = address.includes(':') ? `[${address}]` : address;
  const port = (server.address() as AddressInfo).port;
  return {
    host,
    port,
    origin: (scheme = 'http') => `${scheme}://${host}:${port}`,
    get connections() {
      return counts.connections;
    },
    get requests() {
      return counts.requests;
    },
    close: () => closeServer(server),
  };
}

/**
 * An upstream of the tests' own, trusted by the operator (tests aim the shipped manifests at it
 * with `baseUrl` / `upstreams`), that answers with hostile URLs: Asana-like attachments whose
 * download_url is whatever `fileUrls` says, Gong-like token answers whose
 * api_base_url_for_customer is `customerBaseUrl`, and redirect chains.
 */
export interface HostileUpstream {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** download_url (Asana attachments) or url (the egress fixture's files) per record id. */
  fileUrls: Map<string, string>;
  /** What the next token answers name as the account's base URL. */
  customerBaseUrl: string;
  /** Token requests answered so far. */
  tokenRequests: number;
  /** Paths requested so far (without query strings). */
  paths: string[];
  /** A URL on this upstream that redirects `hops` times, the last time to `target`. */
  redirect(hops: number, target: string): string;
  close(): Promise<void>;
}

function json(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Starts the hostile upstream on 127.0.0.1 (a free port). */
export async function startHostileUpstream(): Promise<HostileUpstream> {
  const state = { customerBaseUrl: '', tokenRequests: 0 };
  const fileUrls = new Map<string, string>();
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hostile');
    paths.push(url.pathname);
    const attachment = /^\/api\/1\.0\/attachments\/(\w+)$/.exec(url.pathname);
    const file = /^\/egress\/files\/(\w+)$/.exec(url.pathname);
    if (attachment) {
      const gid = attachment[1]!;
      return json(res, 200, {
        data: { gid, resource_type: 'attachment', name: `file-${gid}.bin`, resource_subtype: 'asana', host: 'asana', download_url: fileUrls.get(gid) ?? null },
      });
    }
    if (file) return json(res, 200, { id: file[1], url: fileUrls.get(file[1]!) ?? null });
    if (url.pathname === '/hop') {
      const hops = Number(url.searchParams.get('n'));
      const target = url.searchParams.get('to') ?? '/';
      res.writeHead(302, { location: hops > 1 ? `/hop?n=${hops - 1}&to=${encodeURIComponent(target)}` : target });
      return res.end();
    }
    if (url.pathname === '/file') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('legit file bytes');
    }
    if (url.pathname === '/oauth2/generate-customer-token' && req.method === 'POST') {
      state.tokenRequests++;
      const n = state.tokenRequests;
      return json(res, 200, {
        access_token: `hostile-access-${n}`,
        refresh_token: `hostile-refresh-${n}`,
        expires_in: 3600,
        token_type: 'bearer',
        scope: 'api:users:read',
        api_base_url_for_customer: state.customerBaseUrl,
      });
    }
    return json(res, 404, { errors: [{ message: 'not here' }] });
  });
  await listen(server, '127.0.0.1');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    fileUrls,
    paths,
    get customerBaseUrl() {
      return state.customerBaseUrl;
    },
    set customerBaseUrl(value: string) {
      state.customerBaseUrl = value;
    },
    get tokenRequests() {
      return state.tokenRequests;
    },
    redirect: (hops, target) => `${origin}/hop?n=${hops}&to=${encodeURIComponent(target)}`,
    close: () => closeServer(server),
  };
}

/** A presigned-looking query: it must never show in an error, a response or a log line. */
export const SECRET_QUERY = '?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=TOPSECRETSIGNATURE';

/**
 * The hostile download URLs of the attack, by name: where each points, the rule that must refuse
 * it, and the host:port the refusal must name. `v6` is undefined when there is no IPv6 loopback.
 */
export function hostileFileUrls(
  upstream: HostileUpstream,
  a4: Attacker,
  a2: Attacker,
  v6: Attacker | undefined,
): Array<{ name: string; url: string; rule: string; place: string }> {
  const up = new URL(upstream.origin);
  const cases = [
    { name: 'another loopback address', url: `${a2.origin()}/f${SECRET_QUERY}`, rule: 'https', place: `${a2.host}:${a2.port}/f` },
    { name: 'another loopback address over https', url: `${a2.origin('https')}/f${SECRET_QUERY}`, rule: 'address', place: `${a2.host}:${a2.port}/f` },
    { name: 'another port of the upstream host', url: `http://${up.hostname}:${a4.port}/f${SECRET_QUERY}`, rule: 'https', place: `127.0.0.1:${a4.port}/f` },
    { name: 'HTTP:// in upper case', url: `HTTP://127.0.0.1:${a4.port}/f${SECRET_QUERY}`, rule: 'https', place: `127.0.0.1:${a4.port}/f` },
    { name: 'a file: URL', url: 'file:///etc/passwd', rule: 'https', place: '(no host)/etc/passwd' },
    { name: 'an ftp: URL', url: `ftp://127.0.0.1:${a4.port}/f`, rule: 'https', place: `127.0.0.1:${a4.port}/f` },
    { name: 'a URL with credentials', url: `http://user:pass@127.0.0.1:${a4.port}/f`, rule: 'credentials', place: `127.0.0.1:${a4.port}/f` },
    { name: 'credentials on the trusted upstream itself', url: `http://user:pass@${up.host}/file`, rule: 'credentials', place: `${up.host}/file` },
    { name: 'one redirect to an attacker', url: upstream.redirect(1, `${a4.origin()}/f${SECRET_QUERY}`), rule: 'https', place: `127.0.0.1:${a4.port}/f` },
    { name: 'two redirects to an attacker', url: upstream.redirect(2, `${a2.origin()}/f${SECRET_QUERY}`), rule: 'https', place: `${a2.host}:${a2.port}/f` },
    { name: 'a redirect to a loopback https URL', url: upstream.redirect(1, `${a2.origin('https')}/f`), rule: 'address', place: `${a2.host}:${a2.port}/f` },
    { name: 'an https host not in the manifest', url: `https://files.evil.test/f${SECRET_QUERY}`, rule: 'host', place: 'files.evil.test:443/f' },
    { name: 'a look-alike of an allowed host', url: 'https://s3.amazonaws.com.evil.test/f', rule: 'host', place: 's3.amazonaws.com.evil.test:443/f' },
    { name: 'the metadata address', url: 'https://169.254.169.254/latest/meta-data', rule: 'address', place: '169.254.169.254:443/latest/meta-data' },
    { name: 'an IPv4-mapped IPv6 loopback', url: `https://[::ffff:127.0.0.1]:${a4.port}/f`, rule: 'address', place: `[::ffff:7f00:1]:${a4.port}/f` },
  ];
  if (v6) {
    cases.push(
      { name: 'the IPv6 loopback', url: `${v6.origin()}/f${SECRET_QUERY}`, rule: 'https', place: `${v6.host}:${v6.port}/f` },
      { name: 'the IPv6 loopback over https', url: `${v6.origin('https')}/f`, rule: 'address', place: `${v6.host}:${v6.port}/f` },
    );
  }
  return cases;
}

/**
 * Hostile values of Gong's api_base_url_for_customer (from a token answer, or put in the
 * credentials by a tenant): where each points, the rule that must refuse it, and what the
 * refusal must name.
 */
export function hostileAccountUrls(a4: Attacker, a2: Attacker, v6: Attacker | undefined): Array<{ name: string; url: string; rule: string; place: string }> {
  const cases = [
    { name: 'the upstream host on another port', url: a4.origin(), rule: 'https', place: `127.0.0.1:${a4.port}/` },
    { name: 'the upstream host on another port over https', url: a4.origin('https'), rule: 'address', place: `127.0.0.1:${a4.port}/` },
    { name: 'another loopback address', url: a2.origin(), rule: 'https', place: `${a2.host}:${a2.port}/` },
    { name: 'HTTP:// in upper case', url: `HTTP://127.0.0.1:${a4.port}`, rule: 'https', place: `127.0.0.1:${a4.port}/` },
    { name: 'a look-alike customer host', url: 'https://company-17.api.gong.io.evil.test', rule: 'host', place: 'company-17.api.gong.io.evil.test:443/' },
    { name: 'user info hiding the real host', url: `https://company-17.api.gong.io@127.0.0.1:${a4.port}`, rule: 'credentials', place: `127.0.0.1:${a4.port}/` },
    { name: 'text that is no URL', url: 'company-17.api.gong.io', rule: 'url', place: 'an unparsable URL' },
  ];
  if (v6) cases.push({ name: 'the IPv6 loopback over https', url: v6.origin('https'), rule: 'address', place: `${v6.host}:${v6.port}/` });
  return cases;
}

/** The three attackers every egress test aims at: 127.0.0.1, 127.0.0.2 and ::1 (absent without IPv6 loopback). */
export interface Attackers {
  a4: Attacker;
  a2: Attacker;
  v6: Attacker | undefined;
  close(): Promise<void>;
}

/** Starts the attackers on their loopback addresses (another port of 127.0.0.1, another address, IPv6). */
export async function startAttackers(): Promise<Attackers> {
  const a4 = await startAttacker('127.0.0.1');
  const a2 = await startAttacker('127.0.0.2');
  if (!a4 || !a2) throw new Error('cannot listen on 127.0.0.1 and 127.0.0.2');
  // Skipped only when this machine has no IPv6 loopback.
  const v6 = await startAttacker('::1');
  return { a4, a2, v6, close: async () => void (await Promise.all([a4.close(), a2.close(), v6?.close()])) };
}

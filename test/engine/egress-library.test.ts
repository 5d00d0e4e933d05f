import { createHash } from 'node:crypto';
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addressRange, connect, DownloadStream, HostNotAllowedError, loadManifestFile, type ListResult } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import {
  hostileAccountUrls,
  hostileFileUrls,
  SECRET_QUERY,
  startAttackers,
  startHostileUpstream,
  type Attacker,
  type Attackers,
  type HostileUpstream,
} from '../support/hostile-upstream.js';

let upstream: HostileUpstream;
let attackers: Attackers;
let a4: Attacker;
let a2: Attacker;
let v6: Attacker | undefined;
let sandbox: Sandbox;

beforeAll(async () => {
  upstream = await startHostileUpstream();
  attackers = await startAttackers();
  ({ a4, a2, v6 } = attackers);
  sandbox = await startSandbox({ rateLimits: false });
});
afterAll(async () => {
  await Promise.all([upstream?.close(), attackers?.close(), sandbox?.close()]);
});

/** Connections and requests every attacker received: all must stay 0. */
function attackerTraffic(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const attacker of [a4, a2, v6]) if (attacker) out[attacker.origin()] = attacker.connections + attacker.requests;
  return out;
}

function untouched(): Record<string, number> {
  return Object.fromEntries(Object.keys(attackerTraffic()).map((origin) => [origin, 0]));
}

async function failure(promise: Promise<unknown>): Promise<HostNotAllowedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostNotAllowedError);
  return error as HostNotAllowedError;
}

function expectRefusal(error: HostNotAllowedError, purpose: string, place: string, rule: string): void {
  expect(error.code).toBe('HOST_NOT_ALLOWED');
  expect(error.status).toBe(502);
  expect(error.retryable).toBe(false);
  expect(error.message).toContain(`${purpose} request to ${place}`);
  expect(error.message).toContain(`(rule ${rule}: `);
  expect(error.details).toEqual([{ path: `/hosts/${purpose}`, message: expect.stringMatching(new RegExp(`^rule ${rule}: `)) }]);
  expect(JSON.stringify(error.toJSON())).not.toContain('TOPSECRET');
}

describe('Asana download URLs from a hostile upstream', () => {
  test('every hostile download_url is refused before it connects, naming host and rule', async () => {
    const asana = connect('asana', { credentials: { token: 'pat-of-the-victim' }, baseUrl: `${upstream.origin}/api/1.0`, rateLimit: false });
    const cases = hostileFileUrls(upstream, a4, a2, v6);
    expect(cases.length).toBeGreaterThanOrEqual(15);
    for (const [index, hostile] of cases.entries()) {
      const gid = String(1000 + index);
      upstream.fileUrls.set(gid, hostile.url);
      const error = await failure(asana.execute('attachments', 'download', { attachment_gid: gid }));
      expectRefusal(error, 'files', hostile.place, hostile.rule);
    }
    expect(attackerTraffic()).toEqual(untouched());
  });

  test('redirects are followed hop by hop on allowed origins, at most 3 of them', async () => {
    const asana = connect('asana', { credentials: { token: 'pat' }, baseUrl: `${upstream.origin}/api/1.0`, rateLimit: false });
    upstream.fileUrls.set('2001', upstream.redirect(3, `${upstream.origin}/file`));
    const file = await asana.execute('attachments', 'download', { attachment_gid: '2001' });
    expect(file).toBeInstanceOf(DownloadStream);
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString()).toBe('legit file bytes');
    upstream.fileUrls.set('2002', upstream.redirect(4, `${upstream.origin}/file`));
    const looping = await asana.execute('attachments', 'download', { attachment_gid: '2002' }).catch((e) => e);
    expect(looping.code).toBe('UPSTREAM_ERROR');
    expect(looping.message).toContain('redirected more than 3 times');
  });
});

describe('Gong account base URLs', () => {
  test('every hostile api_base_url_for_customer in a token answer is refused loudly; the token goes nowhere', async () => {
    for (const hostile of hostileAccountUrls(a4, a2, v6)) {
      upstream.customerBaseUrl = hostile.url;
      const gong = connect('gong', {
        credentials: { client_id: 'client', client_secret: 'secret', refresh_token: 'refresh' },
        baseUrl: upstream.origin,
        rateLimit: false,
      });
      const error = await failure(gong.execute('users', 'list'));
      expectRefusal(error, 'account', hostile.place, hostile.rule);
      // The refresh itself went to the operator-named upstream and was kept; only the API call was refused.
      expect(gong.credentials.api_base_url_for_customer).toBe(hostile.url);
      expect(JSON.stringify(error.toJSON())).not.toContain(String(gong.credentials.access_token));
    }
    expect(attackerTraffic()).toEqual(untouched());
  });

  test('a customer host named in the credentials by their holder is refused before any request', async () => {
    const before = upstream.tokenRequests;
    const gong = connect('gong', {
      credentials: {
        client_id: 'c',
        client_secret: 's',
        refresh_token: 'r',
        access_token: 'tenant-token',
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        api_base_url_for_customer: `http://127.0.0.1:${a4.port}`,
      },
      baseUrl: upstream.origin,
      rateLimit: false,
    });
    expectRefusal(await failure(gong.execute('users', 'list')), 'account', `127.0.0.1:${a4.port}/`, 'https');
    expect(upstream.tokenRequests).toBe(before);
    expect(attackerTraffic()).toEqual(untouched());
  });
});

describe('the address actually connected to', () => {
  const demo = loadManifestFile(fileURLToPath(new URL('../fixtures/egress-localhost.yaml', import.meta.url)));

  test('a listed host name that resolves to loopback is refused at connect time, for API, token and file requests', async () => {
    const port = String(a4.port);
    const autoSelect = getDefaultAutoSelectFamily();
    const resolved = /rule address: localhost resolves to (127\.0\.0\.1|::1), a loopback address; only public unicast addresses may be reached/;
    try {
      // Both call shapes of the lookup: Node's autoSelectFamily asks for every address, without it one.
      for (const family of [true, false]) {
        setDefaultAutoSelectFamily(family);
        const api = connect(demo, { credentials: { token: 't' }, config: { port } });
        const apiError = await failure(api.execute('files', 'get', { id: '1' }));
        expect(apiError.message).toContain(`api/account request to localhost:${port}/api/files/1`);
        expect(apiError.message).toMatch(resolved);
        expect(api.stats.attempts).toBe(1);

        const oauth = connect(demo, { credentials: { client_id: 'c', client_secret: 's', refresh_token: 'r' }, config: { port } });
        const tokenError = await failure(oauth.execute('files', 'get', { id: '1' }));
        expect(tokenError.message).toContain(`token request to localhost:${port}/oauth/token`);
        expect(tokenError.message).toMatch(resolved);
        expect(tokenError.details![0]!.path).toBe('/hosts/token');

        upstream.fileUrls.set('7', `https://localhost:${port}/f${SECRET_QUERY}`);
        const files = connect(demo, { credentials: { token: 't' }, config: { port }, baseUrl: `${upstream.origin}/egress` });
        const fileError = await failure(files.execute('files', 'download', { id: '7' }));
        expectRefusal(fileError, 'files', `localhost:${port}/f`, 'address');
        expect(fileError.message).toMatch(resolved);
      }
    } finally {
      setDefaultAutoSelectFamily(autoSelect);
    }
    expect(attackerTraffic()).toEqual(untouched());
  });

  test.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::7f00:1', 'ipv4Compatible'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2001:db8::1', 'reserved'],
    ['localhost', 'invalid'],
    ['8.8.8.8', 'unicast'],
    ['2606:4700::1', 'unicast'],
    ['::ffff:8.8.8.8', 'unicast'],
  ])('addressRange(%s) is %s', (address, range) => {
    expect(addressRange(address)).toBe(range);
  });
});

describe('operator-named origins', () => {
  test.each([
    [['ftp://files.example.com'], '/allowOrigins/0', 'must be http or https'],
    [['http://127.0.0.1:9000/path'], '/allowOrigins/0', 'must be an origin (scheme://host[:port]) without a path'],
    [['https://files.example.com', 'not a url'], '/allowOrigins/1', 'is not an absolute URL'],
    [['https://user:pw@files.example.com'], '/allowOrigins/0', 'may not carry a user name or password'],
    ['https://files.example.com', '/allowOrigins', 'must be an array'],
  ])('allowOrigins %j fails at connect with INVALID_CONFIG at %s', (allowOrigins, path, message) => {
    const error = (() => {
      try {
        connect('asana', { credentials: { token: 't' }, allowOrigins: allowOrigins as string[] });
      } catch (e) {
        return e as { code: string; details: unknown };
      }
      return undefined;
    })();
    expect(error?.code).toBe('INVALID_CONFIG');
    expect(error?.details).toEqual([{ path, message }]);
  });

  test("the sandbox's Asana file host is reachable only when allowed: 200, 206 and an expired URL read again", async () => {
    const info = sandbox.upstreams.asana!;
    const fake = sandbox.fakes.asana;
    const gid = fake.anchors.attachments.asana;
    const blobHost = new URL(info.allow_origins[0]!).host;
    const narrow = connect('asana', { credentials: info.credentials, baseUrl: info.base_url, rateLimit: false });
    const blobRequests = fake.blobRequests.length;
    expectRefusal(await failure(narrow.execute('attachments', 'download', { attachment_gid: gid })), 'files', `${blobHost}/`, 'https');
    expect(fake.blobRequests.length).toBe(blobRequests);

    const asana = connect('asana', { credentials: info.credentials, baseUrl: info.base_url, allowOrigins: info.allow_origins, rateLimit: false });
    const whole = await asana.execute('attachments', 'download', { attachment_gid: gid });
    const hash = createHash('sha256');
    for await (const chunk of whole) hash.update(chunk);
    expect(whole.status).toBe(200);
    expect(hash.digest('hex')).toBe(fake.blobSha256(gid));
    const part = await asana.execute('attachments', 'download', { attachment_gid: gid, range_header: 'bytes=0-9' });
    let bytes = 0;
    for await (const chunk of part) bytes += chunk.length;
    expect([part.status, bytes, part.contentRange?.startsWith('bytes 0-9/')]).toEqual([206, 10, true]);
    fake.expireNextDownloadUrls(1);
    const again = await asana.execute('attachments', 'download', { attachment_gid: gid });
    for await (const chunk of again) void chunk;
    expect(again.status).toBe(200);
    expect(fake.blobRequests.slice(-2).map((r) => r.status)).toEqual([403, 200]);
  });

  test("the sandbox's Gong customer host is reachable only when allowed", async () => {
    const info = sandbox.upstreams.gong!;
    const fake = sandbox.fakes.gong;
    const customer = new URL(info.allow_origins[0]!).host;
    const onCustomerHost = () => fake.requests.filter((r) => fake.hostOf(r) === 'customer').length;
    const oauth = () => ({
      client_id: info.credentials_by_scheme.oauth!.client_id!,
      client_secret: info.credentials_by_scheme.oauth!.client_secret!,
      refresh_token: fake.currentRefreshToken(),
    });
    const before = onCustomerHost();
    const narrow = connect('gong', { credentials: oauth(), baseUrl: info.base_url, rateLimit: false });
    expectRefusal(await failure(narrow.execute('users', 'list')), 'account', `${customer}/`, 'https');
    expect(onCustomerHost()).toBe(before);

    // The refused connection's refresh rotated the single-use refresh token; oauth() reads the new one.
    const gong = connect('gong', { credentials: oauth(), baseUrl: info.base_url, allowOrigins: info.allow_origins, rateLimit: false });
    const users = (await gong.execute('users', 'list')) as ListResult;
    expect(users.data.length).toBeGreaterThan(0);
    expect(onCustomerHost()).toBeGreaterThan(before);
  });
});

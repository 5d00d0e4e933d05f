import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { runCli } from '../support/cli.js';

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  // Default records and seed: the same attachment gids as the sandbox `exec --sandbox` starts.
  sandbox = await startSandbox({ rateLimits: false });
  dir = mkdtempSync(join(tmpdir(), 'egress-cli-'));
});
afterAll(() => sandbox?.close());

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

describe('connector-engine exec', () => {
  test("--sandbox downloads from the fake's file host: the whole file, then a range", async () => {
    const fake = sandbox.fakes.asana;
    const gid = fake.anchors.attachments.asana;
    const whole = join(dir, 'whole.bin');
    const full = await runCli([
      'exec',
      'asana',
      'attachments',
      'download',
      '--sandbox',
      '--params',
      JSON.stringify({ attachment_gid: gid }),
      '--output',
      whole,
    ]);
    expect(full.code, full.stderr).toBe(0);
    expect(JSON.parse(full.stderr)).toMatchObject({ status: 200, output: whole });
    expect(sha256(whole)).toBe(fake.blobSha256(gid));
    const part = join(dir, 'part.bin');
    const ranged = await runCli([
      'exec',
      'asana',
      'attachments',
      'download',
      '--sandbox',
      '--params',
      JSON.stringify({ attachment_gid: gid, range_header: 'bytes=0-9' }),
      '--output',
      part,
    ]);
    expect(ranged.code, ranged.stderr).toBe(0);
    expect(JSON.parse(ranged.stderr)).toMatchObject({ status: 206, content_length: 10 });
    expect(readFileSync(part)).toEqual(readFileSync(whole).subarray(0, 10));
  }, 60_000);

  test('--base-url with --allow-origin reaches the file host, and an expired URL is read again', async () => {
    const info = sandbox.upstreams.asana!;
    const fake = sandbox.fakes.asana;
    const gid = fake.anchors.attachments.asana;
    writeFileSync(join(dir, 'asana.json'), JSON.stringify(info.credentials));
    const output = join(dir, 'again.bin');
    const args = [
      'exec',
      'asana',
      'attachments',
      'download',
      '--params',
      JSON.stringify({ attachment_gid: gid }),
      '--credentials',
      join(dir, 'asana.json'),
      '--base-url',
      info.base_url,
      '--output',
      output,
    ];
    fake.expireNextDownloadUrls(1);
    const result = await runCli([...args, ...info.allow_origins.flatMap((origin) => ['--allow-origin', origin])]);
    expect(result.code, result.stderr).toBe(0);
    expect(sha256(output)).toBe(fake.blobSha256(gid));
    expect(fake.blobRequests.slice(-2).map((r) => r.status)).toEqual([403, 200]);
  });

  test('Gong OAuth: the customer host is refused without --allow-origin and used with it', async () => {
    const info = sandbox.upstreams.gong!;
    const fake = sandbox.fakes.gong;
    const { client_id, client_secret } = info.credentials_by_scheme.oauth!;
    const file = join(dir, 'gong.json');
    writeFileSync(file, JSON.stringify({ client_id, client_secret, refresh_token: fake.currentRefreshToken() }));
    const customer = new URL(info.allow_origins[0]!).host;
    const onCustomerHost = () => fake.requests.filter((r) => fake.hostOf(r) === 'customer').length;
    const before = onCustomerHost();
    const args = ['exec', 'gong', 'users', 'list', '--credentials', file, '--base-url', info.base_url];
    const refused = await runCli(args);
    expect(refused.code).toBe(1);
    const error = JSON.parse(refused.stderr).error;
    expect(error).toMatchObject({
      code: 'HOST_NOT_ALLOWED',
      retryable: false,
      details: [{ path: '/hosts/account', message: expect.stringMatching(/^rule https: /) }],
    });
    expect(error.message).toContain(`account request to ${customer}/ (rule https: only https may be used, not http)`);
    expect(onCustomerHost()).toBe(before);
    // The refresh before the refusal rotated the single-use refresh token; the file holds the new one.
    expect(JSON.parse(readFileSync(file, 'utf8')).refresh_token).toBe(fake.currentRefreshToken());
    const allowed = await runCli([...args, '--allow-origin', info.allow_origins[0]!]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).data.length).toBeGreaterThan(0);
    expect(onCustomerHost()).toBeGreaterThan(before);
  });
});

test('serve refuses to start with an ENGINE_ALLOW_ORIGINS_<TYPE> that is not a list of origins', async () => {
  const result = await runCli(['serve', '--port', '0', '--database-url', `sqlite:${join(dir, 'never.db')}`], undefined, {
    ENGINE_ALLOW_ORIGINS_ASANA: 'http://127.0.0.1:9/files',
  });
  expect(result.code).toBe(1);
  const error = JSON.parse(result.stderr).error;
  expect(error.code).toBe('INVALID_REQUEST');
  expect(error.message).toContain('ENGINE_ALLOW_ORIGINS_ASANA');
  expect(error.message).toContain('must be an origin (scheme://host[:port]) without a path');
});

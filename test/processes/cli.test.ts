import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { MINIMAL_MANIFEST } from '../fixtures/minimal-manifest.js';

let sandbox: ChildProcess;
let upstreams: Record<
  string,
  { base_url: string; credentials: Record<string, string>; credentials_by_scheme: Record<string, Record<string, string>>; config: object }
>;
let dir: string;
let credentialsFile: string;

beforeAll(async () => {
  const started = await startCli(['sandbox', '--no-rate-limits', '--records', '1100', '--seed', '7']);
  sandbox = started.child;
  upstreams = JSON.parse(started.firstLine);
  dir = mkdtempSync(join(tmpdir(), 'cli-'));
  credentialsFile = join(dir, 'hubspot.json');
  writeFileSync(credentialsFile, JSON.stringify(upstreams.hubspot!.credentials));
});
afterAll(() => {
  sandbox?.kill('SIGTERM');
});

function exec(entity: string, action: string, params?: object, extra: string[] = []) {
  return runCli([
    'exec',
    'hubspot',
    entity,
    action,
    ...(params ? ['--params', JSON.stringify(params)] : []),
    '--credentials',
    credentialsFile,
    '--base-url',
    upstreams.hubspot!.base_url,
    ...extra,
  ]);
}

describe('connector-engine sandbox', () => {
  test('prints one JSON line with a base URL, credentials per scheme and config', () => {
    const hubspot = upstreams.hubspot!;
    expect(hubspot.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(hubspot.credentials_by_scheme).sort()).toEqual(['oauth', 'private_app']);
    expect(hubspot.credentials).toEqual(hubspot.credentials_by_scheme.private_app);
    expect(hubspot.config).toEqual({});
  });
});

describe('connector-engine exec', () => {
  test('list prints records and meta as JSON', async () => {
    const result = await exec('contacts', 'list', { limit: 3 });
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.data).toHaveLength(3);
    expect(body.meta).toEqual({ has_more: true, next_cursor: expect.any(String), next_link: expect.any(String) });
    const next = JSON.parse((await exec('contacts', 'list', { limit: 3, after: body.meta.next_cursor })).stdout);
    expect(next.data[0].id).not.toBe(body.data[0].id);
  });

  test('get prints one record', async () => {
    const list = JSON.parse((await exec('deals', 'list', { limit: 1 })).stdout);
    const result = await exec('deals', 'get', { dealId: list.data[0].id });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data).toEqual(list.data[0]);
  });

  test('api_search, schemas and objects work from the command line', async () => {
    const search = JSON.parse((await exec('tickets', 'api_search', { limit: 4 })).stdout);
    expect(search.data).toHaveLength(4);
    expect(search.meta.total).toBeGreaterThan(4);
    const schemas = JSON.parse((await exec('schemas', 'list')).stdout);
    const objectType = schemas.data[0].objectTypeId;
    const objects = JSON.parse((await exec('objects', 'list', { objectType, limit: 2 })).stdout);
    expect(objects.data).toHaveLength(2);
  });

  test('--all prints every record as one JSON line each', async () => {
    const result = await exec('contacts', 'list', { limit: 100 }, ['--all']);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(lines.map((r) => r.id)).size).toBe(lines.length);
  });

  test('bad params exit 1 with the typed error as JSON on stderr', async () => {
    const result = await exec('contacts', 'list', { limit: 0 });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: 'INVALID_PARAMS', message: expect.any(String), retryable: false, details: [{ path: '/limit', message: 'must be >= 1' }] },
    });
  });

  test('unreadable credentials and malformed --params are named', async () => {
    const missing = await runCli(['exec', 'hubspot', 'contacts', 'list', '--credentials', join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: '--credentials' }] });
    const malformed = await exec('contacts', 'list', undefined, ['--params', '{limit: 3}']);
    expect(JSON.parse(malformed.stderr).error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: '--params' }] });
  });

  test('OAuth credentials refreshed by exec are written back to the file, mode 0600', async () => {
    const oauthFile = join(dir, 'oauth.json');
    const { access_token: _dropped, ...withoutAccess } = upstreams.hubspot!.credentials_by_scheme.oauth!;
    writeFileSync(oauthFile, JSON.stringify(withoutAccess));
    const result = await runCli([
      'exec',
      'hubspot',
      'companies',
      'list',
      '--params',
      '{"limit":1}',
      '--credentials',
      oauthFile,
      '--base-url',
      upstreams.hubspot!.base_url,
    ]);
    expect(result.code).toBe(0);
    const saved = JSON.parse(readFileSync(oauthFile, 'utf8'));
    expect(saved.access_token).toEqual(expect.any(String));
    expect(saved.refresh_token).toBe(withoutAccess.refresh_token);
    expect(statSync(oauthFile).mode & 0o777).toBe(0o600);
  });
});

describe('connector-engine entities and lint', () => {
  test('entities --json lists entities, actions and params', async () => {
    const result = await runCli(['entities', 'hubspot', '--json']);
    const body = JSON.parse(result.stdout);
    expect(Object.keys(body)).toEqual(['contacts', 'companies', 'deals', 'tickets', 'schemas', 'objects']);
    // SPEC.md: contacts offer search (on the synchronized copy); tickets do not.
    expect(Object.keys(body.contacts)).toEqual(['list', 'get', 'api_search', 'search']);
    expect(Object.keys(body.tickets)).toEqual(['list', 'get', 'api_search']);
    expect(body.contacts.search.params.query).toMatchObject({ type: 'object', required: true });
    expect(body.objects.get.params.objectId).toMatchObject({ type: 'string', required: true });
    expect(body.contacts.list.rules).toEqual(['history-page-size: with propertiesWithHistory, limit can be at most 50']);
    // The sync plan's typed paths, next to the search params (issue 12).
    expect(body.deals.search.value_types).toEqual({
      'properties.amount': 'number',
      'properties.hs_object_id': 'number',
      createdAt: 'date-time',
      updatedAt: 'date-time',
      'properties.closedate': 'date-time',
      'properties.createdate': 'date-time',
      'properties.hs_lastmodifieddate': 'date-time',
    });
    expect(body.deals.list.value_types).toBeUndefined();
  });

  test('entities in text names the typed paths of search', async () => {
    const result = await runCli(['entities', 'shopify']);
    expect(result.code).toBe(0);
    const orders = result.stdout.slice(result.stdout.indexOf('\norders\n'));
    expect(orders).toContain(
      '\n    value type total_price: number\n    value type subtotal_price: number\n    value type created_at: date-time\n    value type updated_at: date-time\n',
    );
  });

  test('lint passes the shipped manifests and reports a broken one with file:line:col', async () => {
    const ok = await runCli(['lint']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/manifests? checked, 0 problems/);
    const file = join(dir, 'broken.yaml');
    writeFileSync(
      file,
      MINIMAL_MANIFEST.replace('param: cursor }', 'param: page }').replace('method: GET\n          path: /items', 'method: FETCH\n          path: /items'),
    );
    const bad = await runCli(['lint', file]);
    expect(bad.code).toBe(1);
    const lines = bad.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/broken\.yaml:\d+:\d+ /);
  });

  test('an unknown type is a clear error', async () => {
    const result = await runCli(['entities', 'salesforce']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error.code).toBe('UNKNOWN_CONNECTOR_TYPE');
  });

  test.each(['0', '2.5'])('sync --batch-size %s is refused naming the option, before any database is opened', async (size) => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-batch-'));
    const result = await runCli(['sync', 'c_any', '--batch-size', size, '--database-url', `sqlite:${join(dir, 'engine.db')}`]);
    expect(result.code).toBe(1);
    const error = JSON.parse(result.stderr).error;
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual([{ path: '--batch-size', message: 'must be a whole number from 1 to 10000' }]);
    expect(() => statSync(join(dir, 'engine.db'))).toThrow();
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { CLI, runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

let sandbox: Sandbox;
let cluster: PostgresCluster;
const servers: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  cluster = await startPostgres();
}, 120_000);
afterAll(async () => {
  for (const server of servers) server.kill('SIGTERM');
  await sandbox?.close();
  await cluster?.stop();
});

/** Starts `connector-engine serve` as its own process and resolves with the URL it logs. */
function serve(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
      env: { ...process.env, ...env },
      cwd: mkdtempSync(`${tmpdir()}/serve-`),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /connector-engine listening on (http:\/\/\S+?)"/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

test('two server processes on one PostgreSQL: 100 concurrent executes with an expired OAuth token refresh once', async () => {
  const databaseUrl = await cluster.createDatabase();
  const env = {
    ENGINE_DATABASE_URL: databaseUrl,
    ENGINE_SECRET: 'shared-secret-of-both-processes',
    ENGINE_UPSTREAM_HUBSPOT: sandbox.upstreams.hubspot!.base_url,
    ENGINE_LOG_LEVEL: 'warn',
  };
  const [first, second] = await Promise.all([serve(env), serve(env)]);
  const created = await runCli(['clients', 'create', '--name', 'two-processes', '--database-url', databaseUrl]);
  expect(created.code).toBe(0);
  const client = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
  const token = (await call(first!, 'POST', '/v1/auth/token', { body: { ...client, external_user_id: 'u1' } })).body.access_token as string;

  const fake = sandbox.fakes.hubspot;
  const expired = fake.issueAccessToken(1800);
  fake.expireAllAccessTokens();
  const oauth = sandbox.upstreams.hubspot!.credentials_by_scheme.oauth!;
  const connector = await call(second!, 'POST', '/v1/integrations/connectors', {
    token,
    body: {
      external_user_id: 'u1',
      connector_type: 'hubspot',
      credentials: { client_id: oauth.client_id, client_secret: oauth.client_secret, refresh_token: oauth.refresh_token, access_token: expired },
      // The credentials check would refresh the expired token at create; this test wants that refresh at use.
      check_credentials: false,
    },
  });
  expect(connector.status).toBe(201);

  const before = fake.stats.tokenRequests;
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      call(i % 2 === 0 ? first! : second!, 'POST', `/api/v1/connectors/sources/${connector.body.id}/execute`, {
        body: { entity: 'contacts', action: 'list', params: { limit: 1 } },
        token,
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
  expect(answers.every((a) => a.body.data.length === 1)).toBe(true);
  expect(fake.stats.tokenRequests - before).toBe(1);
}, 120_000);

test('on an empty data directory, serve creates the SQLite database and key and says how to get a platform client', async () => {
  const dir = mkdtempSync(`${tmpdir()}/fresh-`);
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, ENGINE_SECRET: '', ENGINE_DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('no platform client yet')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  expect(lines.some((l) => /connector-engine listening on http:\/\/127\.0\.0\.1:\d+/.test(l))).toBe(true);
  expect(existsSync(join(dir, 'data', 'engine.db'))).toBe(true);
  expect(statSync(join(dir, 'data', 'engine.key')).mode & 0o777).toBe(0o600);
  child.kill('SIGTERM');
});

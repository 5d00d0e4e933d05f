/**
 * A service process keeps what it looked up per request (the token's check, the platform client,
 * the connector and its decrypted credentials) until the database says it changed. Two `serve`
 * processes on one database (an SQLite file, then PostgreSQL): whatever changes through the one,
 * or through the CLI, the other sees on its very next request, having served the old state just
 * before. On PostgreSQL the signal is a version row every tenancy write raises; while it cannot
 * be read nothing is kept.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { runCli } from '../support/cli.js';
import { call, type HttpAnswer } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { killAll, startServe, type ServeProcess } from '../support/sync-processes.js';

const SECRET = 'tenancy-cache-processes-secret';
let sandbox: Sandbox;
let cluster: PostgresCluster;

beforeAll(async () => {
  [sandbox, cluster] = await Promise.all([startSandbox({ rateLimits: false }), startPostgres()]);
}, 120_000);
afterAll(async () => {
  await killAll();
  await sandbox?.close();
  await cluster?.stop();
});

/** Two service processes on one database, and a platform client of it. */
interface Pair {
  a: ServeProcess;
  b: ServeProcess;
  databaseUrl: string;
  client: { client_id: string; client_secret: string };
}

async function createClient(databaseUrl: string): Promise<{ client_id: string; client_secret: string }> {
  const created = await runCli(['clients', 'create', '--name', 'tenancy-cache', '--database-url', databaseUrl]);
  if (created.code !== 0) throw new Error(`clients create: ${created.stderr}`);
  return JSON.parse(created.stdout) as { client_id: string; client_secret: string };
}

async function startPair(backend: 'sqlite' | 'postgres'): Promise<Pair> {
  const databaseUrl = backend === 'postgres' ? await cluster.createDatabase() : `sqlite:${join(mkdtempSync(join(tmpdir(), 'tenancy-cache-')), 'engine.db')}`;
  const env = {
    ENGINE_DATABASE_URL: databaseUrl,
    ENGINE_SECRET: SECRET,
    ENGINE_UPSTREAM_HUBSPOT: sandbox.upstreams.hubspot!.base_url,
    ENGINE_LOG_LEVEL: 'warn',
  };
  // Without client-side limits: their slots live in the database, and a take for a deleted
  // connector would refuse the call there, whatever the process kept. One after the other: the
  // first creates and migrates the database.
  const a = await startServe(env, ['--no-sync', '--no-rate-limits']);
  const b = await startServe(env, ['--no-sync', '--no-rate-limits']);
  return { a, b, databaseUrl, client: await createClient(databaseUrl) };
}

async function tokenOf(serve: ServeProcess, client: Pair['client'], user = 'u1'): Promise<string> {
  const answer = await call(serve.url, 'POST', '/v1/auth/token', { body: { ...client, external_user_id: user } });
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

async function createHubspot(serve: ServeProcess, token: string, credentials: Record<string, unknown>): Promise<string> {
  const answer = await call(serve.url, 'POST', '/v1/integrations/connectors', {
    token,
    body: { external_user_id: 'u1', connector_type: 'hubspot', credentials, check_credentials: false },
  });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

function listContacts(serve: ServeProcess, token: string, id: string): Promise<HttpAnswer> {
  return call(serve.url, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token, body: { entity: 'contacts', action: 'list', params: { limit: 1 } } });
}

/** The bearer tokens of the contacts requests the fake received, oldest first. */
function bearersSeen(): string[] {
  return sandbox.fakes.hubspot.requests.filter((r) => r.path.startsWith('/crm/v3/objects/contacts')).map((r) => String(r.headers.authorization));
}

function privateApp(): Record<string, unknown> {
  return { access_token: sandbox.upstreams.hubspot!.credentials_by_scheme.private_app!.access_token };
}

describe.each(['sqlite', 'postgres'] as const)('%s: two service processes on one database', (backend) => {
  let pair: Pair;
  let token: string;
  beforeAll(async () => {
    pair = await startPair(backend);
    token = await tokenOf(pair.a, pair.client);
  }, 120_000);

  test('credentials PATCHed through A are what B sends upstream on its very next execute', async () => {
    const id = await createHubspot(pair.a, token, privateApp());
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
    expect(bearersSeen().at(-1)).toBe(`Bearer ${privateApp().access_token}`);
    const replacement = sandbox.fakes.hubspot.issueAccessToken(1800);
    const patched = await call(pair.a.url, 'PATCH', `/v1/integrations/connectors/${id}`, { token, body: { credentials: { access_token: replacement } } });
    expect(patched.status).toBe(200);
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
    expect(bearersSeen().at(-1)).toBe(`Bearer ${replacement}`);
  });

  test('a connector DELETEd through A answers CONNECTOR_NOT_FOUND from B at once', async () => {
    const id = await createHubspot(pair.a, token, privateApp());
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
    expect((await call(pair.a.url, 'DELETE', `/v1/integrations/connectors/${id}`, { token })).status).toBe(204);
    const gone = await listContacts(pair.b, token, id);
    expect([gone.status, gone.body.error.code]).toEqual([404, 'CONNECTOR_NOT_FOUND']);
  });

  test('an OAuth refresh in A is picked up by B: B sends the rotated token at once, with no refresh and no refused call of its own', async () => {
    const fake = sandbox.fakes.hubspot;
    const oauth = sandbox.upstreams.hubspot!.credentials_by_scheme.oauth!;
    const id = await createHubspot(pair.a, token, { ...oauth, access_token: fake.issueAccessToken(1800) });
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
    fake.expireAllAccessTokens();
    const refreshes = fake.stats.tokenRequests;
    expect((await listContacts(pair.a, token, id)).status).toBe(200);
    expect(fake.stats.tokenRequests).toBe(refreshes + 1);
    const rotated = bearersSeen().at(-1);
    fake.clearRequests();
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
    expect(bearersSeen()).toEqual([rotated]);
    expect(fake.stats.tokenRequests).toBe(refreshes + 1);
  });

  test('a token of another tenant never reaches the connector B keeps for the first', async () => {
    const id = await createHubspot(pair.a, token, privateApp());
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
    const otherUser = await tokenOf(pair.a, pair.client, 'u2');
    const otherClient = await tokenOf(pair.a, await createClient(pair.databaseUrl), 'u1');
    for (const stranger of [otherUser, otherClient]) {
      const refused = await listContacts(pair.b, stranger, id);
      expect([refused.status, refused.body.error.code]).toEqual([404, 'CONNECTOR_NOT_FOUND']);
    }
    expect((await listContacts(pair.b, token, id)).status).toBe(200);
  });

  test('a platform client revoked with the CLI is refused by B at once, though B served it just before', async () => {
    const client = await createClient(pair.databaseUrl);
    const own = await tokenOf(pair.a, client);
    const id = await createHubspot(pair.a, own, privateApp());
    expect((await listContacts(pair.b, own, id)).status).toBe(200);
    expect((await runCli(['clients', 'revoke', client.client_id, '--database-url', pair.databaseUrl])).code).toBe(0);
    const refused = await listContacts(pair.b, own, id);
    expect([refused.status, refused.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  test('twenty changes through A in a row: B sends the new token on its very next request every time', async () => {
    // Under load a notification reached B after B had served the next request (a LISTEN design
    // missed the change once in a while); every request must see what was committed before it.
    const id = await createHubspot(pair.a, token, privateApp());
    for (let round = 0; round < 20; round++) {
      expect((await listContacts(pair.b, token, id)).status).toBe(200);
      const next = sandbox.fakes.hubspot.issueAccessToken(1800);
      expect((await call(pair.a.url, 'PATCH', `/v1/integrations/connectors/${id}`, { token, body: { credentials: { access_token: next } } })).status).toBe(200);
      expect((await listContacts(pair.b, token, id)).status).toBe(200);
      expect(bearersSeen().at(-1)).toBe(`Bearer ${next}`);
    }
  }, 120_000);

  test.runIf(backend === 'postgres')(
    'while the version row cannot be read B keeps nothing: a client revoked by SQL behind its back is refused at once',
    async () => {
      const client = await createClient(pair.databaseUrl);
      const own = await tokenOf(pair.a, client);
      const id = await createHubspot(pair.a, own, privateApp());
      expect((await listContacts(pair.b, own, id)).status).toBe(200);
      const admin = new pg.Client({ connectionString: pair.databaseUrl });
      await admin.connect();
      try {
        await admin.query('ALTER TABLE tenancy_version RENAME TO tenancy_version_away');
        // B cannot read the version: it looks the client and the connector up on every request.
        expect((await listContacts(pair.b, own, id)).status).toBe(200);
        // A revocation that raises no version (written by hand): only a lookup can see it.
        await admin.query('UPDATE platform_clients SET revoked_at = now() WHERE client_id = $1', [client.client_id]);
        const refused = await listContacts(pair.b, own, id);
        expect([refused.status, refused.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
      } finally {
        await admin.query('ALTER TABLE IF EXISTS tenancy_version_away RENAME TO tenancy_version');
        await admin.end();
      }
      // Readable again: B keeps and serves as before (the token of the live client still works).
      expect((await listContacts(pair.b, token, id)).status).toBe(404);
      const other = await createHubspot(pair.a, token, privateApp());
      expect((await listContacts(pair.b, token, other)).status).toBe(200);
      expect((await listContacts(pair.b, token, other)).status).toBe(200);
    },
    120_000,
  );
});

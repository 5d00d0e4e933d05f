/**
 * OAuth refresh across a process killed with -9, on SQLite and PostgreSQL: the dead process's
 * credentials lock never holds up the next process, and a grant the upstream spent shows on the
 * connector (`auth.state: needs_reauth`, its time and reason) and in /metrics until new
 * credentials arrive. Gong refresh tokens are single-use (API-NOTES C.1).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { crash, killAll, platformToken, startServe, waitFor, type ServeProcess } from '../support/sync-processes.js';

const SECRET = 'refresh-processes-shared-secret';
const LONG_AGO = '2000-01-01T00:00:00.000Z';

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 40 });
});
afterAll(async () => {
  await killAll();
  await sandbox?.close();
  await cluster?.stop();
});

/** What a serve process needs to reach the in-test Gong fake, both its hosts. */
function gongEnv(databaseUrl: string): Record<string, string> {
  const info = sandbox.upstreams.gong!;
  return {
    ENGINE_DATABASE_URL: databaseUrl,
    ENGINE_SECRET: SECRET,
    ENGINE_UPSTREAM_GONG: info.base_url,
    ENGINE_ALLOW_ORIGINS_GONG: info.allow_origins.join(','),
    ENGINE_SYNC_POLL_SECONDS: '3600',
  };
}

/** Gong OAuth credentials with a fresh refresh token and an access token that needs refreshing now. */
function freshGrant(): Record<string, unknown> {
  const { client_id, client_secret } = sandbox.upstreams.gong!.credentials_by_scheme.oauth!;
  return { client_id, client_secret, refresh_token: sandbox.fakes.gong.issueRefreshToken(), expires_at: LONG_AGO };
}

/** The value of a metric line (with labels as written), or undefined when the line is absent. */
function metric(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe.each(['sqlite', 'postgres'] as const)('a refresh cut by kill -9 on %s', (backend) => {
  let databaseUrl: string;

  beforeAll(async () => {
    if (backend === 'postgres') {
      cluster ??= await startPostgres();
      databaseUrl = await cluster.createDatabase();
    } else {
      databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'refresh-kill-')), 'engine.db')}`;
    }
  }, 120_000);

  test('the next process is not held by the dead lock, and the spent grant shows as needs_reauth until replaced', async () => {
    const gong = sandbox.fakes.gong;
    let first: ServeProcess | undefined = await startServe(gongEnv(databaseUrl), ['--no-sync']);
    const token = await platformToken(first.url, databaseUrl);
    const grant = freshGrant();
    const grantToken = grant.refresh_token;
    // No credentials check at create: it would spend the grant, and this test spends it at use.
    const created = await call(first.url, 'POST', '/v1/integrations/connectors', {
      body: { external_user_id: 'u1', connector_type: 'gong', credentials: grant, check_credentials: false },
      token,
    });
    expect(created.status).toBe(201);
    expect(created.body.auth).toEqual({ state: 'active', since: null, reason: null });
    const id = created.body.id as string;
    const path = `/api/v1/connectors/sources/${id}/execute`;

    // The token endpoint answers slowly: the first process is killed while it holds the lock and
    // waits for the answer. Gong spends the refresh token anyway (it handles the request).
    const before = gong.stats.tokenRequests;
    gong.faults.latency(3000, { includeAuth: true });
    void call(first.url, 'POST', path, { body: { entity: 'users', action: 'list', params: {} }, token }).catch(() => undefined);
    await waitFor(() => gong.stats.tokenRequests > before, { what: 'the refresh to reach Gong', timeoutMs: 20_000, intervalMs: 10 });
    let deadLeaseEnds = Number.POSITIVE_INFINITY;
    if (backend === 'sqlite') {
      const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
      const lock = db.prepare('SELECT credentials_lock_owner AS owner, credentials_lock_expires_at AS expires FROM connectors WHERE id = ?').get(id) as {
        owner: string | null;
        expires: number | null;
      };
      db.close();
      expect(lock.owner, 'the lease names the process holding it').toContain(`:${first.child.pid}:`);
      deadLeaseEnds = lock.expires!;
    }
    await crash(first);
    first = undefined;
    // Gong handles the request after its delay although nobody waits for the answer: once the
    // refresh token is spent, the grant is gone (the loss a kill during a refresh cannot avoid).
    const spent = await waitFor(() => gong.refreshTokens().find((t) => t.token === grantToken && t.status !== 'valid'), {
      what: 'Gong to spend the refresh token',
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    expect(spent.status).toBe('rotated');
    gong.faults.reset();

    const second = await startServe(gongEnv(databaseUrl), ['--no-sync']);
    const refused = await call(second.url, 'POST', path, { body: { entity: 'users', action: 'list', params: {} }, token });
    // SQLite: answered while the dead process's 30 s lease still ran, so it was taken over, not waited out.
    expect(Date.now()).toBeLessThan(deadLeaseEnds);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('REAUTH_REQUIRED');

    const shown = await call(second.url, 'GET', `/v1/integrations/connectors/${id}`, { token });
    expect(shown.body.auth).toEqual({
      state: 'needs_reauth',
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      reason: expect.stringMatching(/refresh token|invalid_grant/i),
    });
    const dead = await (await fetch(`${second.url}/metrics`)).text();
    expect(metric(dead, 'engine_connectors_needing_reauth{connector_type="gong"}')).toBe(1);

    // The user connects again: new credentials end the state, and calls work.
    // Unchecked, so the refresh (and the persist window measured below) happens at use, under the credentials lock.
    const patched = await call(second.url, 'PATCH', `/v1/integrations/connectors/${id}`, {
      body: { credentials: freshGrant(), check_credentials: false },
      token,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.auth).toMatchObject({ state: 'active', reason: null });
    const listed = await call(second.url, 'POST', path, { body: { entity: 'users', action: 'list', params: {} }, token });
    expect(listed.status).toBe(200);
    const healthy = await (await fetch(`${second.url}/metrics`)).text();
    expect(metric(healthy, 'engine_connectors_needing_reauth{connector_type="gong"}')).toBeUndefined();
    // The window between the token answer and the durable write of the rotated credentials.
    const count = metric(healthy, 'engine_oauth_refresh_persist_seconds_count');
    const sum = metric(healthy, 'engine_oauth_refresh_persist_seconds_sum');
    expect(count).toBe(1);
    console.log(`[${backend}] refresh answer -> durable write: ${((sum! / count!) * 1000).toFixed(2)} ms`);
    expect(sum! / count!).toBeLessThan(1);
    await crash(second);
  }, 120_000);
});

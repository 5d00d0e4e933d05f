/**
 * The `serve` process itself: a start that cannot listen exits at once with a clear message, and
 * SIGTERM lets requests in flight finish, hands its sync passes back (leases released) and exits 0.
 * Real processes from the built CLI, on SQLite and PostgreSQL.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { openStore } from '../../engine/store/index.js';
import { runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { killAll, platformToken, startServe, waitFor } from '../support/sync-processes.js';

const SECRET = 'lifecycle-shared-secret';

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 600 });
});
afterAll(async () => {
  await killAll();
  await sandbox?.close();
  await cluster?.stop();
});

async function databaseUrl(backend: 'sqlite' | 'postgres'): Promise<string> {
  if (backend === 'sqlite') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'lifecycle-')), 'engine.db')}`;
  cluster ??= await startPostgres();
  return cluster.createDatabase();
}

function occupyPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = await occupyPort();
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a PostgreSQL server out of reach: serve and sync end at once, exit 1, SERVICE_UNAVAILABLE (retryable) with the driver’s reason', async () => {
  const url = `postgres://engine@127.0.0.1:${await closedPort()}/engine`;
  for (const args of [
    ['serve', '--port', '0'],
    ['sync', 'conn_missing'],
  ]) {
    const result = await runCli(args, undefined, { ENGINE_DATABASE_URL: url, ENGINE_SECRET: SECRET });
    expect(result.code, args[0]).toBe(1);
    const error = JSON.parse(result.stderr) as { error: { code: string; message: string; retryable: boolean } };
    expect(error.error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/^the database cannot be reached; retry the call once it is up \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/),
      retryable: true,
    });
    expect(result.stdout).not.toContain('listening on');
  }
}, 60_000);

test('PostgreSQL restarted under a running serve: while it is down a request answers 503 SERVICE_UNAVAILABLE (retryable), the process lives on, and once it is back the same request answers', async () => {
  const own = await startPostgres();
  try {
    const url = await own.createDatabase();
    const serve = await startServe({ ENGINE_DATABASE_URL: url, ENGINE_SECRET: SECRET, ENGINE_SYNC_POLL_SECONDS: '0.2' });
    const token = await platformToken(serve.url, url);
    const list = () => call(serve.url, 'GET', '/v1/integrations/connectors', { token });
    expect((await list()).status).toBe(200);

    // The pool's idle sessions end with the server (their 'error' events), and the scheduler keeps polling a database that refuses it.
    const paused = await own.pause();
    const down = await list();
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'the database cannot be reached; retry the call once it is up',
      retryable: true,
    });
    expect(JSON.stringify(down.body)).not.toContain('127.0.0.1');
    const refusedPolls = () => serve.lines.filter((line) => line.includes('"level":50') && line.includes('ECONNREFUSED')).length;
    await waitFor(async () => (refusedPolls() >= 3 ? true : undefined), {
      what: 'three refused scheduler polls',
      timeoutMs: 30_000,
      intervalMs: 50,
      alive: serve,
    });
    expect(serve.child.exitCode).toBeNull();

    await paused.start();
    const back = await waitFor(async () => ((await list()).status === 200 ? true : undefined), {
      what: 'the list to answer again',
      timeoutMs: 30_000,
      intervalMs: 100,
      alive: serve,
    });
    expect(back).toBe(true);
    expect(serve.child.exitCode).toBeNull();
    expect(serve.child.signalCode).toBeNull();
    serve.child.kill('SIGTERM');
  } finally {
    await own.stop();
  }
}, 90_000);

describe.each(['sqlite', 'postgres'] as const)('serve on %s', (backend) => {
  test('a port already in use ends the process at once, non-zero, saying so', async () => {
    const busy = await occupyPort();
    const port = (busy.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const result = await runCli(['serve', '--port', String(port)], undefined, {
        ENGINE_DATABASE_URL: await databaseUrl(backend),
        ENGINE_SECRET: SECRET,
        ENGINE_SYNC_POLL_SECONDS: '1',
      });
      expect(result.code).toBe(1);
      const error = JSON.parse(result.stderr) as { error: { code: string; message: string; details: unknown } };
      expect(error.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: '--port', message: 'is already in use' }] });
      expect(error.error.message).toBe(
        `cannot listen on 127.0.0.1:${port}: the port is already in use; stop the other server or choose another port (--port or ENGINE_PORT)`,
      );
      expect(result.stdout).not.toContain('listening on');
      // Nothing kept it alive: no scheduler polling a closed database (a bound, not a timing claim).
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      busy.close();
    }
  }, 60_000);

  test('SIGTERM lets the request in flight finish, releases the sync lease, and exits 0', async () => {
    const url = await databaseUrl(backend);
    const hubspot = sandbox.upstreams.hubspot!;
    const serve = await startServe({
      ENGINE_DATABASE_URL: url,
      ENGINE_SECRET: SECRET,
      ENGINE_UPSTREAM_HUBSPOT: hubspot.base_url,
      ENGINE_SYNC_POLL_SECONDS: '1',
      // The arrival of a request is logged at debug only (one line per request at info, when it ends).
      ENGINE_LOG_LEVEL: 'debug',
    });
    const token = await platformToken(serve.url, url);
    // Every upstream answer takes 600 ms: the first sync pass (started by the create) and the call both run when SIGTERM comes.
    sandbox.fakes.hubspot.faults.latency(600);
    try {
      const created = await call(serve.url, 'POST', '/v1/integrations/connectors', {
        body: { external_user_id: 'u1', connector_type: 'hubspot', credentials: hubspot.credentials },
        token,
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const store = await openStore(url);
      try {
        await waitFor(async () => (await store.syncJob(id))?.lease_owner?.includes(`:${serve.child.pid}:`), {
          what: 'the first pass to hold its lease',
          timeoutMs: 30_000,
        });
        const path = `/api/v1/connectors/sources/${id}/execute`;
        const inFlight = call(serve.url, 'POST', path, { body: { entity: 'contacts', action: 'get', params: { contactId: '1001' } }, token });
        // At debug the server logs each request as it arrives: SIGTERM comes once this one is being handled.
        await waitFor(() => serve.logs().some((log) => log.msg === 'incoming request' && (log.req as { url?: string } | undefined)?.url === path), {
          what: 'the server to receive the call',
          timeoutMs: 30_000,
          intervalMs: 5,
        });
        serve.child.kill('SIGTERM');
        const answer = await inFlight;
        expect(answer.status).toBe(200);
        expect(answer.body.data.id).toBe('1001');
        // The kept-alive connection of the call closes once its answer is out; left open it would
        // hold the process for fastify's 72 s keep-alive timeout, far past this bound.
        const exited = await Promise.race([serve.exited().then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000))]);
        expect(exited, 'the process to exit before the keep-alive timeout').toBe(true);
        expect(serve.child.exitCode).toBe(0);
        const job = await store.syncJob(id);
        expect(job).toMatchObject({ lease_owner: null, lease_until: null });
        // Handed over: due at once for whichever process runs next.
        expect(Date.parse(job!.due_at)).toBeLessThanOrEqual(Date.now());
      } finally {
        await store.close();
      }
    } finally {
      sandbox.fakes.hubspot.faults.reset();
    }
  }, 120_000);
});

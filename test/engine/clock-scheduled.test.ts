/**
 * Issue 11 part 8: one injected clock times the auth session, the token issuer, the sync
 * scheduler and the store's leases. These tests move a manual clock and assert the delays the
 * engine schedules; nothing waits for time to pass.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, createManualClock, type ListResult, type ManualClock } from '../../engine/index.js';
import { findManifest } from '../../engine/manifest/index.js';
import { startHostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { openStore } from '../../engine/store/index.js';
import { call } from '../support/http-call.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { createConnector, startSyncHarness, token, type SyncHarness } from '../support/sync-hosted.js';
import { waitFor } from '../support/sync-processes.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let hub: HubspotHarness;
let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  hub = await startHubspot();
  sandbox = await startSandbox({ rateLimits: false, records: 20 });
});
afterAll(async () => {
  await hub?.close();
  await sandbox?.close();
  await cluster?.stop();
});

describe('the auth session', () => {
  test('refreshes a token when the clock reaches its expiry less the skew, not before', async () => {
    const clock = createManualClock();
    const fake = hub.sandbox.fakes.hubspot;
    const { client_id, client_secret, refresh_token } = hub.oauth;
    // The fake accepts the token for 30 minutes of real time; the engine reads its expiry on the clock.
    const accessToken = fake.issueAccessToken(1800);
    const connection = connect('hubspot', {
      credentials: {
        client_id: client_id!,
        client_secret: client_secret!,
        refresh_token: refresh_token!,
        access_token: accessToken,
        expires_at: new Date(clock.now() + 10 * MINUTE).toISOString(),
      },
      baseUrl: hub.baseUrl,
      clock,
    });
    const list = async () => ((await connection.execute('contacts', 'list', { limit: 1 })) as ListResult).data.length;
    expect(await list()).toBe(1);
    // The manifest refreshes HubSpot tokens this long before their expiry; a second earlier, the token is still used.
    const skewMs = (findManifest('hubspot').manifest.auth.find((scheme) => scheme.oauth2)?.oauth2?.refresh_before_expiry_seconds ?? 60) * 1000;
    expect(skewMs).toBe(120_000);
    await clock.advance(10 * MINUTE - skewMs - 1000);
    expect(await list()).toBe(1);
    expect(connection.stats.refreshes).toBe(0);
    await clock.advance(1000);
    expect(await list()).toBe(1);
    expect(connection.stats.refreshes).toBe(1);
    // The new expiry is counted from the clock's time of the refresh.
    expect(Date.parse(String(connection.credentials.expires_at))).toBe(clock.now() + 1800 * 1000);
  });
});

describe.each(['sqlite', 'postgres'] as const)('the hosted service on a manual clock (%s)', (backend) => {
  async function databaseUrl(): Promise<string> {
    if (backend === 'sqlite') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'clock-')), 'engine.db')}`;
    cluster ??= await startPostgres();
    return cluster.createDatabase();
  }

  async function harness(clock: ManualClock, sync: { pollMs: number; intervalMs: number; leaseMs: number }): Promise<SyncHarness & { databaseUrl: string }> {
    const url = await databaseUrl();
    return { ...(await startSyncHarness(url, sandbox, sync, clock)), databaseUrl: url };
  }

  /** Runs `body` against a service on a fresh manual clock and database, then closes the service. */
  async function onClock(
    sync: { pollMs: number; intervalMs: number; leaseMs: number },
    body: (h: SyncHarness & { databaseUrl: string }, clock: ManualClock) => Promise<void>,
  ): Promise<void> {
    const clock = createManualClock();
    const h = await harness(clock, sync);
    try {
      await body(h, clock);
    } finally {
      await h.service.close();
    }
  }

  function passesStarted(h: SyncHarness): number {
    return h.logs.filter((line) => line.includes('"sync: pass started"')).length;
  }

  test('a service stopped while its loops are in the database closes, with no wait left on the clock', async () => {
    const clock = createManualClock();
    const service = await startHostedService({
      databaseUrl: await databaseUrl(),
      port: 0,
      secret: 'sync-test-engine-secret-0123456789',
      logger: false,
      sync: { pollMs: 5000, intervalMs: HOUR, leaseMs: 90_000 },
      clock,
    });
    // Closed as soon as it listens: the scheduler's first claim is then still a query in flight
    // (on PostgreSQL). A stop that came during it used to be missed, the loop then slept its poll
    // on the clock (for ever here), and the close failed on fastify's 10 s limit for a preClose
    // hook ("Plugin did not start in time").
    await service.close();
    expect(clock.pending()).toEqual([]);
  });

  test('a scoped token works until its 15 minutes are up on the clock, then is refused', async () => {
    await onClock({ pollMs: 5000, intervalMs: HOUR, leaseMs: 2 * MINUTE }, async (h, clock) => {
      const userToken = await token(h, 'u1');
      await clock.advance(15 * MINUTE - 1000);
      expect((await call(h, 'GET', '/v1/integrations/connectors', { token: userToken })).status).toBe(200);
      await clock.advance(1000);
      const refused = await call(h, 'GET', '/v1/integrations/connectors', { token: userToken });
      expect(refused.status).toBe(401);
      expect(refused.body.error.message).toContain('expired');
    });
  });

  test('passes poll every pollMs, renew their lease every third of it, and come back an interval later', async () => {
    const sync = { pollMs: 5000, intervalMs: HOUR, leaseMs: 90_000 };
    await onClock(sync, async (h, clock) => {
      const started = clock.now();
      const id = await createConnector(h, 'u1', 'hubspot');
      const userToken = await token(h, 'u1');
      const status = async () => (await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: userToken })).body;
      const first = await waitFor(
        async () => {
          const body = await status();
          return body.entities.length > 0 && body.entities.every((s: { status: string }) => s.status === 'succeeded') && !body.running ? body : undefined;
        },
        { what: 'the first pass to finish', timeoutMs: 30_000, intervalMs: 10 },
      );
      // The clock never moved: the pass started at its start, and the next is due an interval later.
      expect(first.next_sync_at).toBe(new Date(started + HOUR).toISOString());
      expect(first.entities.map((s: { started_at: string }) => s.started_at)).toEqual(first.entities.map(() => new Date(started).toISOString()));
      expect(passesStarted(h)).toBe(1);
      const waits = clock.history.map((wait) => `${wait.kind} ${wait.delayMs}`);
      expect(waits).toContain(`repeating ${sync.leaseMs / 3}`);
      expect(waits).toContain(`timer ${sync.pollMs}`);

      // A second short of the interval, polls have come and gone, and nothing was due.
      await clock.advance(HOUR - 1000);
      expect(passesStarted(h)).toBe(1);
      // Past the due time, a poll runs the pass. A poll the clock fired may still be asking the
      // database when the clock moves on (the webhook worker polls every 5 s too, so a pending
      // timer of that delay does not say the scheduler waits): it found nothing due then, and
      // waits a poll from the new time. So the clock moves to each next poll until the pass starts.
      await clock.advance(1000);
      await waitFor(
        async () => {
          if (passesStarted(h) === 2) return true;
          const poll = clock.pending().find((wait) => wait.kind === 'timer' && wait.delayMs === sync.pollMs);
          if (poll) await clock.advance(poll.dueAt - clock.now());
          return undefined;
        },
        { what: 'the second pass to start', timeoutMs: 30_000, intervalMs: 10 },
      );
      // It ran once due, not before: its entities started at or after the interval's end (asked
      // with a new token: the first one's 15 minutes are long over on the clock).
      const lateToken = await token(h, 'u1');
      const second = await waitFor(
        async () => {
          const body = (await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: lateToken })).body;
          return body.entities.every((s: { started_at: string }) => Date.parse(s.started_at) > started) ? body : undefined;
        },
        { what: 'the second pass to record its start', timeoutMs: 30_000, intervalMs: 10 },
      );
      for (const state of second.entities) expect(Date.parse(state.started_at)).toBeGreaterThanOrEqual(started + HOUR);
    });
  });

  test('a running pass keeps its lease on the clock: renewed a third of the way, never claimable by another process meanwhile', async () => {
    const sync = { pollMs: 5000, intervalMs: HOUR, leaseMs: 90_000 };
    await onClock(sync, async (h, clock) => {
      // Each upstream answer takes 300 ms of real time: the pass is in flight while the clock moves.
      sandbox.fakes.hubspot.faults.latency(300);
      try {
        const other = createManualClock(clock.now());
        const started = clock.now();
        const id = await createConnector(h, 'u1', 'hubspot');
        await waitFor(async () => (await h.service.store.syncJob(id))?.lease_owner ?? undefined, {
          what: 'the pass to hold its lease',
          timeoutMs: 30_000,
          intervalMs: 5,
        });
        expect((await h.service.store.syncJob(id))?.lease_until).toBe(new Date(started + sync.leaseMs).toISOString());
        // One heartbeat: 30 s in, the lease is renewed to 30 s + 90 s.
        await clock.advance(sync.leaseMs / 3);
        await waitFor(async () => (await h.service.store.syncJob(id))?.lease_until === new Date(started + sync.leaseMs / 3 + sync.leaseMs).toISOString(), {
          what: 'the renewal',
          timeoutMs: 30_000,
          intervalMs: 5,
        });
        // Another process, at 100 s (past the first lease, inside the renewed one), cannot claim the job.
        const second = await openStore(h.databaseUrl, { clock: other });
        try {
          await other.advance(100_000);
          expect(await second.claimSyncJob('another-process', 60_000, id)).toBeUndefined();
        } finally {
          await second.close();
        }
      } finally {
        sandbox.fakes.hubspot.faults.reset();
      }
    });
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openStore } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';
import { endSessionsWaitingOn, startPostgres, type PostgresCluster } from '../support/postgres.js';
import {
  copyIds,
  crash,
  createConnector,
  killAll,
  passesStarted,
  planIds,
  platformToken,
  startServe,
  syncStatus,
  upstreamEnv,
  waitFor,
  type EngineProcess,
  type SandboxInfo,
  type ServeProcess,
} from '../support/sync-processes.js';

/**
 * Sync across real processes: `connector-engine serve` and `connector-engine sync` spawned from the
 * built CLI, the fakes in their own process (or in this one where a test needs their fault hooks),
 * real SQLite files and a real PostgreSQL server.
 */

const HUBSPOT_ENTITIES = ['contacts', 'companies', 'deals'] as const;
/**
 * Contacts for the kill test: a serve process writes records in batches of 500, and the test holds
 * the contacts list request that follows the first 5 pages of 100 (HOLD_AFTER), so the pass stands
 * with 500 of them written and more to read until it is killed. 700 live contacts (+14 archived)
 * leave two pages after the hold; companies and deals get 175 and 233.
 */
const BIG_RECORDS = 700;
/** Contacts list requests let through before the hold: 5 pages of 100, one serve batch of 500 written. */
const HOLD_AFTER = 5;
/** The list request of contacts (not their properties), as the fake sees its path. */
const CONTACTS_LIST = /\/crm\/v3\/objects\/contacts$/;
const SECRET = 'sync-processes-shared-secret';

let cluster: PostgresCluster;
/** In this process, for its fault hooks: a hold stops a pass at a page boundary until the test kills it. */
let big: Sandbox;
let bigInfo: SandboxInfo;
let bigIds: Record<string, string[]>;
let small: Sandbox;
let smallInfo: SandboxInfo;
/** Upstream ids of the small sandbox per connector type and entity, as each entity's sync plan reads them. */
let smallIds: Record<string, Record<string, string[]>>;

const TYPES = ['hubspot', 'shopify', 'gong', 'amazon-ads'];

beforeAll(async () => {
  [cluster, big, small] = await Promise.all([
    startPostgres(),
    startSandbox({ records: BIG_RECORDS, rateLimits: false }),
    startSandbox({ records: 300, rateLimits: false }),
  ]);
  smallInfo = small.describe() as unknown as SandboxInfo;
  bigInfo = big.describe() as unknown as SandboxInfo;
  bigIds = await planIds(bigInfo, 'hubspot');
  smallIds = {};
  for (const type of TYPES) smallIds[type] = await planIds(smallInfo, type);
}, 120_000);

// A failed wait leaves a hold armed; the next test starts with every request answered.
afterEach(() => big?.fakes.hubspot.faults.reset());
afterAll(async () => {
  await killAll();
  await small?.close();
  await big?.close();
  await cluster?.stop();
});

/** Fails at once when `proc` has exited, instead of waiting out a lock wait it will never reach. */
function expectAlive(proc: ServeProcess): void {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null)
    throw new Error(`process exited (${proc.child.exitCode ?? proc.child.signalCode}): ${proc.stderr().slice(-2000)}`);
}

function sorted(ids: string[]): string[] {
  return [...ids].sort();
}

/** Every upstream id is in the copy exactly once (search pages read through a process that runs no passes). */
async function expectCompleteCopy(reader: ServeProcess, token: string, id: string): Promise<void> {
  for (const entity of HUBSPOT_ENTITIES) {
    const ids = await copyIds(reader.url, token, id, entity);
    expect(new Set(ids).size, `${entity}: no id twice`).toBe(ids.length);
    expect(sorted(ids), `${entity}: the upstream's ids`).toEqual(sorted(bigIds[entity]!));
  }
}

/**
 * Holds the contacts list request after HOLD_AFTER pages, then waits until a process runs the pass,
 * has written part of contacts (as GET .../sync shows it) and stands at the held request.
 */
async function contactsUnderway(reader: ServeProcess, token: string, id: string, startedAfter: string | null) {
  return waitFor(
    async () => {
      if (big.fakes.hubspot.faults.heldRequests === 0) return undefined;
      const status = await syncStatus(reader.url, token, id);
      const contacts = status.entities.find((state) => state.entity === 'contacts') as ((typeof status.entities)[number] & { started_at: string }) | undefined;
      const fresh = startedAfter === null || (contacts && contacts.started_at > startedAfter);
      return contacts && fresh && contacts.status === 'running' && contacts.records > 0 ? contacts : undefined;
    },
    { what: 'contacts to be part-way through a pass', timeoutMs: 60_000, intervalMs: 20 },
  );
}

async function passSucceeded(reader: ServeProcess, token: string, id: string, startedAfter: string | null, probe?: () => Promise<void>) {
  return waitFor(
    async () => {
      await probe?.();
      const status = await syncStatus(reader.url, token, id);
      const done = HUBSPOT_ENTITIES.every((entity) => {
        const state = status.entities.find((s) => s.entity === entity) as { status: string; started_at: string } | undefined;
        return state?.status === 'succeeded' && (startedAfter === null || state.started_at > startedAfter);
      });
      return done ? status : undefined;
    },
    { what: 'the pass to succeed', timeoutMs: 90_000, intervalMs: 200 },
  );
}

function startedIn(proc: EngineProcess, id: string): number {
  return passesStarted([proc]).filter((pass) => pass.connector === id).length;
}

describe.each(['sqlite', 'postgres'] as const)('a serve process killed in the middle of a sync (%s)', (kind) => {
  test('another process takes the job of a killed one over at once (its holder is gone); nothing is lost or duplicated, and a killed second pass removes nothing', async () => {
    const databaseUrl = kind === 'sqlite' ? `sqlite:${join(mkdtempSync(join(tmpdir(), 'sync-kill-')), 'engine.db')}` : await cluster.createDatabase();
    const env = {
      ENGINE_DATABASE_URL: databaseUrl,
      ENGINE_SECRET: SECRET,
      ENGINE_SYNC_POLL_SECONDS: '0.2',
      ...upstreamEnv(bigInfo),
    };
    // The reader runs no due jobs (--no-sync) and is only asked to read: every pass runs in A, B or C.
    const reader = await startServe(env, ['--no-sync']);
    const token = await platformToken(reader.url, databaseUrl);
    // Created through the reader, so the check request creation sends (a contacts list of 1) is
    // answered before the hold is armed: the hold then counts only the pass's own list pages.
    const id = await createConnector(reader.url, token, bigInfo, 'hubspot');
    const faults = big.fakes.hubspot.faults;
    faults.hold(CONTACTS_LIST, HOLD_AFTER);
    const a = await startServe(env);

    // Pass 1 starts in A at once (the job is due); kill A (SIGKILL: no shutdown code) while contacts are half-written.
    const underway = await contactsUnderway(reader, token, id, null);
    await crash(a);
    faults.reset();
    expect(startedIn(a, id)).toBe(1);

    const store = await openStore(databaseUrl);
    try {
      const states = await store.syncStates(id);
      const contacts = states.find((s) => s.entity === 'contacts')!;
      expect(contacts.status).toBe('running');
      expect(contacts.records).toBeGreaterThanOrEqual(underway.records);
      expect(contacts.records).toBeLessThan(bigIds.contacts!.length);
      expect(states.filter((s) => s.status === 'succeeded')).toEqual([]);
      // The dead process still holds the job until a live process looks at it: its lease is the default 2 min, never waited out.
      expect((await store.syncJob(id))?.lease_owner).toMatch(/./);
    } finally {
      await store.close();
    }
    const notReady = await call(reader.url, 'POST', `/api/v1/connectors/sources/${id}/execute`, {
      body: { entity: 'contacts', action: 'search', params: { query: {} } },
      token,
    });
    expect(notReady.status).toBe(409);
    expect(notReady.body.error.code).toBe('SEARCH_NOT_READY');
    expect(notReady.body.error.sync.status).toBe('running');

    // B on the same database takes the job over at once (its holder's process is gone) and finishes the pass.
    const b = await startServe(env);
    const first = await passSucceeded(reader, token, id, underway.started_at);
    expect(startedIn(b, id)).toBe(1);
    for (const state of first.entities) {
      expect(state).toMatchObject({ status: 'succeeded', mode: 'full', records: bigIds[state.entity]!.length, last_error: null });
    }
    expect(first.entities.map((s) => s.entity).sort()).toEqual([...HUBSPOT_ENTITIES].sort());
    await expectCompleteCopy(reader, token, id);

    // Pass 2 (asked for through B), killed part-way: the complete copy of pass 1 stays whole.
    const before = (first.entities.find((s) => s.entity === 'contacts') as unknown as { started_at: string }).started_at;
    faults.hold(CONTACTS_LIST, HOLD_AFTER);
    const requested = await call(b.url, 'POST', `/api/v1/connectors/sources/${id}/sync`, { body: { full: true }, token });
    expect(requested.status).toBe(202);
    const second = await contactsUnderway(reader, token, id, before);
    await crash(b);
    faults.reset();
    expect(startedIn(b, id)).toBe(2);
    const stale = await syncStatus(reader.url, token, id);
    expect(stale.entities.find((s) => s.entity === 'contacts')).toMatchObject({ status: 'running' });
    await expectCompleteCopy(reader, token, id);

    // C takes over; while it writes (held part-way through contacts, then on to the end), the copy keeps every record exactly once.
    faults.hold(CONTACTS_LIST, HOLD_AFTER);
    const c = await startServe(env);
    let checksWhileRunning = 0;
    const checkWhileRunning = async () => {
      const status = await syncStatus(reader.url, token, id);
      if (!status.entities.some((s) => s.status === 'running')) return;
      for (const entity of HUBSPOT_ENTITIES) {
        const ids = await copyIds(reader.url, token, id, entity);
        expect(ids.length, `${entity} while a pass runs`).toBe(bigIds[entity]!.length);
        expect(new Set(ids).size, `${entity} while a pass runs: no id twice`).toBe(ids.length);
      }
      checksWhileRunning++;
    };
    await contactsUnderway(reader, token, id, second.started_at);
    await checkWhileRunning();
    faults.reset();
    const last = await passSucceeded(reader, token, id, second.started_at, checkWhileRunning);
    expect(startedIn(c, id)).toBe(1);
    for (const state of last.entities) {
      expect(state).toMatchObject({ status: 'succeeded', mode: 'full', records: bigIds[state.entity]!.length, last_error: null });
    }
    await expectCompleteCopy(reader, token, id);
    expect(checksWhileRunning).toBeGreaterThan(0);
    for (const proc of [reader, c]) proc.child.kill('SIGTERM');
  }, 150_000);
});

test("PostgreSQL: a session ended under a pass's write fails that pass with SERVICE_UNAVAILABLE, not the serve process, and the next pass copies everything; under a search, a 503", async () => {
  const databaseUrl = await cluster.createDatabase();
  const env = { ENGINE_DATABASE_URL: databaseUrl, ENGINE_SECRET: SECRET, ENGINE_SYNC_POLL_SECONDS: '0.2', ...upstreamEnv(bigInfo) };
  const reader = await startServe(env, ['--no-sync']);
  const token = await platformToken(reader.url, databaseUrl);
  const id = await createConnector(reader.url, token, bigInfo, 'hubspot');
  const faults = big.fakes.hubspot.faults;
  faults.hold(CONTACTS_LIST, HOLD_AFTER);
  const a = await startServe(env);
  await contactsUnderway(reader, token, id, null);

  // The pass's next batch write (its own transaction, on a client checked out of A's pool) waits on
  // the lock once the held pages are let through; then its session is ended.
  const ended = await endSessionsWaitingOn(
    databaseUrl,
    'search_records',
    () => faults.reset(),
    () => expectAlive(a),
  );
  expect(ended.length).toBeGreaterThan(0);
  // The failed write ends that pass of contacts; A lives on and answers.
  const failed = await waitFor(
    async () => {
      const contacts = (await syncStatus(reader.url, token, id)).entities.find((state) => state.entity === 'contacts');
      return contacts?.status === 'failed' ? contacts : undefined;
    },
    { what: 'contacts to fail', timeoutMs: 60_000, intervalMs: 50, alive: a },
  );
  expect(failed.last_error).toBe('SERVICE_UNAVAILABLE: the database session ended; retry the call');
  expect(a.child.exitCode).toBeNull();
  expect(a.child.signalCode).toBeNull();
  const before = (failed as unknown as { started_at: string }).started_at;
  const requested = await call(a.url, 'POST', `/api/v1/connectors/sources/${id}/sync`, { body: { full: true }, token });
  expect(requested.status).toBe(202);
  await passSucceeded(reader, token, id, before);
  await expectCompleteCopy(reader, token, id);
  expect(startedIn(a, id)).toBeGreaterThanOrEqual(2);
  expect(a.stderr()).not.toMatch(/Connection terminated unexpectedly/);

  // A search through the service whose session ends: 503, retryable, naming no database; the retry answers.
  const search = () =>
    call(reader.url, 'POST', `/api/v1/connectors/sources/${id}/execute`, {
      body: { entity: 'deals', action: 'search', params: { query: {}, limit: 3 } },
      token,
    });
  let answer: Awaited<ReturnType<typeof search>> | undefined;
  await endSessionsWaitingOn(
    databaseUrl,
    'search_records',
    () => void search().then((settled) => (answer = settled)),
    () => expectAlive(reader),
  );
  await waitFor(async () => answer, { what: 'the search to answer', timeoutMs: 30_000, intervalMs: 20, alive: reader });
  expect(answer!.status).toBe(503);
  expect(answer!.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'the database session ended; retry the call', retryable: true });
  expect((await search()).body.hits).toHaveLength(3);
  for (const proc of [reader, a]) proc.child.kill('SIGTERM');
}, 150_000);

test('PostgreSQL: three serve processes share the sync jobs of 8 connectors and run each pass once', async () => {
  const databaseUrl = await cluster.createDatabase();
  // Every upstream request takes 600 ms (Amazon Ads, one request a pass: 2.5 s), so each pass lasts
  // 2.4 s or more: far longer than the 0.2 s the idle processes take to look for due jobs. A process
  // runs at most 4 passes at once. Leases keep their default (2 min): a short one would run out on a
  // loaded machine; renewal itself is timed on a manual clock in test/engine/clock-scheduled.test.ts.
  for (const type of TYPES) small.fakes[type as keyof Sandbox['fakes']].faults.latency(type === 'amazon-ads' ? 2500 : 600);
  try {
    const env = { ENGINE_DATABASE_URL: databaseUrl, ENGINE_SECRET: SECRET, ENGINE_SYNC_POLL_SECONDS: '0.2', ...upstreamEnv(smallInfo) };
    const workers = await Promise.all([startServe(env), startServe(env), startServe(env)]);
    const token = await platformToken(workers[0]!.url, databaseUrl);
    const types = ['hubspot', 'shopify', 'gong', 'amazon-ads', 'hubspot', 'shopify', 'gong', 'amazon-ads'];
    const ids: string[] = [];
    for (const [index, type] of types.entries()) ids.push(await createConnector(workers[index % workers.length]!.url, token, smallInfo, type));

    const statuses = await waitFor(
      async () => {
        const all = await Promise.all(ids.map((id) => syncStatus(workers[0]!.url, token, id)));
        const done = all.every(
          (status, i) =>
            !status.running && status.entities.length === Object.keys(smallIds[types[i]!]!).length && status.entities.every((s) => s.status !== 'running'),
        );
        return done ? all : undefined;
      },
      { what: 'every connector to finish its first pass', timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const [i, status] of statuses.entries()) {
      const expected = smallIds[types[i]!]!;
      for (const state of status.entities) {
        expect(state, `${types[i]} ${state.entity}`).toMatchObject({
          status: 'succeeded',
          mode: 'full',
          records: expected[state.entity]!.length,
          last_error: null,
        });
      }
    }
    // No job is left leased, so no process can start any of these passes again later.
    const store = await openStore(databaseUrl);
    try {
      const jobs = await store.listSyncJobs();
      expect(jobs.map((job) => job.connector_id).sort()).toEqual([...ids].sort());
      expect(jobs.filter((job) => job.lease_owner !== null)).toEqual([]);
    } finally {
      await store.close();
    }

    const started = passesStarted(workers);
    const finished = workers.flatMap((proc) =>
      proc
        .logs()
        .filter((log) => log.msg === 'sync: pass finished')
        .map((log) => log.connector),
    );
    for (const id of ids) {
      expect(
        started.filter((pass) => pass.connector === id),
        `passes started of ${id}`,
      ).toHaveLength(1);
      expect(
        finished.filter((connector) => connector === id),
        `passes finished of ${id}`,
      ).toHaveLength(1);
    }
    expect(started).toHaveLength(ids.length);
    const perProcess = workers.map((_, index) => started.filter((pass) => pass.process === index).length);
    console.info(`passes per serve process: ${perProcess.join(', ')}`);
    // All 8 passes overlap in time (each lasts 2.4 s or more) and a process runs at most 4 at once.
    expect(perProcess.filter((count) => count > 0).length).toBeGreaterThan(1);
    for (const proc of workers) proc.child.kill('SIGTERM');
  } finally {
    for (const type of TYPES) small.fakes[type as keyof Sandbox['fakes']].faults.reset();
  }
}, 90_000);

/** The line the progress bar writes when an entity finishes on a non-terminal stderr. */
function progressLine(position: number, total: number, entity: string, mode: string, records: number): string {
  const filled = Math.round((position / total) * 24);
  return `[${'#'.repeat(filled)}${'-'.repeat(24 - filled)}] ${position}/${total} ${entity} succeeded (${mode}) ${records.toLocaleString('en-US')} records`;
}

function barLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('['));
}

test('connector-engine sync <id>: one pass with a progress bar, --full, exit 3 while another process holds the job, CONNECTOR_NOT_FOUND', async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'sync-cli-')), 'engine.db')}`;
  const env = { ENGINE_SECRET: SECRET, ...upstreamEnv(smallInfo) };
  // Without a background loop the server runs no pass: the connectors' first passes are due, for the CLI.
  const server = await startServe({ ...env, ENGINE_DATABASE_URL: databaseUrl }, ['--no-sync']);
  const token = await platformToken(server.url, databaseUrl);
  const hubspot = await createConnector(server.url, token, smallInfo, 'hubspot');
  const shopify = await createConnector(server.url, token, smallInfo, 'shopify');
  for (const id of [hubspot, shopify]) expect((await syncStatus(server.url, token, id)).entities).toEqual([]);
  server.child.kill('SIGTERM');
  await server.exited();

  const sync = (args: string[]) => runCli(['sync', ...args, '--database-url', databaseUrl], undefined, env);
  type Output = { connector_id: string; entities: Array<{ entity: string; status: string; mode: string; records: number }> };
  const summary = (output: string) => (JSON.parse(output) as Output).entities.map(({ entity, status, mode, records }) => ({ entity, status, mode, records }));
  const complete = (type: string, entities: readonly string[]) =>
    entities.map((entity) => ({ entity, status: 'succeeded', mode: 'full', records: smallIds[type]![entity]!.length }));
  const bar = (type: string, entities: readonly string[]) =>
    entities.map((entity, i) => progressLine(i + 1, entities.length, entity, 'full', smallIds[type]![entity]!.length));

  const first = await sync([hubspot]);
  expect(first.code, first.stderr).toBe(0);
  expect((JSON.parse(first.stdout) as Output).connector_id).toBe(hubspot);
  expect(summary(first.stdout)).toEqual(complete('hubspot', HUBSPOT_ENTITIES));
  expect(barLines(first.stderr)).toEqual(bar('hubspot', HUBSPOT_ENTITIES));

  // Shopify's plans are incremental: after a full pass, a plain pass reads only what changed since
  // the cursor (updated_at_min is inclusive, so the newest records again); --full reads everything.
  const shopifyEntities = ['orders', 'products', 'customers'];
  const shopifyFirst = await sync([shopify]);
  expect(shopifyFirst.code, shopifyFirst.stderr).toBe(0);
  expect(summary(shopifyFirst.stdout)).toEqual(complete('shopify', shopifyEntities));
  const incremental = await sync([shopify]);
  expect(incremental.code, incremental.stderr).toBe(0);
  for (const state of summary(incremental.stdout)) {
    expect(state).toMatchObject({ status: 'succeeded', mode: 'incremental' });
    expect(state.records).toBeLessThan(smallIds.shopify![state.entity]!.length);
  }
  expect(barLines(incremental.stderr).map((line) => line.replace(/ \d[\d,]* records$/, ''))).toEqual(
    shopifyEntities.map((entity, i) => progressLine(i + 1, 3, entity, 'incremental', 0).replace(/ 0 records$/, '')),
  );
  const full = await sync([shopify, '--full']);
  expect(full.code, full.stderr).toBe(0);
  expect(summary(full.stdout)).toEqual(complete('shopify', shopifyEntities));
  expect(barLines(full.stderr)).toEqual(bar('shopify', shopifyEntities));

  // Another process holds the job (a claim through the public store API): no second pass, exit 3.
  const store = await openStore(databaseUrl);
  try {
    const job = await store.claimSyncJob('test-owner', 60_000, hubspot);
    expect(job?.connector_id).toBe(hubspot);
    const busy = await sync([hubspot]);
    expect(busy.code).toBe(3);
    expect(busy.stdout).toBe('');
    expect(busy.stderr).toContain(`connector ${hubspot}: a pass is running in another process`);
    expect(barLines(busy.stderr)).toEqual([]);
    expect((await store.syncJob(hubspot))?.lease_owner).toBe('test-owner');
    expect(await store.releaseSyncJob(hubspot, 'test-owner', { nextDueAt: new Date(), fullDone: false })).toBe(true);
  } finally {
    await store.close();
  }
  const released = await sync([hubspot]);
  expect(released.code, released.stderr).toBe(0);
  expect(summary(released.stdout)).toEqual(complete('hubspot', HUBSPOT_ENTITIES));

  const unknown = await sync(['conn_doesnotexist']);
  expect(unknown.code).toBe(1);
  expect(unknown.stdout).toBe('');
  expect(JSON.parse(unknown.stderr).error.code).toBe('CONNECTOR_NOT_FOUND');
}, 60_000);

test('connector-engine sync <id> --sandbox reads from fresh fakes of the same seed', async () => {
  const fresh = await startSandbox({ rateLimits: false });
  let expected: Record<string, string[]>;
  try {
    expected = await planIds(fresh.describe() as unknown as SandboxInfo, 'hubspot');
  } finally {
    await fresh.close();
  }
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'sync-cli-sandbox-')), 'engine.db')}`;
  // serve --sandbox starts the default fakes and prints their JSON first: the credentials of seed 42.
  const server = await startServe({ ENGINE_SECRET: SECRET, ENGINE_DATABASE_URL: databaseUrl }, ['--sandbox', '--no-sync']);
  const sandboxInfo = JSON.parse(server.lines[0]!) as SandboxInfo;
  const token = await platformToken(server.url, databaseUrl);
  const id = await createConnector(server.url, token, sandboxInfo, 'hubspot');
  server.child.kill('SIGTERM');
  await server.exited();

  const result = await runCli(['sync', id, '--sandbox', '--database-url', databaseUrl], undefined, { ENGINE_SECRET: SECRET });
  expect(result.code, result.stderr).toBe(0);
  const states = (JSON.parse(result.stdout) as { entities: Array<{ entity: string; status: string; records: number }> }).entities;
  expect(states.map(({ entity, status, records }) => ({ entity, status, records }))).toEqual(
    HUBSPOT_ENTITIES.map((entity) => ({ entity, status: 'succeeded', records: expected[entity]!.length })),
  );
  expect(barLines(result.stderr)).toHaveLength(3);
}, 60_000);

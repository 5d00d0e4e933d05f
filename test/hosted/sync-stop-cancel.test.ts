/**
 * A service that stops during a sync pass whose upstream read hangs: the stop cancels the read in
 * flight (it would otherwise hold the close until the read's 5-minute deadline, far past fastify's
 * 10 s limit for closing), the pass ends as stopped, and its job is due again at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { STOPPED_MESSAGE } from '../../engine/sync/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { openStore } from '../../engine/store/index.js';
import { createConnector, startSyncHarness } from '../support/sync-hosted.js';
import { waitFor } from '../support/sync-processes.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 20 });
});
afterAll(async () => {
  sandbox?.fakes.hubspot.faults.reset();
  await sandbox?.close();
});

test('closing the service cancels the pass read the upstream holds; the pass is stopped and due again at once', async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'sync-stop-')), 'engine.db')}`;
  const faults = sandbox.fakes.hubspot.faults;
  // The pass starts with a read of the property definitions: the fake holds it unanswered.
  faults.hold(/^\/crm\/v3\/properties\//);
  const h = await startSyncHarness(databaseUrl, sandbox, { pollMs: 50, intervalMs: 60 * 60_000, leaseMs: 60_000 });
  const id = await createConnector(h, 'u1', 'hubspot');
  await waitFor(() => h.logs.some((line) => line.includes('"sync: pass started"')), { what: 'the pass to start', timeoutMs: 20_000 });
  const requestsBefore = sandbox.fakes.hubspot.requests.length;
  const stoppedAt = Date.now();
  // Without the cancel this waits for the held read's deadline (5 minutes) and the test times out.
  await h.service.close();
  const store = await openStore(databaseUrl);
  try {
    const states = await store.syncStates(id);
    expect(states.length).toBeGreaterThan(0);
    const first = states.find((state) => state.entity === 'contacts') ?? states[0]!;
    expect(first).toMatchObject({ status: 'failed', last_error: STOPPED_MESSAGE });
    // Released as stopped: due at once (no later than the stop), not an interval later.
    const job = await store.syncJob(id);
    expect(job).toBeDefined();
    expect(Date.parse(String(job!.due_at))).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(String(job!.due_at))).toBeGreaterThanOrEqual(stoppedAt - 60_000);
  } finally {
    await store.close();
  }
  // Nothing more went to the upstream after the stop: at most the held read itself, logged once released.
  faults.reset();
  const after = sandbox.fakes.hubspot.requests.slice(requestsBefore).map((request) => request.path);
  expect(after.filter((path) => !path.startsWith('/crm/v3/properties/'))).toEqual([]);
}, 40_000);

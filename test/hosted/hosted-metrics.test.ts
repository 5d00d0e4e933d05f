/**
 * `/metrics` can be believed (issue 11, part 7): the upstream request counters equal what the
 * fakes themselves received, with executes running concurrently on one connector, retries, an
 * OAuth refresh, a download and sync passes in the same window; sync passes, records and lag are
 * reported; prom-client's process metrics are there; upstream failures are logged at warn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { call } from '../support/http-call.js';
import { logLines } from '../support/log-lines.js';
import { token, waitForSync, type SyncHarness } from '../support/sync-hosted.js';

const USER = 'metrics-user';
const HUBSPOT_ENTITIES = ['contacts', 'companies', 'deals'];
const ASANA_ENTITIES = ['tasks', 'projects', 'workspaces', 'users', 'teams', 'tags', 'sections', 'attachments'];

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

type SyncStatus = { running: boolean; entities: Array<{ status: string; records: number; finished_at: string | null; last_success_at: string | null }> };

const recordsOf = (status: SyncStatus) => status.entities.reduce((sum, s) => sum + s.records, 0);

/** Polls a connector's sync status until a pass that finished after `since` has ended and none runs. */
async function waitForPassAfter(h: SyncHarness, userToken: string, id: string, since: number): Promise<SyncStatus> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: userToken })).body as SyncStatus;
    const ended = status.entities.length > 0 && status.entities.every((s) => s.finished_at !== null && Date.parse(s.finished_at) >= since);
    if ((ended && !status.running) || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function scrape(h: SyncHarness): Promise<Sample[]> {
  const response = await fetch(`${h.url}/metrics`);
  expect(response.status).toBe(200);
  return parseMetrics(await response.text());
}

describe('metrics count what the upstreams received', () => {
  let sandbox: Sandbox;
  let service: HostedService;
  let h: SyncHarness;
  const dir = mkdtempSync(join(tmpdir(), 'ce-metrics-'));

  beforeAll(async () => {
    sandbox = await startSandbox({ records: 200, rateLimits: false });
    const lines = logLines();
    service = await startHostedService({
      databaseUrl: `sqlite:${join(dir, 'engine.db')}`,
      port: 0,
      secret: 'metrics-test-engine-secret-0123456789',
      upstreams: Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url])),
      allowOrigins: Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.allow_origins])),
      logger: { level: 'info', stream: lines.stream },
      // The manifests' client-side limits would spread Asana's per-task reads over minutes.
      clientRateLimits: false,
      sync: { pollMs: 50 },
    });
    const secret = 'ces_metrics_test_secret_0001';
    const created = await service.store.createClient({ name: 'metrics tests', secretHash: await hashSecret(secret) });
    h = { service, url: service.url, logs: lines.lines, client: { client_id: created.client_id, client_secret: secret }, sandbox };
  });

  afterAll(async () => {
    await service?.close();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const userToken = () => token(h, USER);

  async function create(type: string, credentials: Record<string, unknown>): Promise<string> {
    const body = { external_user_id: USER, connector_type: type, name: type, credentials, config: sandbox.upstreams[type]!.config };
    const answer = await call(h, 'POST', '/v1/integrations/connectors', { token: await userToken(), body });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  }

  const execute = async (id: string, body: unknown) => call(h, 'POST', `/api/v1/connectors/sources/${id}/execute`, { token: await userToken(), body });

  test('upstream requests, sync passes and process metrics', async () => {
    const hubspotInfo = sandbox.upstreams.hubspot!;
    const { access_token: _startup, ...oauth } = hubspotInfo.credentials_by_scheme.oauth!;
    // Each create starts the connector's first pass in the background.
    const privateApp = await create('hubspot', hubspotInfo.credentials);
    const refreshing = await create('hubspot', oauth);
    const asana = await create('asana', sandbox.upstreams.asana!.credentials);
    const t = await userToken();
    const first: SyncStatus[] = [
      await waitForSync(h, t, privateApp, HUBSPOT_ENTITIES),
      await waitForSync(h, t, refreshing, HUBSPOT_ENTITIES),
      await waitForSync(h, t, asana, ASANA_ENTITIES),
    ];
    for (const status of first) expect(status.entities.every((s) => s.status === 'succeeded')).toBe(true);

    // A second pass of one connector runs while 24 executes share another's connection, two of
    // the HubSpot requests fail once (503, retried), and a file streams.
    sandbox.fakes.hubspot.faults.failNext(2, 503);
    const asked = Date.now();
    const again = call(h, 'POST', `/api/v1/connectors/sources/${refreshing}/sync`, { token: t, body: { full: true } });
    const lists = Array.from({ length: 24 }, () => execute(privateApp, { entity: 'contacts', action: 'list', params: { limit: 5 } }));
    const file = fetch(`${service.url}/api/v1/connectors/sources/${asana}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'attachments', action: 'download', params: { attachment_gid: sandbox.fakes.asana.anchors.attachments.asana } }),
    }).then(async (response) => ({ status: response.status, bytes: (await response.arrayBuffer()).byteLength }));
    expect((await again).status).toBe(202);
    for (const answer of await Promise.all(lists)) expect(answer.status).toBe(200);
    expect((await file).status).toBe(200);
    const second = await waitForPassAfter(h, t, refreshing, asked);
    expect(second.entities.map((s) => s.status)).toEqual(HUBSPOT_ENTITIES.map(() => 'succeeded'));

    const scraped = Date.now();
    const samples = await scrape(h);
    const scrapedBy = Date.now();
    const hubspot = sandbox.fakes.hubspot;
    const asanaFake = sandbox.fakes.asana;
    expect(hubspot.stats.tokenRequests).toBe(1);
    expect(hubspot.requests.filter((r) => r.response.status === 503)).toHaveLength(2);
    expect({
      hubspotApi: value(samples, 'engine_upstream_requests_total', { connector_type: 'hubspot', kind: 'api' }),
      hubspotToken: value(samples, 'engine_upstream_requests_total', { connector_type: 'hubspot', kind: 'token' }),
      hubspotRetries: value(samples, 'engine_upstream_retries_total', { connector_type: 'hubspot' }),
      refreshes: value(samples, 'engine_oauth_refreshes_total', { connector_type: 'hubspot' }),
      asanaApi: value(samples, 'engine_upstream_requests_total', { connector_type: 'asana', kind: 'api' }),
      asanaFiles: value(samples, 'engine_upstream_requests_total', { connector_type: 'asana', kind: 'file' }),
    }).toEqual({
      hubspotApi: hubspot.stats.apiRequests,
      hubspotToken: hubspot.stats.tokenRequests,
      hubspotRetries: 2,
      refreshes: 1,
      asanaApi: asanaFake.stats.apiRequests,
      asanaFiles: asanaFake.blobRequests.length,
    });
    expect(hubspot.requests).toHaveLength(hubspot.stats.apiRequests + hubspot.stats.tokenRequests);

    const hubspotRecords = recordsOf(first[0]!) + recordsOf(first[1]!) + recordsOf(second);
    expect({
      passes: value(samples, 'engine_sync_passes_total', { connector_type: 'hubspot', outcome: 'succeeded' }),
      failed: value(samples, 'engine_sync_passes_total', { connector_type: 'hubspot', outcome: 'failed' }),
      records: value(samples, 'engine_sync_records_written_total', { connector_type: 'hubspot' }),
      durations: value(samples, 'engine_sync_pass_duration_seconds_count', { connector_type: 'hubspot', outcome: 'succeeded' }),
      asanaPasses: value(samples, 'engine_sync_passes_total', { connector_type: 'asana', outcome: 'succeeded' }),
      asanaRecords: value(samples, 'engine_sync_records_written_total', { connector_type: 'asana' }),
    }).toEqual({ passes: 3, failed: 0, records: hubspotRecords, durations: 3, asanaPasses: 1, asanaRecords: recordsOf(first[2]!) });
    // The least recently synchronized HubSpot connector is the private-app one, whose pass ended before the second pass started.
    const lastSuccess = Math.min(...first[0]!.entities.map((s) => Date.parse(s.last_success_at!)));
    const lag = value(samples, 'engine_sync_lag_seconds', { connector_type: 'hubspot' });
    expect(lag).toBeGreaterThanOrEqual((scraped - lastSuccess) / 1000);
    expect(lag).toBeLessThanOrEqual((scrapedBy - lastSuccess) / 1000);
    expect(samples.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_heap_size_used_bytes',
      ]),
    );
  });

  test('an upstream failure is logged at warn with its code, and no secret', async () => {
    const id = await create('hubspot', sandbox.upstreams.hubspot!.credentials);
    const t = await userToken();
    await waitForSync(h, t, id, HUBSPOT_ENTITIES);
    // Every attempt fails (the first and the manifest's 4 retries): the caller gets UPSTREAM_ERROR.
    sandbox.fakes.hubspot.faults.failNext(5, 500);
    const answer = await execute(id, { entity: 'contacts', action: 'list', params: { limit: 1 } });
    expect(answer.status).toBe(502);
    const requestId = answer.body.error.request_id as string;
    const lines = h.logs.map((line) => JSON.parse(line) as { level: number; reqId?: string; code?: string; msg: string });
    const failure = lines.filter((line) => line.reqId === requestId && line.level >= 40);
    expect(failure).toEqual([expect.objectContaining({ level: 40, code: 'UPSTREAM_ERROR' })]);
    expect(JSON.stringify(failure)).not.toContain(String(sandbox.upstreams.hubspot!.credentials.access_token));
  });
});

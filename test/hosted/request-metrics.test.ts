/**
 * The HTTP request metrics (engine_http_requests_total and engine_http_request_duration_seconds)
 * count every answered request exactly, by method, route pattern and status, with a latency
 * histogram in Prometheus' shape: cumulative buckets ending in +Inf, _sum and _count, one series
 * per method and route; unknown paths count as route `unmatched`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';

let service: HostedService;

beforeAll(async () => {
  service = await startHostedService({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'request-metrics-')), 'engine.db')}`,
    port: 0,
    secret: 'request-metrics-test-secret-0123456789',
    logger: false,
    sync: { background: false },
    webhooks: { background: false },
  });
});
afterAll(() => service?.close());

async function scrape(): Promise<string> {
  const response = await fetch(`${service.url}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The lines of one metric family's samples whose labels include `match`, in exposition order. */
function samples(text: string, name: string, match: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) && line.includes(match));
}

test('every answered request is counted once, by route and status, with a cumulative latency histogram', async () => {
  const before = await scrape();
  expect(before).toContain('# TYPE engine_http_request_duration_seconds histogram');
  expect(before).toContain('# HELP engine_http_request_duration_seconds HTTP request latency');
  expect(before).toContain('# TYPE engine_http_requests_total counter');
  // Two series of one route (statuses 200 and 404 of GET /v1/connector-types/:type/openapi.json),
  // one of /healthz, and unknown paths.
  for (let i = 0; i < 7; i++) expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  for (let i = 0; i < 3; i++) expect((await fetch(`${service.url}/v1/connector-types/hubspot/openapi.json`)).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await fetch(`${service.url}/v1/connector-types/nothing/openapi.json`)).status).toBe(404);
  for (let i = 0; i < 4; i++) expect((await fetch(`${service.url}/no/such/path/${i}`)).status).toBe(404);
  const text = await scrape();

  expect(samples(text, 'engine_http_requests_total', 'route="/healthz"')).toEqual(['engine_http_requests_total{method="GET",route="/healthz",status="200"} 7']);
  const typed = 'route="/v1/connector-types/:type/openapi.json"';
  expect(samples(text, 'engine_http_requests_total', typed)).toEqual([
    `engine_http_requests_total{method="GET",${typed},status="200"} 3`,
    `engine_http_requests_total{method="GET",${typed},status="404"} 2`,
  ]);
  expect(samples(text, 'engine_http_requests_total', 'route="unmatched"')).toEqual([
    'engine_http_requests_total{method="GET",route="unmatched",status="404"} 4',
  ]);

  for (const [route, count] of [
    ['/healthz', 7],
    ['/v1/connector-types/:type/openapi.json', 5],
    ['unmatched', 4],
  ] as const) {
    const labels = `method="GET",route="${route}"`;
    const buckets = samples(text, 'engine_http_request_duration_seconds_bucket', `,${labels}}`);
    const bounds = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];
    expect(buckets.map((line) => /le="([^"]+)"/.exec(line)![1])).toEqual(bounds);
    const counts = buckets.map((line) => Number(line.split(' ')[1]));
    // Cumulative: each bucket holds the ones below it; +Inf holds every request.
    expect(counts.every((value, i) => i === 0 || value >= counts[i - 1]!)).toBe(true);
    expect(counts.at(-1)).toBe(count);
    expect(samples(text, 'engine_http_request_duration_seconds_count', `{${labels}}`)).toEqual([
      `engine_http_request_duration_seconds_count{${labels}} ${count}`,
    ]);
    const sum = Number(samples(text, 'engine_http_request_duration_seconds_sum', `{${labels}}`)[0]!.split(' ')[1]);
    expect(sum).toBeGreaterThan(0);
    // No request took longer than the bound of the first bucket holding all of them.
    const firstFull = bounds[counts.indexOf(count)]!;
    if (firstFull !== '+Inf') expect(sum).toBeLessThanOrEqual(count * Number(firstFull));
  }

  // Counts keep growing across scrapes (each scrape is answered after its own count).
  const again = await scrape();
  expect(samples(again, 'engine_http_requests_total', 'route="/healthz"')).toEqual([
    'engine_http_requests_total{method="GET",route="/healthz",status="200"} 7',
  ]);
  expect(samples(again, 'engine_http_requests_total', 'route="/metrics"')[0]).toMatch(/ [2-9]$/);
});

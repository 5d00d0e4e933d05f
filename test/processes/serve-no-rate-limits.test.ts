/**
 * `serve --no-rate-limits` is for benchmarks: without it the service keeps Asana's client-side
 * limit (150 requests per minute per connector, connectors/asana.yaml), so a burst past it waits
 * for a slot, and an execute whose deadline cannot cover that wait ends with UPSTREAM_TIMEOUT at once.
 * With it, the same burst is answered in full, by the engine and by the sandbox's fake alike.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { call } from '../support/http-call.js';
import { createConnector, killAll, platformToken, startServe } from '../support/sync-processes.js';

/** Past the limit, and sent in a few seconds: far inside the minute the limit counts over, even on a loaded machine. */
const BURST = 170;
afterEach(killAll);

/** Starts `serve --sandbox [flags]` and answers the statuses and error codes of a burst of Asana workspace lists. */
async function burst(flags: string[]): Promise<Map<string, number>> {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'no-limits-')), 'engine.db')}`;
  const serve = await startServe({}, ['--sandbox', '--no-sync', '--database-url', databaseUrl, ...flags]);
  const info = JSON.parse(serve.lines[0]!) as Parameters<typeof createConnector>[2];
  const token = await platformToken(serve.url, databaseUrl);
  const id = await createConnector(serve.url, token, info, 'asana');
  const outcomes = new Map<string, number>();
  // In waves of ten, so the burst is quick without queueing on the connector's concurrency of 10.
  for (let wave = 0; wave < BURST / 10; wave++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(serve.url, 'POST', `/api/v1/connectors/sources/${id}/execute`, {
          body: { entity: 'workspaces', action: 'list', params: {}, timeout_ms: 1000 },
          token,
        }),
      ),
    );
    for (const answer of answers) {
      const key = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.error?.code}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
  }
  return outcomes;
}

test('with --no-rate-limits a burst past the manifest limit is answered in full', async () => {
  expect(Object.fromEntries(await burst(['--no-rate-limits']))).toEqual({ '200': BURST });
});

test('without it the same burst meets the limit: the calls past it end at their deadline waiting for a slot', async () => {
  const outcomes = Object.fromEntries(await burst([]));
  // 149 slots are left after the create's credentials check; the rest would wait beyond their 1 s deadline.
  expect(Object.keys(outcomes).sort()).toEqual(['200', '504 UPSTREAM_TIMEOUT']);
  expect(outcomes['200']).toBe(149);
  expect(outcomes['200']! + outcomes['504 UPSTREAM_TIMEOUT']!).toBe(BURST);
});

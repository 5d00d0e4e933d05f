/**
 * Sync ingest benchmark: a real pass through the library (HubSpot fake over loopback HTTP, no
 * rate limits -> engine paging, record shaping, batched upserts with the text index) into SQLite
 * and PostgreSQL, side by side in one run. Reports records/s of a first full pass (inserts) and
 * of a second full pass (every row rewritten, then the stale sweep).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from '../engine/index.js';
import { startSandbox } from '../engine/sandbox/index.js';
import { startPostgres } from '../test/support/postgres.js';

const CONTACTS = Number(process.env.BENCH_SYNC_RECORDS ?? 20_000);

async function timedPass(url: string, info: { credentials: Record<string, unknown>; base_url: string }): Promise<[number, number, number]> {
  const hubspot = connect('hubspot', { credentials: info.credentials, baseUrl: info.base_url, store: url, rateLimit: false });
  try {
    const rates: number[] = [];
    let records = 0;
    for (const full of [false, true]) {
      const started = performance.now();
      const [state] = await hubspot.sync({ entities: ['contacts'], full });
      if (state?.status !== 'succeeded') throw new Error(`sync failed: ${state?.last_error}`);
      records = state.records;
      rates.push(records / ((performance.now() - started) / 1000));
    }
    return [records, rates[0]!, rates[1]!];
  } finally {
    await hubspot.close();
  }
}

/** Runs the sync ingest benchmark and prints its table. */
export async function benchSync(): Promise<void> {
  const sandbox = await startSandbox({ records: CONTACTS, rateLimits: false });
  const cluster = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'ce-bench-sync-'));
  try {
    const info = sandbox.upstreams.hubspot!;
    const sqlite = await timedPass(`sqlite:${join(dir, 'sync.db')}`, info);
    const postgres = await timedPass(await cluster.createDatabase(), info);
    console.log(`sync ingest: HubSpot contacts through the library from the fake over loopback HTTP (${sqlite[0]} records)`);
    console.log(`${'backend'.padEnd(10)} ${'first pass'.padStart(14)} ${'rewrite pass'.padStart(14)}  (records/s)`);
    for (const [name, [, first, again]] of [
      ['sqlite', sqlite],
      ['postgres', postgres],
    ] as const) {
      console.log(`${name.padEnd(10)} ${Math.round(first).toLocaleString('en-US').padStart(14)} ${Math.round(again).toLocaleString('en-US').padStart(14)}`);
    }
    console.log(`  postgres/sqlite first pass ratio ${(postgres[1] / sqlite[1]).toFixed(2)}x`);
  } finally {
    await cluster.stop();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Sync-under-load benchmark (issue 11, part 5): does a full sync pass in the service's process
 * starve its requests? For each backend (SQLite file, PostgreSQL), the hosted service runs against
 * the sandbox with a large HubSpot copy, and the same phase is measured under two conditions,
 * alternating over a few rounds: idle, and while first passes of HubSpot connectors run back to
 * back in the service's process. A phase is sequential executes (`contacts list`, limit 10)
 * through the HTTP API, then one 200 MiB Asana attachment streamed through the download route,
 * with the event-loop delay monitored (apart for the executes and the download, which saturates
 * the loop by itself). Printed: execute p50/p99, event-loop delay p99/max, download MiB/s, each
 * during-sync figure as a ratio of idle, against the goals (execute p99 at most 2x idle,
 * event-loop delay p99 under 50 ms, downloads at least 0.7 of idle), and the sync's records/s
 * alone and under the load. The fakes run in a process of their own, as real upstreams are
 * elsewhere: in the service's process their page rendering would be charged to the sync.
 *
 * Run: npm run bench:load (alone) or npm run bench (after the other benchmarks).
 * Env: BENCH_LOAD_RECORDS (HubSpot `records`, default 20000: about 32,000 records a pass),
 * BENCH_LOAD_CALLS (executes per phase, default 500), BENCH_LOAD_ROUNDS (default 3),
 * BENCH_LOAD_POSTGRES=0 skips PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LARGE_ATTACHMENT_SIZE, type UpstreamInfo } from '../engine/sandbox/index.js';
import { startPostgres } from '../test/support/postgres.js';
import { startUpstreamsProcess } from './bench-load-child.js';
import { PhaseProbe, type PhaseFigures } from './bench-load-probes.js';
import { createConnector, downloadAttachment, executeList, startLoadService, type LoadService } from './bench-load-service.js';
import { SyncDriver, type SyncFigures } from './bench-load-sync-driver.js';

const RECORDS = Number(process.env.BENCH_LOAD_RECORDS ?? 20_000);
const CALLS = Number(process.env.BENCH_LOAD_CALLS ?? 500);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 3);
const WARMUP_CALLS = 50;
/** How long the sync's own pace is measured, with nothing else running. */
const ALONE_MS = 5000;

interface BackendFigures {
  idle: PhaseFigures;
  during: PhaseFigures;
  alone: SyncFigures;
  underLoad: SyncFigures;
}

/**
 * Runs `task` on a fresh service on the database, then closes it. Closing stops a pass in flight
 * at its next record, so the next service starts idle without waiting for the pass to finish.
 */
async function withService<T>(databaseUrl: string, upstreams: Record<string, UpstreamInfo>, task: (load: LoadService) => Promise<T>): Promise<T> {
  const load = await startLoadService(databaseUrl, upstreams);
  try {
    return await task(load);
  } finally {
    await load.service.close();
  }
}

async function measureBackend(databaseUrl: string, upstreams: Record<string, UpstreamInfo>, attachmentGid: string): Promise<BackendFigures> {
  const alone = await withService(databaseUrl, upstreams, async (load) => {
    const driver = new SyncDriver(load);
    await driver.start();
    await new Promise((resolve) => setTimeout(resolve, ALONE_MS));
    return driver.stop();
  });
  const idle = new PhaseProbe();
  const during = new PhaseProbe();
  const underLoad: SyncFigures = { records: 0, seconds: 0 };
  // Rounds alternate the two conditions, so a change in the machine's own load hits both alike.
  for (let round = 0; round < ROUNDS; round++) {
    await withService(databaseUrl, upstreams, async (load) => {
      const hubspot = await createConnector(load, 'hubspot');
      const asana = await createConnector(load, 'asana');
      const execute = () => executeList(load, hubspot);
      const download = async () => {
        const bytes = await downloadAttachment(load, asana, attachmentGid);
        if (bytes !== LARGE_ATTACHMENT_SIZE) throw new Error(`downloaded ${bytes} bytes, expected ${LARGE_ATTACHMENT_SIZE}`);
        return bytes;
      };
      for (let i = 0; i < WARMUP_CALLS; i++) await execute();
      if (round === 0) await download();
      await idle.measure(CALLS, execute, download);
      const driver = new SyncDriver(load);
      await driver.start();
      await during.measure(CALLS, execute, download);
      const written = await driver.stop();
      underLoad.records += written.records;
      underLoad.seconds += written.seconds;
    });
  }
  return { idle: idle.figures(), during: during.figures(), alone, underLoad };
}

function printBackend(name: string, f: BackendFigures): void {
  const rate = (d: SyncFigures) => Math.round(d.records / d.seconds).toLocaleString('en-US');
  const n = (value: number, digits = 1) => value.toFixed(digits).padStart(10);
  const ratio = (during: number, idle: number) => `${(during / idle).toFixed(2)}x`.padStart(8);
  console.log(
    `\nsync under load, ${name}: HubSpot first passes write ${rate(f.alone)} records/s alone, ${rate(f.underLoad)} records/s during the measurements`,
  );
  console.log(`  ${'figure'.padEnd(22)} ${'idle'.padStart(10)} ${'sync'.padStart(10)} ${'ratio'.padStart(8)}  goal`);
  console.log(`  ${'execute p50 (ms)'.padEnd(22)} ${n(f.idle.executeP50, 2)} ${n(f.during.executeP50, 2)} ${ratio(f.during.executeP50, f.idle.executeP50)}`);
  console.log(
    `  ${'execute p99 (ms)'.padEnd(22)} ${n(f.idle.executeP99, 2)} ${n(f.during.executeP99, 2)} ${ratio(f.during.executeP99, f.idle.executeP99)}  <= 2x idle`,
  );
  console.log(`  ${'loop delay p99 (ms)'.padEnd(22)} ${n(f.idle.loopP99)} ${n(f.during.loopP99)} ${ratio(f.during.loopP99, f.idle.loopP99)}  < 50 ms`);
  console.log(`  ${'loop delay max (ms)'.padEnd(22)} ${n(f.idle.loopMax)} ${n(f.during.loopMax)} ${ratio(f.during.loopMax, f.idle.loopMax)}`);
  console.log(
    `  ${'  in download p99 (ms)'.padEnd(22)} ${n(f.idle.downloadLoopP99)} ${n(f.during.downloadLoopP99)} ${ratio(f.during.downloadLoopP99, f.idle.downloadLoopP99)}`,
  );
  console.log(
    `  ${'download (MiB/s)'.padEnd(22)} ${n(f.idle.downloadMiBs)} ${n(f.during.downloadMiBs)} ${ratio(f.during.downloadMiBs, f.idle.downloadMiBs)}  >= 0.7x idle`,
  );
}

/** Runs the sync-under-load benchmark on SQLite and PostgreSQL and prints a table per backend. */
export async function benchSyncLoad(): Promise<void> {
  const fakes = await startUpstreamsProcess(RECORDS);
  const { upstreams, largeAttachment: gid } = fakes;
  const dir = mkdtempSync(join(tmpdir(), 'ce-bench-load-'));
  try {
    console.log(
      `sync under load: hosted service; ${ROUNDS} rounds of an idle phase and a phase during a full sync, each ${CALLS} sequential executes (contacts list, limit 10) then a ${LARGE_ATTACHMENT_SIZE / 1048576} MiB download; service, its passes and the measuring client in one process, the fakes in another`,
    );
    printBackend('SQLite', await measureBackend(`sqlite:${join(dir, 'engine.db')}`, upstreams, gid));
    if (process.env.BENCH_LOAD_POSTGRES !== '0') {
      const cluster = await startPostgres();
      try {
        printBackend('PostgreSQL', await measureBackend(await cluster.createDatabase(), upstreams, gid));
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    await fakes.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchSyncLoad().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

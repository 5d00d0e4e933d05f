/**
 * Keeps full HubSpot passes running in the service's process for as long as a benchmark phase
 * lasts. Each pass is the first pass of a new connector, so every record is an insert with its
 * text index rows (a pass over an unchanged copy rewrites nothing and would flatter the figures).
 */
import { performance } from 'node:perf_hooks';
import { findManifest } from '../engine/manifest/index.js';
import { syncedEntities } from '../engine/sync/index.js';
import { createConnector, requestFullPass, type LoadService } from './bench-load-service.js';

const POLL_MS = 50;
const ENTITIES = syncedEntities(findManifest('hubspot').manifest).length;

/** Records written and the time they took. */
export interface SyncFigures {
  records: number;
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function recordsOf(load: LoadService, ids: string[]): Promise<number> {
  let total = 0;
  for (const id of ids) for (const state of await load.service.store.syncStates(id)) total += state.records;
  return total;
}

async function passDone(load: LoadService, id: string): Promise<boolean> {
  const states = await load.service.store.syncStates(id);
  if (states.some((s) => s.status === 'failed')) throw new Error(`a benchmark pass failed: ${states.map((s) => s.last_error).join('; ')}`);
  return states.length === ENTITIES && states.every((s) => s.status === 'succeeded');
}

/**
 * Passes started one after another: `start()` resolves once the first is writing records, so the
 * phase that follows measures the write-heavy part; `stop()` stops starting passes and reports
 * what was written since (closing the service then stops the pass in flight).
 */
export class SyncDriver {
  private readonly ids: string[] = [];
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();
  private from = { records: 0, at: 0 };

  constructor(private readonly load: LoadService) {}

  async start(): Promise<void> {
    this.loop = this.run();
    while ((await recordsOf(this.load, this.ids)) === 0) await sleep(POLL_MS / 5);
    this.from = { records: await recordsOf(this.load, this.ids), at: performance.now() };
  }

  /** Stops starting passes; returns the records written since `start()` resolved. */
  async stop(): Promise<SyncFigures> {
    this.stopped = true;
    const seconds = (performance.now() - this.from.at) / 1000;
    const records = (await recordsOf(this.load, this.ids)) - this.from.records;
    await this.loop;
    return { records, seconds };
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const id = await createConnector(this.load, 'hubspot');
      this.ids.push(id);
      await requestFullPass(this.load, id);
      while (!this.stopped && !(await passDone(this.load, id))) await sleep(POLL_MS);
    }
  }
}

import { randomBytes } from 'node:crypto';
import { IdleWait, systemClock, type Clock } from '../clock/index.js';
import type { Manifest } from '../manifest/index.js';
import type { Connection } from '../runtime/index.js';
import { processOwner, type Store, type SyncJob, type SyncState } from '../store/index.js';
import { LEASE_LOST, runSync, type SyncProgress } from './run-sync.js';
import { passEvent } from './pass-event.js';
import { passOutcome, writtenCounter, type SyncObserver } from './sync-observer.js';

/** DESIGN.md §7: the copy is refreshed every 60 minutes unless the operator says otherwise. */
export const DEFAULT_SYNC_INTERVAL_MS = 60 * 60 * 1000;

/** A connector's connection and manifest, opened for a pass; undefined when the connector is gone. */
export type OpenConnector = (connectorId: string) => Promise<{ connection: Connection; manifest: Manifest } | undefined>;

/** Where the scheduler reports what it does; pino-compatible. */
export interface SyncLogger {
  info(object: Record<string, unknown>, message: string): void;
  /** An entity whose pass failed, with its last_error (already redacted; e.g. a HOST_NOT_ALLOWED refusal). */
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

export interface SyncSchedulerOptions {
  store: Store;
  open: OpenConnector;
  /** Time between passes of one connector (default 60 min). */
  intervalMs?: number;
  /** How long a claimed job stays this process's without a heartbeat (default 2 min). */
  leaseMs?: number;
  /** How often an idle scheduler looks for due jobs (default 5 s). */
  pollMs?: number;
  /** Records per write transaction (default 500): smaller batches make a pass's progress durable in smaller steps. */
  batchSize?: number;
  /** Longest time between full passes where incremental ones are possible (default 24 h). */
  fullEveryMs?: number;
  /** Passes this process runs at once (default 4), so one slow connector does not hold up the others. */
  concurrency?: number;
  logger?: SyncLogger;
  onProgress?: (connectorId: string, progress: SyncProgress) => void;
  /** Told of records written and of each pass's outcome and duration (metrics). */
  observer?: SyncObserver;
  /** Where polls, heartbeats and due times are timed (default: real time). */
  clock?: Clock;
  /** Told after a pass wrote its webhook event, so the process's webhook worker sends it at once. */
  onEvent?: () => void;
}

/** What a pass started by `runNow` ended with. */
export type RunNowResult = { ran: true; states: SyncState[] } | { ran: false; job: SyncJob | undefined };

/**
 * Runs sync jobs from the store's job table: it claims one due job at a time under a lease it
 * keeps renewing, runs the pass, and schedules the next one an interval later. Several processes
 * on one PostgreSQL database share the jobs (claims use FOR UPDATE SKIP LOCKED); a process that
 * dies leaves a lease that expires, and another process (or the restarted one) runs the job again.
 * Passes upsert and only a complete full pass deletes, so the rerun loses and duplicates nothing.
 */
export class SyncScheduler {
  /** This scheduler's lease name: its process (so a dead process's jobs are taken over at once) and its own tag. */
  readonly owner = processOwner(randomBytes(4).toString('hex'));
  private stopped = true;
  private readonly idle: IdleWait;
  private loop: Promise<void> | undefined;
  private readonly active = new Map<string, Promise<unknown>>();
  private readonly stopping = new AbortController();
  /** The states of passes that ran to their end (not cut short): those announce sync.finished or sync.failed. */
  private readonly finished = new WeakSet<SyncState[]>();

  private readonly clock: Clock;

  constructor(private readonly options: SyncSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.idle = new IdleWait(this.clock);
  }

  get intervalMs(): number {
    return this.options.intervalMs ?? DEFAULT_SYNC_INTERVAL_MS;
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 2 * 60 * 1000;
  }

  /** Starts looking for due jobs in the background. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.poll();
  }

  /** Stops looking for jobs and waits for the passes in flight to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    // A pass in flight stops at its next record and leaves its job due at once, for whoever runs next.
    this.stopping.abort();
    this.idle.wakeUp();
    await this.loop;
    await Promise.allSettled([...this.active.values()]);
  }

  /** Looks for due jobs now instead of at the next poll (after a create or a POST .../sync). */
  kick(): void {
    this.idle.wakeUp();
  }

  /** Whether this process is running a pass of the connector. */
  isRunning(connectorId: string): boolean {
    return this.active.has(connectorId);
  }

  /**
   * Runs a pass of one connector now, in this process, if no other process holds its job (the
   * CLI's `sync <id>`). Otherwise answers with the job, so the caller can say who runs it.
   */
  async runNow(connectorId: string, options: { full?: boolean; onProgress?: (progress: SyncProgress) => void } = {}): Promise<RunNowResult> {
    if (options.full) await this.options.store.scheduleSync(connectorId, { dueAt: new Date(this.clock.now()), earliest: true, full: true });
    const job = await this.options.store.claimSyncJob(this.owner, this.leaseMs, connectorId);
    if (!job) return { ran: false, job: await this.options.store.syncJob(connectorId) };
    return { ran: true, states: await this.track(job, options.onProgress) };
  }

  private async poll(): Promise<void> {
    const concurrency = this.options.concurrency ?? 4;
    while (!this.stopped) {
      let job: SyncJob | undefined;
      if (this.active.size < concurrency) {
        try {
          job = await this.options.store.claimSyncJob(this.owner, this.leaseMs);
        } catch (error) {
          this.options.logger?.error({ err: error }, 'sync: could not claim a job');
        }
      }
      if (job) {
        // A finished pass frees a slot: look for the next due job at once.
        void this.track(job)
          .catch(() => undefined)
          .finally(() => this.kick());
        continue;
      }
      await this.idle.wait(this.options.pollMs ?? 5000);
    }
  }

  private track(job: SyncJob, onProgress?: (progress: SyncProgress) => void): Promise<SyncState[]> {
    const pass = this.run(job, onProgress);
    this.active.set(job.connector_id, pass);
    // The event is written once the pass is over for everyone (job released, not running here), so
    // a receiver that reads the sync status on sync.finished never sees the pass still running.
    return pass
      .finally(() => this.active.delete(job.connector_id))
      .then(async (states) => {
        if (this.finished.delete(states)) await this.announce(job.connector_id, states);
        return states;
      });
  }

  /** Writes sync.finished or sync.failed to the webhook outbox; a failure to write it never fails the pass. */
  private async announce(connectorId: string, states: SyncState[]): Promise<void> {
    try {
      await this.options.store.webhooks.emit(connectorId, passEvent(states));
      this.options.onEvent?.();
    } catch (error) {
      this.options.logger?.error({ err: error, connector: connectorId }, 'sync: could not write the webhook event');
    }
  }

  private async run(job: SyncJob, onProgress?: (progress: SyncProgress) => void): Promise<SyncState[]> {
    const { store, logger } = this.options;
    const id = job.connector_id;
    const lost = new AbortController();
    const heartbeat = this.clock.setRepeating(
      () => {
        store
          .renewSyncLease(id, this.owner, this.leaseMs)
          .then((held) => {
            if (held || lost.signal.aborted) return;
            // Another process took the job over (this one stalled past its lease): stop writing.
            logger?.error({ connector: id }, 'sync: lease lost to another process; stopping this pass');
            lost.abort(LEASE_LOST);
          })
          .catch((error: unknown) => logger?.error({ err: error, connector: id }, 'sync: lease renewal failed'));
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    let states: SyncState[] = [];
    let ran: { type: string; started: number } | undefined;
    const signal = AbortSignal.any([this.stopping.signal, lost.signal]);
    try {
      const opened = await this.options.open(id);
      if (!opened) return [];
      ran = { type: opened.manifest.type, started: performance.now() };
      const written = writtenCounter(ran.type, this.options.observer);
      logger?.info({ connector: id, full: job.full_requested }, 'sync: pass started');
      states = await runSync({
        ...opened,
        store,
        connectorId: id,
        mode: job.full_requested ? 'full' : 'auto',
        signal,
        clock: this.clock,
        ...(this.options.fullEveryMs !== undefined ? { fullEveryMs: this.options.fullEveryMs } : {}),
        ...(this.options.batchSize !== undefined ? { batchSize: this.options.batchSize } : {}),
        onProgress: (progress) => {
          written(progress);
          onProgress?.(progress);
          this.options.onProgress?.(id, progress);
        },
      });
      const summary = { connector: id, entities: states.map((s) => `${s.entity}:${s.status}:${s.records}`) };
      // A pass with a failed entity is a failure: operators filter on warn and above.
      if (states.some((s) => s.status === 'failed')) logger?.warn(summary, 'sync: pass finished with failures');
      else logger?.info(summary, 'sync: pass finished');
      for (const failed of states.filter((s) => s.status === 'failed'))
        logger?.warn({ connector: id, entity: failed.entity, last_error: failed.last_error }, 'sync: entity failed');
      // A pass cut short by this process stopping or losing its lease did not finish: its rerun reports.
      if (!signal.aborted) this.finished.add(states);
      return states;
    } catch (error) {
      logger?.error({ err: error, connector: id }, 'sync: pass could not start');
      throw error;
    } finally {
      heartbeat.cancel();
      if (ran) this.options.observer?.passed(ran.type, passOutcome(states, signal.aborted), (performance.now() - ran.started) / 1000);
      const fullDone = states.length > 0 && states.every((s) => s.status === 'succeeded' && s.mode === 'full');
      // A runner that lost its lease has nothing to release: the job is the new owner's, and the
      // pass ends with the states it has, whatever it threw.
      // eslint-disable-next-line no-unsafe-finally
      if (lost.signal.aborted) return states;
      await store
        .releaseSyncJob(id, this.owner, { nextDueAt: new Date(this.stopping.signal.aborted ? this.clock.now() : this.clock.now() + this.intervalMs), fullDone })
        .catch((error: unknown) => logger?.error({ err: error, connector: id }, 'sync: could not release the job'));
    }
  }
}

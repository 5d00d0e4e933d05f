import { systemClock, type Clock } from '../clock/index.js';
import { EngineError } from '../errors.js';
import { readPath } from '../http/index.js';
import type { Manifest, SyncPlan } from '../manifest/index.js';
import type { Connection } from '../runtime/index.js';
import { storeUnavailable, type Store, type SyncState, type SyncedRecord } from '../store/index.js';
import { copyRecord, newerCursor, olderCursor } from './copy-record.js';
import { discoverFields } from './discover-fields.js';
import { readPlan } from './read-plan.js';
import { toStorable } from './storable-record.js';

/** How often a full pass runs when incremental ones are possible: deletions show up at least daily. */
export const DEFAULT_FULL_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * How far the upstream's clock may run behind ours. A pass's next cursor is never later than its
 * start less this margin, so a record changed while the pass ran (after its page was read) is read
 * again by the next incremental pass, even when the upstream stamps it with a slower clock.
 */
export const CURSOR_SKEW_MARGIN_MS = 5 * 60 * 1000;

/** One step of a pass, for progress bars and logs. */
export interface SyncProgress {
  entity: string;
  /** 1-based position of the entity in the pass, and how many entities the pass has. */
  position: number;
  total: number;
  status: SyncState['status'];
  mode: SyncState['mode'];
  /** Records written so far in this entity's pass. */
  records: number;
}

/** What a sync pass needs. */
export interface SyncOptions {
  connection: Connection;
  manifest: Manifest;
  store: Store;
  connectorId: string;
  /** `full` forces full passes; `auto` (default) runs incremental ones where the plan allows and a recent full pass exists. */
  mode?: 'auto' | 'full';
  /** With `auto`: the longest time between full passes (default 24 h). */
  fullEveryMs?: number;
  /** Only these entities (default: every entity with a sync plan). */
  entities?: string[];
  /** Records per write transaction. */
  batchSize?: number;
  onProgress?: (progress: SyncProgress) => void;
  /** Stops the pass between records (process shutdown); the pass then ends as failed and removes nothing. */
  signal?: AbortSignal;
  /** Where start and finish times are read (default: real time). */
  clock?: Clock;
}

/** The last_error of a pass cut short by its process stopping: the next pass (anywhere) runs it again. */
export const STOPPED_MESSAGE = 'STOPPED: the process stopped during the pass; the next pass reads everything again';

/** The entities of a manifest that have a sync plan, and so the `search` action. */
export function syncedEntities(manifest: Manifest): string[] {
  return Object.entries(manifest.entities)
    .filter(([, spec]) => spec.sync)
    .map(([name]) => name);
}

function chooseMode(plan: SyncPlan, previous: SyncState | undefined, options: SyncOptions): SyncState['mode'] {
  if (options.mode === 'full' || !plan.incremental || !previous?.cursor || !previous.last_full_at) return 'full';
  const age = (options.clock ?? systemClock).now() - Date.parse(previous.last_full_at);
  return age < (options.fullEveryMs ?? DEFAULT_FULL_EVERY_MS) ? 'incremental' : 'full';
}

/** Why a runner stops when its lease renewal fails: another process owns the pass now. */
export const LEASE_LOST = 'LEASE_LOST: another process took over this pass';

function describeFailure(error: unknown, signal: AbortSignal | undefined): string {
  if (signal?.aborted) return typeof signal.reason === 'string' ? signal.reason : STOPPED_MESSAGE;
  const known = error instanceof EngineError ? error : storeUnavailable(error);
  return known ? `${known.code}: ${known.message}` : 'INTERNAL: the sync pass failed';
}

class EntityPass {
  readonly state: SyncState;
  private readonly seen = new Set<string>();
  private batch: SyncedRecord[] = [];
  /** The batch being written (flush), while the next one fills. */
  private writing: Promise<void> | undefined;
  /** The cursor of the last successful pass: what the stored state keeps until this one succeeds. */
  private readonly committedCursor: string | null;
  /** The newest `cursor_field` value read so far, written or not. */
  private highWater: string | null = null;
  /** The newest value among records already written (advances the stored cursor only for ordered reads). */
  private writtenHighWater: string | null = null;
  private readonly now = () => (this.options.clock ?? systemClock).now();

  constructor(
    private readonly options: SyncOptions,
    private readonly entity: string,
    private readonly plan: SyncPlan,
    private readonly previous: SyncState | undefined,
    private readonly position: number,
    private readonly total: number,
  ) {
    const mode = chooseMode(plan, previous, options);
    this.committedCursor = previous?.cursor ?? null;
    this.state = {
      connector_id: options.connectorId,
      entity,
      status: 'running',
      mode,
      records: 0,
      // Real time, not the injected clock: generations order passes across processes.
      generation: Date.now(),
      cursor: this.committedCursor,
      started_at: new Date(this.now()).toISOString(),
      finished_at: null,
      last_success_at: previous?.last_success_at ?? null,
      last_full_at: previous?.last_full_at ?? null,
      last_error: null,
      // Search keeps the types of the last successful pass until this one succeeds.
      ...(plan.discover_fields && previous?.value_types ? { value_types: previous.value_types } : {}),
    };
  }

  async run(): Promise<SyncState> {
    const { store, connectorId } = this.options;
    await store.saveSyncState(this.state);
    this.report();
    try {
      const since = this.state.mode === 'incremental' ? (this.previous?.cursor ?? undefined) : undefined;
      const { connection, signal } = this.options;
      const discovered = this.plan.discover_fields ? await discoverFields(connection, this.entity, this.plan.discover_fields, signal) : undefined;
      for await (const record of readPlan(connection, this.entity, this.plan, since, discovered?.readParams, signal)) await this.add(record);
      await this.flush();
      await this.settle();
      // Only a full pass that read everything (and still owns its job) may remove what it did not see.
      this.options.signal?.throwIfAborted();
      if (this.state.mode === 'full') await store.removeStaleRecords(connectorId, this.entity, this.state.generation);
      const finished = new Date(this.now()).toISOString();
      Object.assign(this.state, { status: 'succeeded', finished_at: finished, last_success_at: finished, cursor: this.nextCursor() });
      if (discovered) this.state.value_types = discovered.valueTypes;
      if (this.state.mode === 'full') this.state.last_full_at = finished;
    } catch (error) {
      // The batch still being written ends first (written or not): its state update must not follow this one.
      await this.writing?.catch(() => undefined);
      // A failed pass keeps the cursor of what is durably copied: the next one reads from there.
      Object.assign(this.state, {
        status: 'failed',
        finished_at: new Date(this.now()).toISOString(),
        last_error: describeFailure(error, this.options.signal),
        cursor: this.durableCursor(),
      });
      // The new owner of the pass writes the state from now on; this runner must not overwrite it.
      if (this.options.signal?.reason === LEASE_LOST) return this.state;
    }
    await store.saveSyncState(this.state);
    this.report();
    return this.state;
  }

  private async add(record: Record<string, unknown>): Promise<void> {
    this.options.signal?.throwIfAborted();
    const id = readPath(record, this.plan.id);
    if (id === undefined || id === null || typeof id === 'object') {
      throw new EngineError('UPSTREAM_ERROR', `a ${this.entity} record has no id at "${this.plan.id}"`);
    }
    if (this.plan.incremental) this.highWater = newerCursor(this.highWater, readPath(record, this.plan.incremental.cursor_field));
    const key = String(id);
    // A record reached through two partitions (a task in two projects) is written once per pass.
    if (this.seen.has(key)) return;
    this.seen.add(key);
    // The data is made storable where the store serializes it (engine/store/storable-json.ts), in one pass over its JSON.
    this.batch.push({ id: toStorable(key), data: copyRecord(record, this.plan) });
    if (this.batch.length >= (this.options.batchSize ?? 500)) await this.flush();
  }

  /**
   * Hands the full batch to the store and goes back to reading while it is written: at most one
   * batch is being written while the next one fills (a bounded queue of two), so the upstream's
   * pages and the store's writes overlap instead of taking turns.
   */
  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    this.options.signal?.throwIfAborted();
    const [batch, highWater] = [this.batch, this.highWater];
    this.batch = [];
    await this.settle();
    this.writing = this.write(batch, highWater);
    // Handled at once: a failed write is reported by the next settle(), not as an unhandled rejection while a page loads.
    this.writing.catch(() => undefined);
  }

  /** Waits for the batch being written; throws its failure. */
  private async settle(): Promise<void> {
    const writing = this.writing;
    this.writing = undefined;
    await writing;
  }

  /**
   * Writes one batch, then moves the stored state past it: its records counted and, for ordered
   * reads, the cursor up to the newest value it held. Batches are written in order, one at a time.
   */
  private async write(batch: SyncedRecord[], highWater: string | null): Promise<void> {
    await this.options.store.writeRecords(this.options.connectorId, this.entity, this.state.generation, batch);
    this.state.records += batch.length;
    this.writtenHighWater = highWater;
    this.state.cursor = this.durableCursor();
    // The stored state follows the pass batch by batch, so GET .../sync (any process) shows progress.
    await this.options.store.saveSyncState(this.state);
    this.report();
  }

  /**
   * The cursor the stored state may hold mid-pass: the last success's, or, where the upstream
   * returns records in cursor order, the newest value already written (everything older is in the
   * copy). Never the newest value read: records not yet written would be skipped after a crash.
   */
  private durableCursor(): string | null {
    if (!this.plan.incremental?.ordered) return this.committedCursor;
    return newerCursor(this.committedCursor, this.writtenHighWater);
  }

  /**
   * The cursor a successful pass leaves: the newest value read, capped at the pass's start less
   * the skew margin. A full pass read everything, so its own value replaces the old one; an
   * incremental pass only moves the cursor forward.
   */
  private nextCursor(): string | null {
    if (!this.plan.incremental) return null;
    const full = this.state.mode === 'full';
    if (this.highWater === null) return full ? null : this.committedCursor;
    const cap = new Date(Date.parse(this.state.started_at) - CURSOR_SKEW_MARGIN_MS).toISOString();
    const seen = olderCursor(this.highWater, cap);
    return full ? seen : newerCursor(this.committedCursor, seen);
  }

  private report(): void {
    const { entity, status, mode, records } = this.state;
    this.options.onProgress?.({ entity, position: this.position, total: this.total, status, mode, records });
  }
}

/**
 * One pass over every entity with a sync plan (or the chosen ones). A full pass upserts records
 * stamped with the pass, then removes the ones it did not see; an incremental pass only upserts
 * what changed since the last cursor. A pass that fails part-way removes nothing, so an
 * interrupted sync loses no record; running it again upserts, so it duplicates none.
 */
export async function runSync(options: SyncOptions): Promise<SyncState[]> {
  const previous = new Map((await options.store.syncStates(options.connectorId)).map((s) => [s.entity, s]));
  const entities = options.entities ?? syncedEntities(options.manifest);
  const states: SyncState[] = [];
  for (const [index, entity] of entities.entries()) {
    if (options.signal?.aborted) break;
    const plan = options.manifest.entities[entity]?.sync;
    if (!plan) throw new EngineError('INVALID_REQUEST', `${options.manifest.type} ${entity} has no sync plan`);
    states.push(await new EntityPass(options, entity, plan, previous.get(entity), index + 1, entities.length).run());
  }
  return states;
}

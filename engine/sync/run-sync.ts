import { EngineError } from '../errors.js';
import { readPath } from '../http/index.js';
import type { Manifest } from '../manifest/index.js';
import type { Connection } from '../runtime/index.js';
import type { Store, SyncState, SyncedRecord } from '../store/index.js';

/** What a sync pass needs. */
export interface SyncOptions {
  connection: Connection;
  manifest: Manifest;
  store: Store;
  connectorId: string;
  /** Records per write transaction. */
  batchSize?: number;
}

/** The entities of a manifest that have a sync plan. */
export function syncedEntities(manifest: Manifest): string[] {
  return Object.entries(manifest.entities)
    .filter(([, spec]) => spec.sync)
    .map(([name]) => name);
}

async function syncEntity(options: SyncOptions, entity: string, previous: SyncState | undefined): Promise<SyncState> {
  const plan = options.manifest.entities[entity]!.sync!;
  const generation = Date.now();
  const state: SyncState = {
    connector_id: options.connectorId,
    entity,
    status: 'running',
    records: 0,
    generation,
    started_at: new Date().toISOString(),
    finished_at: null,
    last_success_at: previous?.last_success_at ?? null,
    last_error: null,
  };
  await options.store.saveSyncState(state);
  try {
    let batch: SyncedRecord[] = [];
    for await (const record of options.connection.records(entity, plan.read.action, plan.read.params ?? {})) {
      const id = readPath(record, plan.id);
      if (id === undefined || id === null) throw new EngineError('UPSTREAM_ERROR', `a ${entity} record has no id at "${plan.id}"`);
      batch.push({ id: String(id), data: record });
      if (batch.length >= (options.batchSize ?? 500)) {
        await options.store.writeRecords(options.connectorId, entity, generation, batch);
        state.records += batch.length;
        batch = [];
      }
    }
    await options.store.writeRecords(options.connectorId, entity, generation, batch);
    state.records += batch.length;
    // Only a pass that read everything may remove what it did not see.
    await options.store.removeStaleRecords(options.connectorId, entity, generation);
    const finished = new Date().toISOString();
    Object.assign(state, { status: 'succeeded', finished_at: finished, last_success_at: finished });
  } catch (error) {
    const message = error instanceof EngineError ? `${error.code}: ${error.message}` : 'INTERNAL: the sync pass failed';
    Object.assign(state, { status: 'failed', finished_at: new Date().toISOString(), last_error: message });
  }
  await options.store.saveSyncState(state);
  return state;
}

/**
 * One full pass over every entity with a sync plan: reads every page, upserts by id stamped with
 * the pass, then removes the records the pass did not see. A pass that fails part-way removes
 * nothing, so an interrupted sync loses no record; running it again upserts, so it duplicates none.
 */
export async function runSync(options: SyncOptions): Promise<SyncState[]> {
  const previous = new Map((await options.store.syncStates(options.connectorId)).map((s) => [s.entity, s]));
  const states: SyncState[] = [];
  for (const entity of syncedEntities(options.manifest)) states.push(await syncEntity(options, entity, previous.get(entity)));
  return states;
}

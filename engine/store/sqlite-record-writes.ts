import type Database from 'better-sqlite3';
import type { ChunkDone } from './timed-chunks.js';

/** A record on its way into the SQLite copy: `data` already serialized (JSON text). */
export interface SerializedRecord {
  id: string;
  data: string;
}

/** Where a batch goes: one entity of one connector, stamped with the pass that read it. */
export interface RecordTarget {
  connectorId: string;
  entity: string;
  generation: number;
}

/** The synchronized copy's writes on one SQLite connection, as short transactions the caller chunks. */
export interface SqliteRecordWrites {
  /**
   * Upserts `records` in one transaction; the text index follows through the table's triggers.
   * With `yieldNow`, asked after each record, the transaction commits early once it answers true
   * (another writer wants the lock); it always writes at least one record. Returns how many it wrote.
   */
  upsert(target: RecordTarget, now: string, records: readonly SerializedRecord[], yieldNow?: () => boolean): ChunkDone;
  /** The seqs of the entity's records stamped before `generation` (read without taking the write lock). */
  staleSeqs(target: RecordTarget): number[];
  /** Deletes those of `seqs` still stamped before `generation` in one transaction; counts the rows removed. */
  remove(target: RecordTarget, seqs: readonly number[]): ChunkDone;
}

/**
 * Prepares the copy's writes on `db`. The store's connection uses them when it has no write
 * thread (an in-memory database); the write thread (sqlite-write-worker.ts) uses them otherwise.
 *
 * The upsert keeps an unchanged record's row as it is (the index triggers skip it), and never
 * lowers the stamp of a newer pass (a stalled runner after a takeover), so the newer pass's sweep
 * cannot remove a record it saw. A sweep re-checks the stamp as it deletes, for the same reason.
 */
export function prepareRecordWrites(db: Database.Database): SqliteRecordWrites {
  const upsertOne = db.prepare(`INSERT INTO search_records (connector_id, entity, id, data, updated_at, sync_generation)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (connector_id, entity, id) DO UPDATE SET
      data = CASE WHEN data = excluded.data THEN data ELSE excluded.data END,
      updated_at = CASE WHEN data = excluded.data THEN updated_at ELSE excluded.updated_at END,
      sync_generation = max(sync_generation, excluded.sync_generation)`);
  const stale = db.prepare('SELECT seq FROM search_records WHERE connector_id = ? AND entity = ? AND sync_generation < ?').pluck();
  const removeOne = db.prepare('DELETE FROM search_records WHERE seq = ? AND connector_id = ? AND entity = ? AND sync_generation < ?');
  const upsert = db.transaction((target: RecordTarget, now: string, records: readonly SerializedRecord[], yieldNow?: () => boolean) => {
    let written = 0;
    // Positional parameters: no object built per record.
    for (const record of records) {
      upsertOne.run(target.connectorId, target.entity, record.id, record.data, now, target.generation);
      if (++written < records.length && yieldNow?.()) break;
    }
    return { taken: written, count: written };
  });
  const remove = db.transaction((target: RecordTarget, seqs: readonly number[]) => {
    let removed = 0;
    for (const seq of seqs) removed += removeOne.run(seq, target.connectorId, target.entity, target.generation).changes;
    return { taken: seqs.length, count: removed };
  });
  return {
    // IMMEDIATE: the write lock is taken at BEGIN, so a chunk never fails half-way on a lock upgrade.
    upsert: (target, now, records, yieldNow) => upsert.immediate(target, now, records, yieldNow),
    staleSeqs: (target) => stale.all(target.connectorId, target.entity, target.generation) as number[],
    remove: (target, seqs) => remove.immediate(target, seqs),
  };
}

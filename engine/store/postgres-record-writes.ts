import type pg from 'pg';
import type { RecordTarget } from './sqlite-record-writes.js';
import { checkIn, checkOut } from './pg-checkout.js';
import { storableJson } from './storable-json.js';
import { SERIALIZE_SLICE, slices } from './timed-chunks.js';
import type { SyncedRecord } from './types.js';

/**
 * One slice of a batch: jsonb_to_recordset turns the JSON array into rows, so a slice is one
 * statement and one round trip. IS DISTINCT FROM keeps an unchanged record's updated_at. Named,
 * so each pooled connection parses and plans it once.
 */
const UPSERT_SLICE = {
  name: 'search-records-upsert-slice',
  text: `INSERT INTO search_records (connector_id, entity, id, data, updated_at, sync_generation)
    SELECT $1, $2, r.id, r.data, now(), $3 FROM jsonb_to_recordset($4::jsonb) AS r(id text, data jsonb)
    ON CONFLICT (connector_id, entity, id) DO UPDATE SET
      data = excluded.data,
      updated_at = CASE WHEN search_records.data IS DISTINCT FROM excluded.data THEN excluded.updated_at ELSE search_records.updated_at END,
      -- A pass never lowers the stamp of a newer one (a stalled runner after a takeover), so the
      -- newer pass's sweep cannot remove a record it saw.
      sync_generation = GREATEST(search_records.sync_generation, excluded.sync_generation)`,
};

/** A slice as the JSON array jsonb_to_recordset reads: each record's data serialized once, as storable text. */
function sliceJson(records: readonly SyncedRecord[]): string {
  return `[${records.map((record) => `{"id":${JSON.stringify(record.id)},"data":${storableJson(record.data)}}`).join(',')}]`;
}

/**
 * Upserts a batch in one transaction on one pooled connection, a statement per slice of
 * SERIALIZE_SLICE records. Why one transaction: a commit per slice costs a WAL flush each where
 * synchronous_commit is on. Why slices: serializing one holds the event loop for a millisecond or
 * two, and the loop runs while the server writes it; the next slice is serialized meanwhile.
 */
export async function upsertPostgresRecords(pool: pg.Pool, target: RecordTarget, records: readonly SyncedRecord[]): Promise<void> {
  if (records.length === 0) return;
  const client = await checkOut(pool);
  let running: Promise<unknown> | undefined;
  try {
    await client.query('BEGIN');
    for (const slice of slices(records, SERIALIZE_SLICE)) {
      const values = [target.connectorId, target.entity, target.generation, sliceJson(slice)];
      await running;
      running = client.query({ ...UPSERT_SLICE, values });
      // Awaited on the next turn or below; handled now so a failure while the next slice serializes is not unhandled.
      running.catch(() => undefined);
    }
    await running;
    await client.query('COMMIT');
  } catch (error) {
    await running?.catch(() => undefined);
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    checkIn(client);
  }
}

/**
 * The sync benchmark's baseline: a raw loop that reads HubSpot contacts from the fake exactly as a
 * sync pass does and inserts them into the store's record table with the least code and work a
 * hand-written importer would need. See scripts/bench-sync.ts for its definition and why.
 */
import Database from 'better-sqlite3';
import got from 'got';
import pg from 'pg';
import type { UpstreamInfo } from '../engine/sandbox/index.js';

/** Records per write transaction of the raw loop: the sync pass's default batch (run-sync.ts). */
export const RAW_BATCH = 500;

/** The copy's key in the store: what `connect('hubspot', {store})` uses (engine/connect.ts). */
export const COPY_ID = 'local:hubspot';

/** One row of the record table as both sides write it. */
export interface RawRow {
  id: string;
  data: string;
}

interface HubspotPage {
  results: Array<{
    id: string;
    properties: Record<string, string | null>;
    createdAt: string;
    updatedAt: string;
    archived: boolean;
    associations?: { companies?: { results: Array<{ id: string }> } };
  }>;
  paging?: { next?: { after: string } };
}

/** Writes one batch of rows in one transaction; the record table's own triggers/generated column keep the text index. */
export type BatchWriter = (rows: RawRow[]) => Promise<void> | void;

/**
 * The property names a pass asks for: the portal's definitions less hidden and archived ones
 * (hubspot.yaml discover_properties), comma-joined.
 */
async function propertyNames(info: UpstreamInfo, headers: Record<string, string>): Promise<string> {
  const { results } = await got(`${info.base_url}/crm/v3/properties/contacts`, { headers }).json<{
    results: Array<{ name: string; hidden?: boolean; archived?: boolean }>;
  }>();
  return [...new Set(results.filter((p) => p.hidden !== true && p.archived !== true).map((p) => p.name))].join(',');
}

/**
 * The stored record, as the sync plan shapes it (hubspot.yaml contacts.sync: the searchable fields
 * in their declared order, `companies` plucked from the associations): byte for byte the JSON the
 * engine writes, so the two copies can be compared.
 */
function shape(record: HubspotPage['results'][number]): string {
  const companies = record.associations?.companies?.results.map((company) => company.id) ?? [];
  const { archived, createdAt, id, properties, updatedAt } = record;
  return JSON.stringify({ archived, companies, createdAt, id, properties, updatedAt });
}

/**
 * Pages every live then archived contact (limit 100, the `after` cursor, the same query the pass
 * sends) and hands the rows to `write` RAW_BATCH at a time, awaiting each write before the next
 * page is read. Returns how many rows it wrote.
 */
export async function rawPass(info: UpstreamInfo, write: BatchWriter): Promise<number> {
  const headers = { authorization: `Bearer ${String(info.credentials.access_token)}`, accept: 'application/json' };
  const properties = await propertyNames(info, headers);
  let batch: RawRow[] = [];
  let written = 0;
  for (const archived of [false, true]) {
    for (let after: string | undefined; ;) {
      const searchParams: Record<string, string> = { limit: '100', associations: 'companies', properties };
      if (archived) searchParams.archived = 'true';
      if (after) searchParams.after = after;
      const page = await got(`${info.base_url}/crm/v3/objects/contacts`, { headers, searchParams }).json<HubspotPage>();
      for (const record of page.results) batch.push({ id: record.id, data: shape(record) });
      if (batch.length >= RAW_BATCH) [written, batch] = [written + (await flush(write, batch)), []];
      after = page.paging?.next?.after;
      if (!after) break;
    }
  }
  return written + (await flush(write, batch));
}

async function flush(write: BatchWriter, rows: RawRow[]): Promise<number> {
  if (rows.length > 0) await write(rows);
  return rows.length;
}

/**
 * SQLite: one connection to the store's file, WAL with synchronous=NORMAL (the cheapest setting
 * that still survives a crashed process), one prepared INSERT run per row inside one transaction
 * per batch. The table's triggers fill the text indexes (record-table.ts).
 */
export function sqliteWriter(file: string, generation: number): { write: BatchWriter; close: () => void } {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare('INSERT INTO search_records (connector_id, entity, id, data, updated_at, sync_generation) VALUES (?, ?, ?, ?, ?, ?)');
  const insertAll = db.transaction((rows: RawRow[], now: string) => {
    for (const row of rows) insert.run(COPY_ID, 'contacts', row.id, row.data, now, generation);
  });
  return { write: (rows) => insertAll.immediate(rows, new Date().toISOString()), close: () => db.close() };
}

/**
 * PostgreSQL: one connection, one named (server-side prepared) INSERT per batch that unnests the
 * batch's ids and JSON texts, inside BEGIN/COMMIT. The generated trigram column and its GIN index
 * follow by themselves (record-table.ts).
 */
export async function postgresWriter(url: string, generation: number): Promise<{ write: BatchWriter; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const write = async (rows: RawRow[]) => {
    await client.query('BEGIN');
    await client.query({
      name: 'raw-insert',
      text: `INSERT INTO search_records (connector_id, entity, id, data, updated_at, sync_generation)
             SELECT $1, 'contacts', r.id, r.data, now(), $2 FROM unnest($3::text[], $4::jsonb[]) AS r(id, data)`,
      values: [COPY_ID, generation, rows.map((row) => row.id), rows.map((row) => row.data)],
    });
    await client.query('COMMIT');
  };
  return { write, close: () => client.end() };
}

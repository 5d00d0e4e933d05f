/**
 * A script that uses a local SQLite copy runs to its end: the store's write and search threads
 * hold the process open while they have work (they are unreferenced when idle, so a finished
 * script still exits). Without that, `await`ing a write or a search with nothing else pending
 * ended the process with code 13 (an unsettled top-level await) before the answer arrived.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const ENTRY = new URL('../../dist/engine/index.js', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'ce-threads-exit-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `
import { connect, openStore } from ${JSON.stringify(ENTRY)};
const store = await openStore(process.argv[2]);
const now = new Date().toISOString();
await store.writeRecords('local:hubspot', 'contacts', 1, [{ id: '7', data: { id: '7', properties: { email: 'ada@example.com' } } }]);
await store.saveSyncState({ connector_id: 'local:hubspot', entity: 'contacts', status: 'succeeded', mode: 'full', records: 1, generation: 1,
  cursor: null, started_at: now, finished_at: now, last_success_at: now, last_full_at: now, last_error: null });
const hubspot = connect('hubspot', { credentials: { access_token: 'not-used-by-search' }, store });
const found = await hubspot.execute('contacts', 'search', { query: { filter: { like: { 'properties.email': '%@example.com' } } } });
console.log(JSON.stringify(found.hits.map((hit) => hit.id)));
await store.close();
`;

test('a script that writes and searches an SQLite copy runs to its end and exits 0', async () => {
  const script = join(dir, 'script.mjs');
  writeFileSync(script, SCRIPT);
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [script, `sqlite:${join(dir, 'copy.db')}`], (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  expect(result).toEqual({ code: 0, stdout: '["7"]\n', stderr: '' });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type Connection, type SearchResult, type SyncState } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

// Issue 6: "Paging through 5,000 hits with the cursor while a sync rewrites records returns every
// unchanged record exactly once." Through the library, with a real sync pass against the fake.

const CONTACTS = 5600;
let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ records: CONTACTS, rateLimits: false });
});
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

async function databaseUrl(backend: 'sqlite' | 'postgres'): Promise<string> {
  if (backend === 'sqlite') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'paging-')), 'copy.db')}`;
  cluster ??= await startPostgres();
  return cluster.createDatabase();
}

function open(url: string): Connection {
  const info = sandbox.upstreams.hubspot!;
  return connect<string>('hubspot', { credentials: info.credentials, config: info.config, baseUrl: info.base_url, store: url });
}

describe.each(['sqlite', 'postgres'] as const)('cursor paging while a sync rewrites records (%s)', (backend) => {
  test('every unchanged record comes exactly once; changed ones at most once', async () => {
    const connection = open(await databaseUrl(backend));
    const dataset = sandbox.fakes.hubspot.dataset;
    const originalNames = new Map<string, string | undefined>();
    const archivedByTest: string[] = [];
    try {
      const [first] = await connection.sync({ entities: ['contacts'] });
      expect(first).toMatchObject({ entity: 'contacts', status: 'succeeded', mode: 'full' });
      // The copy holds live and archived contacts (a HubSpot deletion archives).
      const upstream = dataset.records('contacts').map((c) => c.id);
      const archivedBefore = dataset.records('contacts', true).map((c) => c.id);
      const all = [...upstream, ...archivedBefore];
      expect(upstream.length).toBeGreaterThanOrEqual(5000);
      expect(first!.records).toBe(all.length);

      // Upstream changes the next pass will carry into the copy: renamed and deleted (archived) contacts.
      const renamed = new Set(upstream.filter((_, i) => i % 17 === 3));
      const removed = new Set(upstream.filter((_, i) => i % 29 === 5 && !renamed.has(upstream[i]!)));
      for (const id of renamed) {
        const properties = dataset.find('contacts', id)!.properties;
        originalNames.set(id, properties.lastname);
        properties.lastname = `Renamed${id}`;
      }
      for (const id of removed) {
        dataset.setArchived('contacts', id, true);
        archivedByTest.push(id);
      }

      // Slow upstream pages, so the rewriting pass is still running while we page.
      sandbox.fakes.hubspot.faults.latency(60);
      let rewriting = true;
      let rewritten = 0;
      let resolveStarted!: () => void;
      const started = new Promise<void>((resolve) => (resolveStarted = resolve));
      const pass = connection
        .sync({
          entities: ['contacts'],
          full: true,
          onProgress: (progress) => {
            rewritten = progress.records;
            if (progress.records > 0) resolveStarted();
          },
        })
        .finally(() => (rewriting = false));
      await started;

      const seen = new Map<string, number>();
      const overlapping: boolean[] = [];
      let cursor: string | null = null;
      do {
        const page: SearchResult = await connection.execute('contacts', 'search', {
          query: { sort: [{ createdAt: 'asc' }] },
          limit: 250,
          fields: ['id', 'properties.lastname'],
          ...(cursor ? { cursor } : {}),
        });
        overlapping.push(rewriting);
        for (const hit of page.hits) seen.set(hit.id, (seen.get(hit.id) ?? 0) + 1);
        cursor = page.next_cursor;
      } while (cursor);

      const [second] = (await pass) as SyncState[];
      sandbox.fakes.hubspot.faults.reset();
      // The test means something only if the pass was writing while most pages were read.
      expect(overlapping.filter(Boolean).length).toBeGreaterThan(overlapping.length / 2);
      expect(rewritten).toBe(all.length);
      expect(second).toMatchObject({ status: 'succeeded', mode: 'full', records: all.length });

      const unchanged = all.filter((id) => !renamed.has(id) && !removed.has(id));
      expect(unchanged.length).toBeGreaterThanOrEqual(5000);
      expect(unchanged.filter((id) => seen.get(id) !== 1)).toEqual([]);
      expect([...seen.entries()].filter(([, count]) => count > 1)).toEqual([]);
      expect([...seen.keys()].filter((id) => !all.includes(id))).toEqual([]);

      // After the pass: renamed contacts carry the new name, deleted ones are archived.
      const renamedHits = await connection.execute('contacts', 'search', { query: { filter: { like: { 'properties.lastname': 'Renamed%' } } }, limit: 10000 });
      expect(renamedHits.hits.map((h) => h.id).sort()).toEqual([...renamed].sort());
      const removedHits = await connection.execute('contacts', 'search', {
        query: { filter: { in: { id: [...removed] } } },
        limit: 10000,
        fields: ['archived'],
      });
      expect(removedHits.hits.map((h) => [h.id, h.data.archived]).sort()).toEqual([...removed].map((id) => [id, true]).sort());
      const archivedHits = await connection.execute('contacts', 'search', { query: { filter: { eq: { archived: true } } }, limit: 10000, fields: ['id'] });
      expect(archivedHits.hits.map((h) => h.id).sort()).toEqual([...archivedBefore, ...removed].sort());
    } finally {
      sandbox.fakes.hubspot.faults.reset();
      // Put the upstream back as it was for the other backend's run.
      for (const id of archivedByTest) dataset.setArchived('contacts', id, false);
      for (const [id, name] of originalNames) dataset.find('contacts', id)!.properties.lastname = name as string;
      await connection.close();
    }
  }, 120_000);
});

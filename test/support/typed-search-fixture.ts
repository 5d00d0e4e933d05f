import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { EngineError } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import type { SearchHit } from '../../engine/search/index.js';
import { startPostgres, type PostgresCluster } from './postgres.js';

/** What the typed-search suites share: a small sandbox, one PostgreSQL cluster and temp SQLite folders. */
export interface TypedSearchFixture {
  /** Connect options that reach a sandbox fake. */
  upstreamOptions(type: 'hubspot' | 'shopify'): { credentials: Record<string, unknown>; config: Record<string, unknown>; baseUrl: string };
  /** A fresh store URL on the backend: a database of the shared cluster, or a file in a temp folder. */
  storeUrl(backend: 'sqlite' | 'postgres', name: string): Promise<string>;
  /** The shared cluster, started on first use. */
  postgres(): Promise<PostgresCluster>;
}

/**
 * Registers the suite's beforeAll/afterAll: a sandbox of 60 records per type without rate limits,
 * and, at the end, the cluster stopped and the temp folders (named `<prefix>-...`) removed.
 */
export function typedSearchFixture(prefix: string): TypedSearchFixture {
  let sandbox: Sandbox | undefined;
  let cluster: PostgresCluster | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ records: 60, rateLimits: false });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    await cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const postgres = async () => (cluster ??= await startPostgres());
  return {
    upstreamOptions(type) {
      const info = sandbox!.upstreams[type]!;
      return { credentials: info.credentials, config: info.config, baseUrl: info.base_url };
    },
    async storeUrl(backend, name) {
      if (backend === 'postgres') return (await postgres()).createDatabase();
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      dirs.push(dir);
      return `sqlite:${join(dir, `${name}.db`)}`;
    },
    postgres,
  };
}

/** The error a promise rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    return error as EngineError;
  }
  throw new Error('expected a rejection');
}

/** The ids of search hits, sorted. */
export const ids = (hits: SearchHit[]) => hits.map((hit) => hit.id).sort();

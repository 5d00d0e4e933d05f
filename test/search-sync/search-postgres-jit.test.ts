import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType } from '../../engine/search/index.js';
import { openPostgresSearchBackend, type SearchBackend } from '../support/search-records.js';

/**
 * PostgreSQL compiles a statement to machine code (JIT) when its estimated cost passes
 * jit_above_cost, and a search's estimate counts branches that never run: at 1M records that
 * compiling took 48 of a deep filter's 50 ms. A search turns JIT off on the connection it runs on.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', n: 'integer' };

describe('searches on postgres run without JIT compilation', () => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await openPostgresSearchBackend();
    await backend.upsert({ connectorId: 'jit', entity: 'rows' }, [{ id: 'a', name: 'launch plan', n: 1 }], 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('turns jit off on the session of the connection a search ran on, whatever the server default', async () => {
    const pool = backend.db as pg.Pool;
    const client = await pool.connect();
    try {
      await client.query('SET jit = on');
      const filter = { or: [{ like: { name: 'launch%' } }, { gt: { n: 0 } }] };
      const result = await runSearch(client, 'postgres', { connectorId: 'jit', entity: 'rows' }, parseSearchParams({ query: { filter } }, FIELDS));
      expect(result.hits.map((hit) => hit.id)).toEqual(['a']);
      expect((await client.query<{ jit: string }>('SHOW jit')).rows[0]?.jit).toBe('off');
    } finally {
      client.release();
    }
  });
});

/**
 * Open-source mode on PostgreSQL when the database goes away: a connection's copy (connect with
 * `store: url`) fails its calls with a typed, retryable SERVICE_UNAVAILABLE (not the driver's own
 * error) while the server is down or was never up, and the same connection works again once it is
 * back, without being made anew.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, EngineError } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';

let sandbox: Sandbox;
let cluster: PostgresCluster;

beforeAll(async () => {
  [sandbox, cluster] = await Promise.all([startSandbox({ records: 30, rateLimits: false }), startPostgres()]);
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await cluster?.stop();
});

function hubspot(store: string) {
  const info = sandbox.upstreams.hubspot!;
  return connect('hubspot', { credentials: info.credentials, config: info.config, baseUrl: info.base_url, store });
}

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

const UNREACHABLE = { code: 'SERVICE_UNAVAILABLE', message: 'the database cannot be reached; retry the call once it is up', retryable: true };

test('a copy whose database restarts: search, sync and states fail with SERVICE_UNAVAILABLE while it is down; the same connection answers once it is back', async () => {
  const connection = hubspot(await cluster.createDatabase());
  try {
    const states = await connection.sync({ entities: ['contacts'] });
    expect(states.map((state) => [state.entity, state.status])).toEqual([['contacts', 'succeeded']]);
    const before = await connection.execute('contacts', 'search', { query: {}, limit: 5 });
    expect(before.hits).toHaveLength(5);

    const paused = await cluster.pause();
    for (const call of [
      () => connection.execute('contacts', 'search', { query: {}, limit: 5 }),
      () => connection.sync({ entities: ['contacts'] }),
      () => connection.syncStates(),
    ]) {
      expect((await failure(call())).toJSON().error).toMatchObject(UNREACHABLE);
    }
    await paused.start();

    expect((await connection.execute('contacts', 'search', { query: {}, limit: 5 })).hits).toEqual(before.hits);
    expect((await connection.sync({ entities: ['contacts'] })).map((state) => state.status)).toEqual(['succeeded']);
  } finally {
    await connection.close();
  }
}, 60_000);

test('a copy whose database is down when it is first used: the calls fail typed, and the open is tried again once it is up', async () => {
  const url = await cluster.createDatabase();
  const paused = await cluster.pause();
  const connection = hubspot(url);
  try {
    expect((await failure(connection.execute('contacts', 'search', { query: {}, limit: 1 }))).toJSON().error).toMatchObject(UNREACHABLE);
    expect((await failure(connection.syncStates())).toJSON().error).toMatchObject(UNREACHABLE);
    await paused.start();
    expect(await connection.syncStates()).toEqual([]);
    expect((await connection.sync({ entities: ['contacts'] })).map((state) => state.status)).toEqual(['succeeded']);
  } finally {
    await connection.close();
  }
}, 60_000);

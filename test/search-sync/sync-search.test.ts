/**
 * Every searchable entity of the five connectors syncs from the sandbox and is searchable, on
 * SQLite and on PostgreSQL, through the library and the hosted HTTP API. What the copy should
 * hold is computed from the upstream's own list reads (test/support/sync-upstream.ts), never from
 * the sync runner; filtered searches are checked against the same filter evaluated in JS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, findManifest, type Connection, type EngineError, type Manifest, type SyncState } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import type { SearchHit, SearchResult } from '../../engine/search/index.js';
import { call } from '../support/http-call.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { createConnector, execute, startSyncHarness, token, waitForSync, type SyncHarness } from '../support/sync-hosted.js';
import { candidates, expectedData, matches, searchAll, syncPlan, upstreamRecords, words, type Filter, type Rec } from '../support/sync-upstream.js';
import type { SyncPlan } from '../../engine/manifest/index.js';

const TYPES = ['hubspot', 'asana', 'amazon-ads', 'shopify', 'gong'] as const;
type Type = (typeof TYPES)[number];

/** The searchable entities the issue names, per connector type. */
const SEARCHABLE: Record<Type, string[]> = {
  hubspot: ['contacts', 'companies', 'deals'],
  asana: ['tasks', 'projects', 'workspaces', 'users', 'teams', 'tags', 'sections', 'attachments'],
  'amazon-ads': ['profiles'],
  shopify: ['orders', 'products', 'customers'],
  gong: ['users', 'calls'],
};

/** Fields whose value changes on every read (Asana's signed file URLs): compared without their query string. */
const VOLATILE: Record<string, string[]> = { 'asana/attachments': ['download_url', 'view_url'] };

function normalize(type: string, entity: string, data: Rec): Rec {
  const out = { ...data };
  for (const name of VOLATILE[`${type}/${entity}`] ?? []) if (typeof out[name] === 'string') out[name] = (out[name] as string).split('?')[0];
  return out;
}

// ---- filters picked from real values of the upstream's records ----

type FilterCase = (records: Rec[], plan: SyncPlan) => Filter;

/** Primitive values at `path`, by how many records hold them (first seen first on ties). */
function valueCounts(records: Rec[], plan: SyncPlan, path: string, pick: (value: unknown) => unknown[] = (v) => [v]): Map<unknown, number> {
  const counts = new Map<unknown, number>();
  for (const record of records) {
    const values = new Set(
      candidates(record, path, plan)
        .flatMap(pick)
        .filter((v) => ['string', 'number', 'boolean'].includes(typeof v)),
    );
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

/** The value held by the most records that is not held by all of them (a filter that selects some). */
function selective(counts: Map<unknown, number>, total: number, what: string): unknown {
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const best = ranked.find(([, n]) => n < total) ?? ranked[0];
  if (!best) throw new Error(`no value to filter on at ${what}`);
  return best[0];
}

const eqOn =
  (path: string): FilterCase =>
  (records, plan) => ({ eq: { [path]: selective(valueCounts(records, plan, path), records.length, path) } });

const keywordOn =
  (path: string): FilterCase =>
  (records, plan) => ({
    keyword: {
      [path]: String(
        selective(
          valueCounts(records, plan, path, (v) => (typeof v === 'string' ? words(v) : [])),
          records.length,
          path,
        ),
      ),
    },
  });

const gteMedian =
  (path: string): FilterCase =>
  (records, plan) => {
    const values = records
      .flatMap((r) => candidates(r, path, plan))
      .filter((v): v is number => typeof v === 'number')
      .sort((a, b) => a - b);
    return { gte: { [path]: values[Math.floor(values.length / 2)]! } };
  };

const inTwo =
  (path: string): FilterCase =>
  (records, plan) => {
    const ranked = [...valueCounts(records, plan, path).entries()].sort((a, b) => b[1] - a[1]);
    return { in: { [path]: ranked.slice(1, 3).map(([value]) => value) } };
  };

const likeOn =
  (path: string, pattern: string): FilterCase =>
  () => ({ like: { [path]: pattern } });

/** An `and` of two cases with the second negated: records of the first minus those of the second. */
const andNot =
  (a: FilterCase, b: FilterCase): FilterCase =>
  (records, plan) => ({ and: [a(records, plan), { not: b(records, plan) }] });

/** Per entity: filtered searches on real values (string eq, array elements, nested paths, keyword, ranges, compounds). */
const FILTERS: Record<string, FilterCase[]> = {
  'hubspot/contacts': [eqOn('companies'), keywordOn('properties.lastname'), andNot(likeOn('properties.email', '%@example.com'), eqOn('companies'))],
  'hubspot/companies': [eqOn('contacts'), keywordOn('properties.name')],
  'hubspot/deals': [eqOn('properties.dealstage'), eqOn('contacts'), eqOn('companies')],
  'asana/tasks': [eqOn('assignee.gid'), eqOn('custom_fields.display_value'), andNot(eqOn('completed'), eqOn('assignee.gid'))],
  'asana/projects': [eqOn('team.gid'), eqOn('archived')],
  'asana/workspaces': [eqOn('is_organization')],
  'asana/users': [eqOn('workspaces.gid'), keywordOn('name')],
  'asana/teams': [keywordOn('description'), eqOn('name')],
  'asana/tags': [eqOn('color'), eqOn('followers.gid')],
  'asana/sections': [eqOn('project.gid'), eqOn('name')],
  'asana/attachments': [eqOn('parent.gid'), eqOn('host')],
  'amazon-ads/profiles': [eqOn('accountInfo.type'), eqOn('countryCode'), gteMedian('dailyBudget')],
  'shopify/orders': [eqOn('line_items.product_id'), eqOn('financial_status'), likeOn('email', '%@example.com')],
  'shopify/products': [eqOn('vendor'), keywordOn('title')],
  'shopify/customers': [eqOn('state'), gteMedian('orders_count')],
  'gong/users': [eqOn('spokenLanguages.language'), eqOn('title')],
  'gong/calls': [eqOn('primaryUserId'), gteMedian('duration'), inTwo('direction')],
};

// ---- shared fixtures ----

let sandbox: Sandbox;
let cluster: PostgresCluster | undefined;
let starting: Promise<PostgresCluster> | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  // Small records and no upstream rate limits: Asana's attachments need one request per task.
  sandbox = await startSandbox({ records: 40, rateLimits: false });
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await starting?.catch(() => undefined);
  await cluster?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function upstreamOptions(type: Type) {
  const info = sandbox.upstreams[type]!;
  return { credentials: info.credentials, config: info.config, baseUrl: info.base_url };
}

function searchOf(connection: Connection, entity: string): (params: Rec) => Promise<SearchResult> {
  return (params) => connection.execute(entity, 'search', params);
}

async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    return error as EngineError;
  }
  throw new Error('expected a rejection');
}

const sortedIds = (hits: SearchHit[]) => hits.map((h) => h.id).sort();

test('without a store, search and sync answer SEARCH_UNAVAILABLE (the library has no copy to read)', async () => {
  const connection = connect('hubspot', upstreamOptions('hubspot'));
  const search = await rejection(connection.execute('contacts', 'search', { query: {} }));
  expect({ code: search.code, status: search.status }).toEqual({ code: 'SEARCH_UNAVAILABLE', status: expect.any(Number) });
  expect(search.message).toContain('store');
  expect((await rejection(connection.sync())).code).toBe('SEARCH_UNAVAILABLE');
  expect((await rejection(connection.syncStates())).code).toBe('SEARCH_UNAVAILABLE');
  // The upstream actions still work without a store.
  const page = await connection.execute('contacts', 'list', { limit: 2 });
  expect(Array.isArray(page.data) && page.data.length).toBe(2);
});

interface Synced {
  connection: Connection;
  manifest: Manifest;
  states: SyncState[];
  /** The upstream's records per entity, by id, read through a connection without a store. */
  upstream: Map<string, Map<string, Rec>>;
}

describe.each(['sqlite', 'postgres'] as const)('sync and search on %s', (backend) => {
  const databaseUrl = async (name: string): Promise<string> => {
    if (backend === 'postgres') {
      // The copies are made concurrently: they share one start, so one cluster is started and stopped.
      starting ??= startPostgres().then((started) => (cluster = started));
      return (await starting).createDatabase();
    }
    const dir = mkdtempSync(join(tmpdir(), 'sync-search-'));
    dirs.push(dir);
    return `sqlite:${join(dir, `${name}.db`)}`;
  };

  const synced = new Map<Type, Synced>();
  /** The copy's expected data per id, from the upstream's records. */
  const expectedEntries = (type: Type, entity: string): Array<[string, Rec]> => {
    const { manifest, upstream } = synced.get(type)!;
    const plan = syncPlan(manifest, entity);
    return [...upstream.get(entity)!.entries()].map(([id, record]) => [id, expectedData(record, plan)]);
  };
  const expectedCopy = (type: Type, entity: string): Rec[] => expectedEntries(type, entity).map(([, data]) => data);

  beforeAll(async () => {
    await Promise.all(
      TYPES.map(async (type) => {
        const manifest = findManifest(type).manifest;
        const connection = connect(type, { ...upstreamOptions(type), store: await databaseUrl(`copy-${type}`) });
        const states = await connection.sync();
        const plain = connect(type, upstreamOptions(type));
        const upstream = new Map<string, Map<string, Rec>>();
        for (const entity of SEARCHABLE[type]) upstream.set(entity, await upstreamRecords(plain, manifest, entity));
        synced.set(type, { connection, manifest, states, upstream });
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all([...synced.values()].map((s) => s.connection.close()));
  });

  describe('library', () => {
    test.each(TYPES)('%s: every searchable entity syncs in full, and paging search with query {} returns exactly the upstream records', async (type) => {
      const { connection, manifest, states, upstream } = synced.get(type)!;
      const planned = Object.entries(manifest.entities)
        .filter(([, spec]) => spec.sync)
        .map(([name]) => name);
      expect(planned.sort()).toEqual([...SEARCHABLE[type]].sort());
      expect(states.map((s) => s.entity).sort()).toEqual([...SEARCHABLE[type]].sort());
      for (const state of states) {
        const records = upstream.get(state.entity)!;
        expect(records.size, `${type} ${state.entity} has upstream records`).toBeGreaterThan(0);
        expect(state).toMatchObject({
          connector_id: `local:${type}`,
          entity: state.entity,
          status: 'succeeded',
          mode: 'full',
          records: records.size,
          last_error: null,
        });
        expect(state.last_full_at).toBe(state.finished_at);
        expect(state.last_success_at).toBe(state.finished_at);
      }
      expect((await connection.syncStates()).map((s) => [s.entity, s.status, s.records]).sort()).toEqual(
        states.map((s) => [s.entity, s.status, s.records]).sort(),
      );

      for (const entity of SEARCHABLE[type]) {
        const plan = syncPlan(manifest, entity);
        const records = upstream.get(entity)!;
        // A small page size makes the cursor carry most of the walk; searchAll fails on a repeated id.
        const hits = await searchAll(searchOf(connection, entity), { query: {}, limit: 7 });
        expect(sortedIds(hits), `${type} ${entity} ids`).toEqual([...records.keys()].sort());
        for (const hit of hits) {
          expect(hit.score).toBe(1);
          expect(
            Object.keys(hit.data).every((key) => key in plan.searchable),
            `${type} ${entity} ${hit.id} carries only searchable fields`,
          ).toBe(true);
          expect(normalize(type, entity, hit.data), `${type} ${entity} ${hit.id}`).toEqual(normalize(type, entity, expectedData(records.get(hit.id)!, plan)));
        }
      }
    });

    test.each(TYPES)('%s: filtered searches on real values return exactly the records the filter selects', async (type) => {
      const { connection, manifest } = synced.get(type)!;
      for (const entity of SEARCHABLE[type]) {
        const plan = syncPlan(manifest, entity);
        const entries = expectedEntries(type, entity);
        const records = entries.map(([, data]) => data);
        const cases = FILTERS[`${type}/${entity}`]!;
        expect(cases.length, `${type} ${entity} has filter cases`).toBeGreaterThan(0);
        let selective = 0;
        for (const make of cases) {
          const filter = make(records, plan);
          const expected = entries.filter(([, r]) => matches(filter, r, plan)).map(([id]) => id);
          const label = `${type} ${entity} ${JSON.stringify(filter)}`;
          expect(expected.length, `${label} selects something`).toBeGreaterThan(0);
          if (expected.length < records.length) selective++;
          const hits = await searchAll(searchOf(connection, entity), { query: { filter }, limit: 5 });
          expect(sortedIds(hits), label).toEqual(expected.sort());
          // The complement: not(filter) returns every other record.
          const others = await searchAll(searchOf(connection, entity), { query: { filter: { not: filter } }, limit: 50 });
          expect(sortedIds(others), `not ${label}`).toEqual(
            entries
              .map(([id]) => id)
              .filter((id) => !expected.includes(id))
              .sort(),
          );
        }
        expect(selective, `${type} ${entity}: some filter selects part of the records`).toBeGreaterThan(0);
      }
    });

    test('fields keeps only the given paths, with their nesting; data never carries non-searchable fields', async () => {
      const hubspot = synced.get('hubspot')!;
      const contacts = hubspot.upstream.get('contacts')!;
      const picked = await searchAll(searchOf(hubspot.connection, 'contacts'), { query: {}, fields: ['id', 'properties.email'], limit: 100 });
      expect(picked).toHaveLength(contacts.size);
      for (const hit of picked) {
        const upstream = contacts.get(hit.id)!;
        expect(hit.data).toEqual({ id: upstream.id, properties: { email: (upstream.properties as Rec).email } });
      }
      // The upstream record has associations; the copy keeps the computed `companies` instead.
      const withAssociations = [...contacts.values()].find((r) => r.associations)!;
      expect(withAssociations).toBeDefined();
      const full = await hubspot.connection.execute('contacts', 'search', { query: { filter: { eq: { id: withAssociations.id } } } });
      expect(full.hits).toHaveLength(1);
      expect(full.hits[0]!.data).not.toHaveProperty('associations');
      expect(full.hits[0]!.data.companies).toEqual(((withAssociations.associations as Rec).companies as { results: Rec[] }).results.map((r) => r.id));

      const asana = synced.get('asana')!;
      const tasks = asana.upstream.get('tasks')!;
      const projected = await searchAll(searchOf(asana.connection, 'tasks'), { query: {}, fields: ['name', 'assignee.gid', 'custom_fields.name'], limit: 100 });
      expect(sortedIds(projected)).toEqual([...tasks.keys()].sort());
      for (const hit of projected) {
        const task = tasks.get(hit.id)!;
        const assignee = task.assignee as Rec | null;
        expect(hit.data).toEqual({
          name: task.name,
          ...(assignee ? { assignee: { gid: assignee.gid } } : {}),
          custom_fields: (task.custom_fields as Rec[]).map((f) => ({ name: f.name })),
        });
      }

      const shopify = synced.get('shopify')!;
      const searchable = syncPlan(shopify.manifest, 'orders').searchable;
      const order = [...shopify.upstream.get('orders')!.values()][0]!;
      const unsearchable = Object.keys(order).filter((key) => !(key in searchable));
      expect(unsearchable.length).toBeGreaterThan(0);
      const hit = (await shopify.connection.execute('orders', 'search', { query: { filter: { eq: { id: order.id } } } })).hits[0]!;
      expect(hit.id).toBe(String(order.id));
      for (const key of unsearchable) expect(hit.data).not.toHaveProperty(key);
      expect(Object.keys(hit.data).sort()).toEqual(
        Object.keys(searchable)
          .filter((k) => k in order)
          .sort(),
      );
    });

    test('sort orders by the field, then by id; the cursor keeps that order across pages', async () => {
      const gong = synced.get('gong')!;
      const calls = expectedCopy('gong', 'calls');
      const expected = [...calls]
        .sort((a, b) => (b.duration as number) - (a.duration as number) || (String(a.id) < String(b.id) ? -1 : 1))
        .map((c) => String(c.id));
      const hits = await searchAll(searchOf(gong.connection, 'calls'), { query: { sort: [{ duration: 'desc' }] }, limit: 6 });
      expect(hits.map((h) => h.id)).toEqual(expected);

      const shopify = synced.get('shopify')!;
      const orders = expectedCopy('shopify', 'orders');
      const status = String(orders[0]!.financial_status);
      const byName = [...orders]
        .filter((o) => o.financial_status === status)
        .sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1))
        .map((o) => String(o.id));
      const sorted = await searchAll(searchOf(shopify.connection, 'orders'), {
        query: { filter: { eq: { financial_status: status } }, sort: [{ name: 'asc' }] },
        limit: 3,
      });
      expect(sorted.map((h) => h.id)).toEqual(byName);
    });

    test('hubspot deals: companies and contacts in the copy are the ids of the associations the upstream returns', async () => {
      const { connection } = synced.get('hubspot')!;
      const plain = connect('hubspot', upstreamOptions('hubspot'));
      const ids = (record: Rec, kind: string) =>
        (((record.associations as Rec | undefined)?.[kind] as { results?: Rec[] } | undefined)?.results ?? []).map((r) => String(r.id));
      const listed = new Map<string, Rec>();
      // The copy holds live and archived deals (a HubSpot deletion archives).
      for (const archived of [false, true]) {
        for await (const deal of plain.records('deals', 'list', { limit: 100, associations: 'companies,contacts', archived }))
          listed.set(String(deal.id), deal as Rec);
      }
      const hits = await searchAll(searchOf(connection, 'deals'), { query: {}, fields: ['companies', 'contacts'], limit: 100 });
      expect(sortedIds(hits)).toEqual([...listed.keys()].sort());
      let associated = 0;
      for (const hit of hits) {
        const deal = listed.get(hit.id)!;
        expect(hit.data, `deal ${hit.id}`).toEqual({ companies: ids(deal, 'companies'), contacts: ids(deal, 'contacts') });
        associated += ids(deal, 'companies').length + ids(deal, 'contacts').length;
        // The single-record read agrees with the list.
        const one = await plain.execute('deals', 'get', { dealId: hit.id, associations: 'companies,contacts', archived: Boolean(deal.archived) });
        expect({ companies: ids(one.data as Rec, 'companies').sort(), contacts: ids(one.data as Rec, 'contacts').sort() }).toEqual({
          companies: [...(hit.data.companies as string[])].sort(),
          contacts: [...(hit.data.contacts as string[])].sort(),
        });
      }
      expect(associated).toBeGreaterThan(0);
      // Each association, searched from the deal's side, finds the deal.
      const [dealId, deal] = [...listed.entries()].find(([, d]) => ids(d, 'contacts').length > 0)!;
      const byContact = await searchAll(searchOf(connection, 'deals'), { query: { filter: { eq: { contacts: ids(deal, 'contacts')[0]! } } } });
      expect(byContact.map((h) => h.id)).toContain(dealId);
    });
  });

  describe('errors', () => {
    test('search before the first sync is SEARCH_NOT_READY with the entity state; it turns ready per entity', async () => {
      const connection = connect<string>('gong', { ...upstreamOptions('gong'), store: await databaseUrl('not-ready') });
      try {
        const before = await rejection(connection.execute('users', 'search', { query: {} }));
        expect({ code: before.code, status: before.status, sync: before.sync }).toEqual({
          code: 'SEARCH_NOT_READY',
          status: 409,
          sync: expect.objectContaining({ entity: 'users', status: 'pending', records: 0, last_success_at: null }),
        });
        expect(await connection.syncStates()).toEqual([]);
        const states = await connection.sync({ entities: ['users'] });
        expect(states.map((s) => [s.entity, s.status, s.mode])).toEqual([['users', 'succeeded', 'full']]);
        const users = await searchAll(searchOf(connection, 'users'), { query: {} });
        expect(sortedIds(users)).toEqual([...synced.get('gong')!.upstream.get('users')!.keys()].sort());
        const calls = await rejection(connection.execute('calls', 'search', { query: {} }));
        expect(calls.code).toBe('SEARCH_NOT_READY');
        expect(calls.sync).toMatchObject({ entity: 'calls', status: 'pending' });
      } finally {
        await connection.close();
      }
    });

    test('an unknown field is INVALID_PARAMS naming the valid fields; an entity without a sync plan is UNSUPPORTED_ACTION', async () => {
      const { connection, manifest } = synced.get('hubspot')!;
      const fields = Object.keys(syncPlan(manifest, 'contacts').searchable);
      for (const params of [{ query: { filter: { eq: { nope: 'x' } } } }, { query: { sort: [{ nope: 'asc' }] } }, { query: {}, fields: ['nope'] }]) {
        const error = await rejection(connection.execute('contacts', 'search', params));
        expect(error.code, JSON.stringify(params)).toBe('INVALID_PARAMS');
        expect(error.status).toBe(400);
        const text = `${error.message} ${JSON.stringify(error.details)}`;
        expect(text).toContain('nope');
        for (const field of fields) expect(text, `${JSON.stringify(params)} names ${field}`).toContain(field);
      }
      const tickets = await rejection(connection.execute('tickets', 'search', { query: {} }));
      expect({ code: tickets.code, status: tickets.status }).toEqual({ code: 'UNSUPPORTED_ACTION', status: 400 });
      expect(tickets.message).toContain('list');
      const sync = await rejection(connection.sync({ entities: ['tickets'] }));
      expect(sync.code).toBe('INVALID_REQUEST');
    });
  });

  describe('incremental', () => {
    test('shopify: a second sync is incremental and reads less, the copy keeps every record; sync({full: true}) reads everything again', async () => {
      const connection = connect<string>('shopify', { ...upstreamOptions('shopify'), store: await databaseUrl('incremental') });
      const fake = sandbox.fakes.shopify;
      const upstream = synced.get('shopify')!.upstream;
      try {
        const first = await connection.sync();
        const byEntity = (states: SyncState[]) => new Map(states.map((s) => [s.entity, s]));
        const full = byEntity(first);
        for (const entity of SEARCHABLE.shopify) {
          expect(full.get(entity)).toMatchObject({ status: 'succeeded', mode: 'full', records: upstream.get(entity)!.size });
          expect(full.get(entity)!.cursor).toEqual(expect.any(String));
        }

        const seen = fake.requests.length;
        const second = byEntity(await connection.sync());
        const requests = fake.requests.slice(seen);
        for (const entity of SEARCHABLE.shopify) {
          const state = second.get(entity)!;
          expect(state, entity).toMatchObject({ status: 'succeeded', mode: 'incremental', last_full_at: full.get(entity)!.last_full_at });
          expect(state.records, `${entity} reads the changed records only`).toBeLessThan(full.get(entity)!.records);
          expect(state.records, `${entity}: updated_at_min is inclusive`).toBeGreaterThan(0);
          const reads = requests.filter((r) => r.path.endsWith(`/${entity}.json`));
          expect(reads.length).toBeGreaterThan(0);
          for (const read of reads) expect(read.query.updated_at_min, `${entity} asks from the cursor`).toBe(full.get(entity)!.cursor);
          const copy = await searchAll(searchOf(connection, entity), { query: {}, limit: 9 });
          expect(sortedIds(copy), `${entity} copy after the incremental pass`).toEqual([...upstream.get(entity)!.keys()].sort());
        }

        const again = byEntity(await connection.sync({ full: true }));
        for (const entity of SEARCHABLE.shopify) {
          const state = again.get(entity)!;
          expect(state).toMatchObject({ status: 'succeeded', mode: 'full', records: upstream.get(entity)!.size });
          expect(Date.parse(state.last_full_at!)).toBeGreaterThanOrEqual(Date.parse(full.get(entity)!.last_full_at!));
          expect(state.last_full_at).toBe(state.finished_at);
          const copy = await searchAll(searchOf(connection, entity), { query: {}, limit: 100 });
          expect(sortedIds(copy)).toEqual([...upstream.get(entity)!.keys()].sort());
        }
      } finally {
        await connection.close();
      }
    });
  });

  describe('HTTP API', () => {
    let h: SyncHarness;
    let alice: string;
    const ids = new Map<Type, string>();

    beforeAll(async () => {
      h = await startSyncHarness(await databaseUrl('hosted'), sandbox, { pollMs: 50 });
      alice = await token(h, 'alice');
      for (const type of TYPES) ids.set(type, await createConnector(h, 'alice', type));
    }, 60_000);
    afterAll(async () => {
      await h?.service.close();
    });

    const viaHttp =
      (id: string, entity: string) =>
      async (params: Rec): Promise<SearchResult> => {
        const answer = await execute(h, alice, id, { entity, action: 'search', params });
        if (answer.status !== 200) throw new Error(`search ${entity}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return answer.body as SearchResult;
      };

    test.each(TYPES)('%s: creating the connector syncs every searchable entity; search over HTTP answers what the library answers', async (type) => {
      const id = ids.get(type)!;
      const status = await waitForSync(h, alice, id, SEARCHABLE[type]);
      expect(status.connector_id).toBe(id);
      expect((status.entities as SyncState[]).map((s) => [s.entity, s.status, s.mode, s.last_error]).sort()).toEqual(
        SEARCHABLE[type].map((e) => [e, 'succeeded', 'full', null]).sort(),
      );
      const lib = synced.get(type)!;
      for (const entity of SEARCHABLE[type]) {
        const state = (status.entities as SyncState[]).find((s) => s.entity === entity)!;
        expect(state.records, `${type} ${entity} records`).toBe(lib.upstream.get(entity)!.size);
        const overHttp = await searchAll(viaHttp(id, entity), { query: {}, limit: 10 });
        const inLibrary = await searchAll(searchOf(lib.connection, entity), { query: {}, limit: 10 });
        expect(
          overHttp.map((x) => x.id),
          `${type} ${entity} ids in order`,
        ).toEqual(inLibrary.map((x) => x.id));
        expect(overHttp.map((x) => normalize(type, entity, x.data))).toEqual(inLibrary.map((x) => normalize(type, entity, x.data)));
        const plan = syncPlan(lib.manifest, entity);
        const filter = FILTERS[`${type}/${entity}`]![0]!(expectedCopy(type, entity), plan);
        const filteredHttp = await searchAll(viaHttp(id, entity), { query: { filter }, limit: 4 });
        const filteredLib = await searchAll(searchOf(lib.connection, entity), { query: { filter }, limit: 4 });
        expect(filteredHttp.length, `${type} ${entity} ${JSON.stringify(filter)}`).toBeGreaterThan(0);
        expect(filteredHttp.map((x) => x.id)).toEqual(filteredLib.map((x) => x.id));
      }
      expect(h.logs.some((line) => line.includes('sync: pass finished') && line.includes(id))).toBe(true);
    });

    test('another user gets 404 for the search, the sync status and a sync request', async () => {
      const bob = await token(h, 'bob');
      const id = ids.get('hubspot')!;
      const answers = [
        await execute(h, bob, id, { entity: 'contacts', action: 'search', params: { query: {} } }),
        await call(h, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: bob }),
        await call(h, 'POST', `/api/v1/connectors/sources/${id}/sync`, { token: bob, body: {} }),
      ];
      for (const answer of answers) expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 404, code: 'CONNECTOR_NOT_FOUND' });
      const own = await execute(h, alice, id, { entity: 'contacts', action: 'search', params: { query: {}, limit: 1 } });
      expect(own.status).toBe(200);
      expect(own.body.hits).toHaveLength(1);
    });

    test('errors over HTTP: unknown field 400 INVALID_PARAMS naming the fields, tickets 400 UNSUPPORTED_ACTION', async () => {
      const id = ids.get('hubspot')!;
      const unknown = await execute(h, alice, id, { entity: 'deals', action: 'search', params: { query: { filter: { eq: { nope: 1 } } } } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.code).toBe('INVALID_PARAMS');
      const text = JSON.stringify(unknown.body.error);
      for (const field of Object.keys(syncPlan(findManifest('hubspot').manifest, 'deals').searchable)) expect(text).toContain(field);
      const tickets = await execute(h, alice, id, { entity: 'tickets', action: 'search', params: { query: {} } });
      expect({ status: tickets.status, code: tickets.body.error.code }).toEqual({ status: 400, code: 'UNSUPPORTED_ACTION' });
    });

    test('with background sync off, search is 409 SEARCH_NOT_READY until POST .../sync has run', async () => {
      const manual = await startSyncHarness(await databaseUrl('hosted-manual'), sandbox, { background: false });
      try {
        const carol = await token(manual, 'carol');
        const id = await createConnector(manual, 'carol', 'gong');
        const before = await execute(manual, carol, id, { entity: 'users', action: 'search', params: { query: {} } });
        expect(before.status).toBe(409);
        expect(before.body.error).toMatchObject({ code: 'SEARCH_NOT_READY', sync: { entity: 'users', status: 'pending', records: 0 } });
        const idle = await call(manual, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token: carol });
        expect(idle.body).toMatchObject({ connector_id: id, running: false, entities: [] });
        const again = await execute(manual, carol, id, { entity: 'calls', action: 'search', params: { query: {} } });
        expect(again.body.error.code).toBe('SEARCH_NOT_READY');

        const started = await call(manual, 'POST', `/api/v1/connectors/sources/${id}/sync`, { token: carol });
        expect(started.status).toBe(202);
        expect(started.body.connector_id).toBe(id);
        const status = await waitForSync(manual, carol, id, SEARCHABLE.gong);
        expect((status.entities as SyncState[]).map((s) => [s.entity, s.status]).sort()).toEqual([
          ['calls', 'succeeded'],
          ['users', 'succeeded'],
        ]);
        const after = await execute(manual, carol, id, { entity: 'users', action: 'search', params: { query: {} } });
        expect(after.status).toBe(200);
        expect(sortedIds(after.body.hits)).toEqual([...synced.get('gong')!.upstream.get('users')!.keys()].sort());
      } finally {
        await manual.service.close();
      }
    });
  });
});

/**
 * Issue 14, part 1: the typed TypeScript API. Checked by tsc, never run (vitest --typecheck runs
 * it in `npm test`, and `npm run typecheck` checks it too). Each `@ts-expect-error` is a mistake the
 * compiler must refuse: were it accepted, the directive would be unused, which is itself an error.
 * The reads pin the exact types of each kind of result.
 */
import { describe, expectTypeOf, test } from 'vitest';
import {
  connect,
  HostedConnection,
  loadManifestFile,
  type Connection,
  type DownloadStream,
  type ExecuteResult,
  type HubspotContactsRecord,
  type HubspotDealsSearchHit,
  type ListResult,
  type SearchResult,
  type TypedConnection,
} from '../../engine/index.js';

const credentials = { access_token: 'pat-types' };
const hosted = { baseUrl: 'http://127.0.0.1:1', externalUserId: 'user-1', clientId: 'cli_1', clientSecret: 'secret' };

describe('mistakes are compile errors', () => {
  test('in the library', () => {
    const hubspot = connect('hubspot', { credentials });
    // @ts-expect-error an unknown entity
    void hubspot.execute('contactz', 'list');
    // @ts-expect-error an unknown action
    void hubspot.execute('contacts', 'delete');
    // @ts-expect-error a limit that is not a number
    void hubspot.execute('contacts', 'list', { limit: 'ten' });
    // @ts-expect-error an unknown param
    void hubspot.execute('contacts', 'list', { limt: 5 });
    // @ts-expect-error get without its params
    void hubspot.execute('contacts', 'get');
    // @ts-expect-error get without its id
    void hubspot.execute('contacts', 'get', { archived: true });
    // @ts-expect-error contacts have no download action
    void hubspot.execute('contacts', 'download', {});
    // @ts-expect-error no HubSpot entity downloads, so there is no download()
    void hubspot.download('contacts', {});
    // @ts-expect-error records() reads list-like actions only
    void hubspot.records('contacts', 'get', { contactId: '1' });
    // @ts-expect-error Gong's workspaces list takes no params
    void connect('gong', { credentials: { access_key: 'k', access_key_secret: 's' } }).execute('workspaces', 'list', { limit: 5 });
    // @ts-expect-error an operator HubSpot's api_search does not know
    void hubspot.execute('contacts', 'api_search', { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'LIKE' }] }] });
  });

  test('in search params', () => {
    const hubspot = connect('hubspot', { credentials });
    // @ts-expect-error search needs its query
    void hubspot.execute('contacts', 'search', {});
    // @ts-expect-error a field that is not searchable
    void hubspot.execute('contacts', 'search', { query: { filter: { eq: { email: 'a@b.c' } } } });
    // @ts-expect-error an operator the grammar does not have
    void hubspot.execute('contacts', 'search', { query: { filter: { equals: { archived: true } } } });
    // @ts-expect-error sort takes asc or desc
    void hubspot.execute('contacts', 'search', { query: { sort: [{ createdAt: 'newest' }] } });
    // @ts-expect-error an array field cannot be a sort key
    void hubspot.execute('contacts', 'search', { query: { sort: [{ companies: 'asc' }] } });
    // @ts-expect-error keyword reads text; archived is a boolean field
    void hubspot.execute('contacts', 'search', { query: { filter: { keyword: { archived: 'yes' } } } });
    // @ts-expect-error tickets have no synchronized copy
    void hubspot.execute('tickets', 'search', { query: {} });
  });

  test('with downloads', () => {
    const asana = connect('asana', { credentials: { token: 'asana-token' } });
    // @ts-expect-error download without the attachment's gid
    void asana.download('attachments', {});
    // @ts-expect-error only attachments download
    void asana.download('tasks', { task_gid: '1' });
    // @ts-expect-error the range header is a string
    void asana.execute('attachments', 'download', { attachment_gid: '1', range_header: 100 });
  });

  test('in the hosted client', () => {
    const hubspot = connect('hubspot', { hosted });
    // @ts-expect-error an unknown entity
    void hubspot.execute('contactz', 'list');
    // @ts-expect-error a limit that is not a number
    void hubspot.execute('contacts', 'list', { limit: 'ten' });
    // @ts-expect-error get without its id
    void hubspot.execute('contacts', 'get', {});
    // @ts-expect-error an unknown param
    void hubspot.records('contacts', 'list', { limt: 5 });
    // @ts-expect-error no HubSpot entity downloads
    void hubspot.download('contacts', {});
    // @ts-expect-error the hosted options are deadlineMs only
    void hubspot.execute('contacts', 'list', {}, { traffic: 'sync' });
  });
});

describe('results are typed per entity and action', () => {
  test('list: data is an array of the entity record, meta has the paging fields', async () => {
    const hubspot = connect('hubspot', { credentials });
    const page = await hubspot.execute('contacts', 'list', { limit: 5 });
    expectTypeOf(page.data).toEqualTypeOf<HubspotContactsRecord[]>();
    expectTypeOf(page.data[0]!.properties).toEqualTypeOf<{ [k: string]: string | null }>();
    expectTypeOf(page.data[0]!.archived).toEqualTypeOf<boolean>();
    expectTypeOf(page.data[0]!.archivedAt).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(page.meta).toEqualTypeOf<{ has_more: boolean; next_cursor: string | null; next_link: unknown }>();
    // The cursor goes back in the paging param as it is.
    if (page.meta.next_cursor !== null) void hubspot.execute('contacts', 'list', { after: page.meta.next_cursor });
  });

  test('get: data is one record', async () => {
    const hubspot = connect('hubspot', { credentials });
    const one = await hubspot.execute('contacts', 'get', { contactId: '1001' });
    expectTypeOf(one.data).toEqualTypeOf<HubspotContactsRecord>();
    expectTypeOf(one.data.id).toEqualTypeOf<string>();
    expectTypeOf(one.meta).toEqualTypeOf<{ has_more: boolean }>();
  });

  test("api_search and each connector's own meta fields", async () => {
    const hubspot = connect('hubspot', { credentials });
    const found = await hubspot.execute('deals', 'api_search', {
      filterGroups: [{ filters: [{ propertyName: 'amount', operator: 'GTE', value: '50000' }] }],
      limit: 10,
    });
    expectTypeOf(found.meta.total).toEqualTypeOf<unknown>();
    expectTypeOf(found.meta.next_cursor).toEqualTypeOf<string | null>();
    const asana = connect('asana', { credentials: { token: 'asana-token' } });
    const tasks = await asana.execute('workspace_task_search', 'list', { workspace_gid: '1', text: 'plan' });
    expectTypeOf(tasks.meta).toEqualTypeOf<{ has_more: boolean; next_page: { offset: string } | null; next_cursor: string | null }>();
    const shopify = connect('shopify', { credentials: { access_token: 'shpat' }, config: { shop: 'demo' } });
    const orders = await shopify.execute('orders', 'list', { status: 'any' });
    expectTypeOf(orders.data[0]!.id).toEqualTypeOf<number>();
    expectTypeOf(orders.meta).toEqualTypeOf<{ has_more: boolean; next_cursor: string | null }>();
  });

  test('search: hits carry the searchable fields, typed', async () => {
    const hubspot = connect('hubspot', { credentials, store: 'sqlite:./copy.db' });
    const found = await hubspot.execute('deals', 'search', {
      query: {
        filter: { and: [{ gte: { 'properties.amount': '50000' } }, { not: { eq: { archived: true } } }, { keyword: { 'properties.dealname': 'renewal' } }] },
        sort: [{ 'properties.amount': 'asc' }],
      },
      limit: 2,
      fields: ['id', 'properties.amount', 'contacts'],
    });
    expectTypeOf(found.hits[0]!.data).toEqualTypeOf<{ [K in keyof HubspotDealsSearchHit]: HubspotDealsSearchHit[K] }>();
    expectTypeOf(found.hits[0]!.data.archived).toEqualTypeOf<boolean | undefined>();
    expectTypeOf(found.hits[0]!.data.contacts).toEqualTypeOf<unknown[] | null | undefined>();
    expectTypeOf(found.hits[0]!.score).toEqualTypeOf<number>();
    expectTypeOf(found.next_cursor).toEqualTypeOf<string | null>();
    // A typed result still passes where the untyped one is taken.
    expectTypeOf(found).toExtend<SearchResult>();
  });

  test('records() yields the entity record; download() a stream', async () => {
    const hubspot = connect('hubspot', { credentials });
    for await (const deal of hubspot.records('deals', 'list', { limit: 100 })) expectTypeOf(deal.properties).toEqualTypeOf<{ [k: string]: string | null }>();
    const asana = connect('asana', { credentials: { token: 'asana-token' } });
    expectTypeOf(await asana.download('attachments', { attachment_gid: '1' })).toEqualTypeOf<DownloadStream>();
    expectTypeOf(await asana.execute('attachments', 'download', { attachment_gid: '1' })).toEqualTypeOf<DownloadStream>();
    expectTypeOf(await asana.execute('attachments', 'get', { attachment_gid: '1' })).toExtend<{ data: { gid: string; size?: number | null } }>();
  });

  test('the hosted client has the same types', async () => {
    const hubspot = connect('hubspot', { hosted });
    const local = connect('hubspot', { credentials });
    const page = await hubspot.execute('contacts', 'list', { limit: 2 });
    expectTypeOf(page).toEqualTypeOf(await local.execute('contacts', 'list', { limit: 2 }));
    expectTypeOf((await hubspot.execute('contacts', 'get', { contactId: '1001' })).data).toEqualTypeOf<HubspotContactsRecord>();
    for await (const contact of hubspot.records('contacts', 'list')) expectTypeOf(contact).toEqualTypeOf<HubspotContactsRecord>();
    expectTypeOf((await hubspot.execute('deals', 'search', { query: {} })).hits[0]!.data.line_items).toEqualTypeOf<unknown[] | null | undefined>();
    expectTypeOf(hubspot.sync).toEqualTypeOf<HostedConnection['sync']>();
    const asana = connect('asana', { hosted });
    expectTypeOf(await asana.download('attachments', { attachment_gid: '1' }, { deadlineMs: 5000 })).toEqualTypeOf<DownloadStream>();
  });

  test('a typed page still passes where an untyped one is taken', async () => {
    const page = await connect('hubspot', { credentials }).execute('contacts', 'list');
    expectTypeOf(page).toExtend<ListResult>();
    expectTypeOf(page).toExtend<ExecuteResult>();
  });
});

describe('what connects untyped', () => {
  test('a manifest loaded from a file, a string, or a type named in other case', () => {
    expectTypeOf(connect(loadManifestFile('notes.yaml'), { credentials: {} })).toEqualTypeOf<Connection>();
    const type: string = 'hubspot';
    expectTypeOf(connect(type, { credentials })).toEqualTypeOf<Connection>();
    expectTypeOf(connect<string>('hubspot', { credentials })).toEqualTypeOf<Connection>();
    expectTypeOf(connect(type, { hosted })).toEqualTypeOf<HostedConnection>();
    const either: 'hubspot' | 'asana' = Math.random() < 0.5 ? 'hubspot' : 'asana';
    expectTypeOf(connect(either, { credentials })).toEqualTypeOf<Connection>();
    // An unknown type fails at run time, UNKNOWN_CONNECTOR_TYPE naming the known ones.
    expectTypeOf(connect('salesforce', { credentials })).toEqualTypeOf<Connection>();
    // findManifest reads types case-insensitively, and so does the typing.
    expectTypeOf(connect('HubSpot', { credentials })).toEqualTypeOf<TypedConnection<'hubspot'>>();
    const untyped = connect(type, { credentials });
    expectTypeOf(untyped.execute('anything', 'list', { any: 'param' })).toEqualTypeOf<Promise<ExecuteResult>>();
  });
});

/**
 * fast-check generators of whole HTTP requests to every endpoint of the hosted API: bodies that
 * match the schemas in schemas/hosted-*.schema.json and bodies that do not, hostile JSON texts,
 * wrong media types, ids that are long or badly percent-encoded, oversized headers and query
 * strings, and byte sequences no HTTP client would send.
 */
import fc from 'fast-check';
import { hostileJsonText, jsonObject, jsonValue, longText, searchParams, text } from './fuzz-values.js';
import type { RawHttpRequest } from './raw-http.js';

/** What the generated requests aim at: the fuzz creates these before it starts. */
export interface FuzzTargets {
  token: string;
  /** Another user's token: their connectors must answer 404 to ours and ours to theirs. */
  otherToken: string;
  clientId: string;
  clientSecret: string;
  /** A synced HubSpot connector: execute and search. */
  hubspotId: string;
  /** An Asana connector: download. */
  asanaId: string;
  attachmentGid: string;
  /** A connector PATCH may change at will. */
  patchId: string;
  /** A small connector POST .../sync may run passes of. */
  syncId: string;
  /** The other user's connector. */
  othersId: string;
  credentials: Record<string, Record<string, unknown>>;
  configs: Record<string, Record<string, unknown>>;
  /** Put in URLs and headers: no answer may repeat it. */
  marker: string;
}

/** One generated request, and whether its URL carries the marker (so the answer must not). */
export interface FuzzCase {
  label: string;
  request: RawHttpRequest;
}

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  '',
  'json',
  '*/*',
];
const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);

const TYPES = ['hubspot', 'asana', 'amazon-ads', 'shopify', 'gong', 'HubSpot', 'AMAZON-ADS'];
const ENTITIES = ['contacts', 'companies', 'deals', 'tickets', 'schemas', 'objects', 'attachments', 'tasks', 'leads'];
const ACTIONS = ['list', 'get', 'api_search', 'search', 'download'];

/** Percent-encodings that are not UTF-8, or decode to text the stores cannot hold. */
const BAD_SEGMENTS = ['%E0%A4%A', '%', '%zz', '%00', '%ED%A0%80', '%C0%AF', '%FF', 'a%2Fb', '..', '%2e%2e', 'conn_%F0%9F%98'];

/**
 * Percent-encodes text for a URL even when it holds lone surrogates (encodeURIComponent throws on
 * them): a lone surrogate becomes the three bytes its code unit would take in UTF-8, which no
 * decoder accepts, as a hostile client could send.
 */
export function encodeSegment(value: string): string {
  return value.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    if (part.length !== 1 || part.charCodeAt(0) < 0xd800 || part.charCodeAt(0) > 0xdfff) return encodeURIComponent(part);
    const unit = part.charCodeAt(0);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  });
}

function targets(t: FuzzTargets) {
  const auth = fc.oneof(
    { arbitrary: fc.constant<Array<[string, string]>>([['authorization', `Bearer ${t.token}`]]), weight: 16 },
    { arbitrary: fc.constant<Array<[string, string]>>([]), weight: 1 },
    { arbitrary: fc.constant<Array<[string, string]>>([['authorization', `Bearer ${t.otherToken}`]]), weight: 1 },
    {
      arbitrary: fc.constantFrom<Array<[string, string]>>(
        [['authorization', 'Bearer']],
        [['authorization', 'Basic dXNlcjpwYXNz']],
        [['authorization', `Bearer ${t.token}x`]],
        [['authorization', `Bearer ${t.marker}.${t.marker}.${t.marker}`]],
      ),
      weight: 1,
    },
  );
  const unknownId = fc.stringMatching(/^conn_[a-z2-7]{24}$/);
  const encodedText = text(30).map(encodeSegment);
  const anyId = fc.oneof(
    { arbitrary: unknownId, weight: 2 },
    { arbitrary: fc.constant(t.othersId), weight: 2 },
    { arbitrary: encodedText, weight: 2 },
    { arbitrary: fc.integer({ min: 95, max: 140 }).map((n) => 'a'.repeat(n)), weight: 1 },
    { arbitrary: fc.constantFrom(...BAD_SEGMENTS), weight: 2 },
  );
  const query = fc.oneof(
    { arbitrary: fc.constant(''), weight: 6 },
    {
      arbitrary: fc.tuple(fc.constantFrom('connector_type', 'x', t.marker), text(20)).map(([key, value]) => `?${encodeSegment(key)}=${encodeSegment(value)}`),
      weight: 3,
    },
    {
      arbitrary: fc.constantFrom(
        '?connector_type=%00',
        '?connector_type=%E0%A4%A',
        '?connector_type=a&connector_type=b',
        `?${t.marker}`,
        '?=&&=',
        '?connector_type[]=x',
      ),
      weight: 2,
    },
  );
  return { auth, unknownId, anyId, query };
}

function request(method: string, target: string, headers: Array<[string, string]>, body?: string, type?: string): RawHttpRequest {
  const all: Array<[string, string]> = [...headers];
  if (body !== undefined && type !== undefined) all.push(['content-type', type]);
  return { method, target, headers: all, ...(body !== undefined ? { body } : {}) };
}

/** Bodies for `path`: a JSON value of the right shape or not, or a hostile JSON text. */
function bodyFor(shaped: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: shaped.map((value) => JSON.stringify(value) ?? 'null'), weight: 8 },
    { arbitrary: jsonValue.map((value) => JSON.stringify(value) ?? 'null'), weight: 2 },
    { arbitrary: hostileJsonText((inner) => inner), weight: 2 },
  );
}

/**
 * Every request the fuzz sends, by endpoint, weighted towards the endpoints with the most input
 * (execute and search). Valid requests are in the mix, so success answers are checked too.
 */
export function fuzzCases(t: FuzzTargets): fc.Arbitrary<FuzzCase> {
  const { auth, unknownId, anyId, query } = targets(t);
  const credentialsFor = fc.oneof({ arbitrary: fc.constantFrom(...Object.values(t.credentials)), weight: 2 }, { arbitrary: jsonObject, weight: 3 });
  const configFor = fc.oneof({ arbitrary: fc.constantFrom(...Object.values(t.configs)), weight: 2 }, { arbitrary: jsonObject, weight: 3 });
  const post = (path: fc.Arbitrary<string>, body: fc.Arbitrary<string>, label: string, withAuth = auth) =>
    fc
      .tuple(path, withAuth, body, contentType)
      .map(([target, headers, content, type]) => ({ label, request: request('POST', target, headers, content, type) }));

  const token = post(
    fc.constant('/v1/auth/token'),
    bodyFor(
      fc.record(
        {
          client_id: fc.oneof(
            fc.constant(t.clientId),
            longText(),
            unknownId.map((id) => id.replace('conn_', 'cli_')),
          ),
          client_secret: fc.oneof(fc.constant(t.clientSecret), longText()),
          external_user_id: fc.oneof(fc.constant('fuzz'), longText()),
          extra: jsonValue,
        },
        { requiredKeys: [] },
      ),
    ),
    'token',
    fc.constant([]),
  );
  const create = post(
    fc.constant('/v1/integrations/connectors'),
    bodyFor(
      fc.record(
        {
          external_user_id: fc.oneof(fc.constant('fuzz'), longText()),
          connector_type: fc.oneof(fc.constantFrom(...TYPES), text()),
          name: fc.oneof(longText(), fc.constant(null)),
          credentials: credentialsFor,
          config: configFor,
          colour: jsonValue,
        },
        { requiredKeys: [] },
      ),
    ),
    'create',
  );
  const list = fc.tuple(query, auth).map(([q, headers]) => ({ label: 'list', request: request('GET', `/v1/integrations/connectors${q}`, headers) }));
  const readOne = fc
    .tuple(fc.oneof(fc.constant(t.patchId), anyId), auth)
    .map(([id, headers]) => ({ label: 'get', request: request('GET', `/v1/integrations/connectors/${id}`, headers) }));
  const patch = fc
    .tuple(
      fc.oneof({ arbitrary: fc.constant(t.patchId), weight: 3 }, { arbitrary: anyId, weight: 1 }),
      auth,
      bodyFor(fc.record({ name: fc.oneof(longText(), fc.constant(null)), credentials: credentialsFor, config: configFor }, { requiredKeys: [] })),
      contentType,
    )
    .map(([id, headers, body, type]) => ({ label: 'patch', request: request('PATCH', `/v1/integrations/connectors/${id}`, headers, body, type) }));
  const remove = fc.tuple(anyId, auth).map(([id, headers]) => ({ label: 'delete', request: request('DELETE', `/v1/integrations/connectors/${id}`, headers) }));

  const executePath = fc
    .oneof({ arbitrary: fc.constant(t.hubspotId), weight: 8 }, { arbitrary: anyId, weight: 1 })
    .map((id) => `/api/v1/connectors/sources/${id}/execute`);
  const params = fc.oneof(
    {
      arbitrary: fc.constantFrom<unknown>(
        { limit: 2 },
        { limit: 1, properties: 'email,firstname' },
        { contactId: '1001' },
        { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'HAS_PROPERTY' }] }], limit: 2 },
        {},
      ),
      weight: 2,
    },
    { arbitrary: jsonObject, weight: 4 },
    { arbitrary: jsonValue, weight: 1 },
  );
  const execute = post(
    executePath,
    bodyFor(
      fc.record(
        { entity: fc.oneof(fc.constantFrom(...ENTITIES), text()), action: fc.oneof(fc.constantFrom(...ACTIONS), text()), params },
        { requiredKeys: [] },
      ),
    ),
    'execute',
  );
  const search = post(
    fc.constant(`/api/v1/connectors/sources/${t.hubspotId}/execute`),
    bodyFor(fc.record({ entity: fc.constantFrom('contacts', 'companies', 'deals'), action: fc.constant('search'), params: searchParams })),
    'search',
  );
  const download = post(
    fc.constant(`/api/v1/connectors/sources/${t.asanaId}/execute`),
    bodyFor(
      fc.record({
        entity: fc.constant('attachments'),
        action: fc.constant('download'),
        params: fc.record(
          {
            attachment_gid: fc.oneof(fc.constant(t.attachmentGid), text()),
            range_header: fc.oneof(fc.constantFrom('bytes=0-9', 'bytes=10-', 'bytes=-5', 'bytes=9-0', 'bytes=99999999-', 'pages=1'), text()),
          },
          { requiredKeys: ['attachment_gid'] },
        ),
      }),
    ),
    'download',
  );
  const syncPath = fc
    .oneof({ arbitrary: fc.constant(t.syncId), weight: 3 }, { arbitrary: anyId, weight: 1 })
    .map((id) => `/api/v1/connectors/sources/${id}/sync`);
  const syncPost = fc
    .tuple(syncPath, auth, fc.option(bodyFor(fc.record({ full: fc.oneof(fc.boolean(), jsonValue) }, { requiredKeys: [] })), { nil: undefined }), contentType)
    .map(([target, headers, body, type]) => ({ label: 'sync POST', request: request('POST', target, headers, body, body === undefined ? undefined : type) }));
  const syncGet = fc.tuple(syncPath, auth).map(([target, headers]) => ({ label: 'sync GET', request: request('GET', target, headers) }));
  const open = fc
    .tuple(
      fc.constantFrom('/v1/connector-types', '/openapi.json', '/healthz', '/metrics'),
      query,
      fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'),
      auth,
    )
    .map(([path, q, method, headers]) => ({ label: `open ${method}`, request: request(method, `${path}${q}`, headers) }));
  const unknown = fc
    .tuple(
      fc.array(fc.oneof(text(12).map(encodeSegment), fc.constant(t.marker), fc.constantFrom(...BAD_SEGMENTS)), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'),
      auth,
    )
    .map(([segments, method, headers]) => ({ label: 'unknown route', request: request(method, `/${segments.join('/')}/${t.marker}`, headers) }));
  const oversized = fc.tuple(fc.integer({ min: 12_000, max: 40_000 }), fc.constantFrom('header', 'query', 'cookie'), auth).map(([size, where, headers]) => {
    const filler = `${t.marker}${'q'.repeat(size)}`;
    const target = where === 'query' ? `/v1/integrations/connectors?connector_type=${filler}` : '/v1/integrations/connectors';
    const extra: Array<[string, string]> = where === 'header' ? [['x-filler', filler]] : where === 'cookie' ? [['cookie', `a=${filler}`]] : [];
    return { label: `oversized ${where}`, request: request('GET', target, [...headers, ...extra]) };
  });
  const malformed = fc
    .constantFrom(
      `GET /${t.marker} HTTP/1.1\r\nHost: x\r\nbroken header line\r\n\r\n`,
      'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
      'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n',
      'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
      `GET /\u0001${t.marker} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n',
      `CONNECT ${t.marker}.example:443 HTTP/1.1\r\nHost: ${t.marker}.example:443\r\n\r\n`,
      'POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nExpect: the-impossible\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      `GETTTTTTTTTTTTTT /${t.marker} HTTP/1.1\r\nHost: x\r\n\r\n`,
      '\u0000\u0001\u0002\r\n\r\n',
    )
    .map((raw) => ({ label: 'malformed', request: { method: 'RAW', target: raw.split(' ')[1] ?? '', bytes: Buffer.from(raw, 'latin1') } }));

  return fc.oneof(
    { arbitrary: token, weight: 3 },
    { arbitrary: create, weight: 3 },
    { arbitrary: list, weight: 1 },
    { arbitrary: readOne, weight: 1 },
    { arbitrary: patch, weight: 2 },
    { arbitrary: remove, weight: 1 },
    { arbitrary: execute, weight: 6 },
    { arbitrary: search, weight: 6 },
    { arbitrary: download, weight: 1 },
    { arbitrary: syncPost, weight: 1 },
    { arbitrary: syncGet, weight: 1 },
    { arbitrary: open, weight: 2 },
    { arbitrary: unknown, weight: 2 },
    { arbitrary: oversized, weight: 1 },
    { arbitrary: malformed, weight: 1 },
  );
}

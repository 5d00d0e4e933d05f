/**
 * GENERATED from schemas/manifest.schema.json by `npm run generate`; do not edit. A test fails when this file is
 * stale.
 */
import type { JsonSchema, TemplateTree } from './json-values.js';

/**
 * The hosts of the API itself: base_url's host (for a templated base_url, every host it can render to, e.g. *.myshopify.com).
 *
 * @minItems 1
 */
export type HostList = string[];
/**
 * The hosts of the OAuth token endpoints (auth[].oauth2.token_url). Required when a scheme refreshes tokens.
 *
 * @minItems 1
 */
export type HostList1 = string[];
/**
 * The hosts an account's own base URL may name (auth[].base_url_from, e.g. Gong's api_base_url_for_customer). Required when a scheme has base_url_from.
 *
 * @minItems 1
 */
export type HostList2 = string[];
/**
 * The hosts download URLs may point at, and every redirect they lead through (e.g. S3 for presigned file URLs). Required when an entity has a download action.
 *
 * @minItems 1
 */
export type HostList3 = string[];
/**
 * JSON Schema of the non-secret connector configuration (object). Defaults declared here are applied when a connector is created. Default: no settings.
 */
export type ObjectSchema = JsonSchema;
/**
 * JSON Schema of the credential object. Fields marked writeOnly: true are secrets, redacted from every error, log and response (a scheme that marks none is treated as all secret).
 */
export type ObjectSchema1 = JsonSchema;
/**
 * How each upstream request carries the credentials.
 */
export type SignSpec = BearerSign | HeaderSign | BasicSign;
/**
 * Extra headers every signed request carries (templates over credentials and config), e.g. an API client id.
 */
export type TemplateMap = Record<string, string>;
/**
 * Header names to value templates.
 */
export type TemplateMap1 = Record<string, string>;
/**
 * Refresh request body fields (templates over credentials and config).
 */
export type TemplateMap2 = Record<string, string>;
/**
 * Extra headers on the refresh request.
 */
export type TemplateMap3 = Record<string, string>;
/**
 * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
 */
export type BodyPath = string;
/**
 * Query parameters of the authorize URL (templates). Roots: credentials (non-secret fields only: the URL is shown to the user's browser) and params: redirect_uri, state, scope (the scopes joined), code_challenge and code_challenge_method (with pkce). Must send params.redirect_uri and params.state.
 */
export type TemplateMap4 = Record<string, string>;
/**
 * Fields of the exchange (where oauth2.body_format says). Roots: credentials and params: code, redirect_uri, code_verifier (with pkce). Must send params.code and params.redirect_uri.
 */
export type TemplateMap5 = Record<string, string>;
/**
 * Extra headers on the exchange request.
 */
export type TemplateMap6 = Record<string, string>;
/**
 * Headers sent on every request (templates over config).
 */
export type TemplateMap7 = Record<string, string>;
/**
 * JSON Schema of one record as the engine returns it (SPEC.md's field table).
 */
export type ObjectSchema2 = JsonSchema;
/**
 * JSON Schema of the params object; every property needs a description. Checked before any request, all problems at once.
 */
export type ObjectSchema3 = JsonSchema;
/**
 * A named cross-field rule: either a JSON Schema the params must satisfy, or a cap on how many items a wildcard path matches.
 */
export type ParamRule =
  | {name: string; message: string; field?: string; schema: JsonSchema}
  | {name: string; message: string; field?: string; count: {path: string; max: number}};
/**
 * Query parameters (name -> template); empty values are left out.
 */
export type TemplateMap8 = Record<string, string>;
/**
 * Extra headers (name -> template).
 */
export type TemplateMap9 = Record<string, string>;
/**
 * How the next page is found and asked for. Required on actions that return `records`.
 */
export type PaginationSpec =
  | NonePagination
  | BodyTokenPagination
  | LinkHeaderPagination
  | RecordKeyPagination
  | PageNumberPagination
  | OffsetPagination;
/**
 * Headers of the file request (templates over params), e.g. Range: {{params.range_header}}.
 */
export type TemplateMap10 = Record<string, string>;
/**
 * Type of a searchable field, as SPEC.md's searchable-field tables list it.
 */
export type SearchableFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
export type SyncValueType = 'number' | 'date-time';

/**
 * One connector kind, as data: how to authenticate, how to talk HTTP to the upstream, and for each entity and action the params, the request templates, where records and paging sit in the response, and how fields map. Templates are handlebars over `params`, `config` and `credentials`; a template that is exactly one `{{expression}}` yields the raw value (number, boolean, array, object), anything else renders to a string. Path templates percent-encode every value. Query and header entries whose value renders empty are left out.
 */
export interface ManifestDocument {
  /**
   * The connector_type value users pass (lowercase, kebab-case); matched case-insensitively.
   */
  type: string;
  /**
   * Display name of the connector.
   */
  name: string;
  /**
   * Version of this manifest (semver).
   */
  version: string;
  /**
   * Link to the upstream API documentation.
   */
  docs_url?: string;
  /**
   * Upstream base URL, a template over `config` only (never params or credentials), e.g. https://{{config.shop}}.myshopify.com. The sandbox and operators may replace it.
   */
  base_url: string;
  hosts: HostLists;
  config?: ObjectSchema;
  /**
   * Credential schemes in order of preference; the first whose credentials schema accepts the given credentials is used.
   *
   * @minItems 1
   */
  auth: [AuthScheme, ...AuthScheme[]];
  http?: HttpPolicyDocument;
  /**
   * Free space for YAML anchors that the rest of the manifest reuses (shared record schemas, params, templates). The engine does not read it.
   */
  definitions?: Record<string, unknown>;
  /**
   * The entities of the connector, keyed by entity name (snake_case).
   */
  entities: {
    [k: string]: EntitySpec;
  };
  /**
   * Config settings taken from a credential field when the caller does not set them (e.g. the store name that a token belongs to).
   */
  config_from_credentials?: {
    [k: string]: string;
  };
  check: CredentialsCheckSpec;
  /**
   * How a user finds the value of a config setting that some actions need (request.required_config): the action that lists the values and the record field that holds one. The hosted service names it wherever it asks for the setting.
   */
  config_lookup?: {
    [k: string]: ConfigLookup;
  };
}
/**
 * Where this connector's requests may go, by purpose. Every outbound request is checked before it connects: https only, a host listed here for the request's purpose, and an address that is public unicast (never loopback, private, link-local, unique-local, multicast, unspecified, CGNAT or reserved; checked on the address actually connected to). A refused request fails with HOST_NOT_ALLOWED. Credentials and config can never widen these lists; only an operator can, by naming origins (the base URL override, allowOrigins, ENGINE_UPSTREAM_<TYPE>, ENGINE_ALLOW_ORIGINS_<TYPE>). Cite the upstream documentation of each host in a YAML comment.
 */
export interface HostLists {
  api: HostList;
  token?: HostList1;
  account?: HostList2;
  files?: HostList3;
}
/**
 * One way to authenticate: the credential fields it needs, how requests are signed and, for OAuth, how the access token is refreshed and how a user authorizes the app.
 */
export interface AuthScheme {
  /**
   * Scheme name shown in errors (e.g. private_app, oauth).
   */
  name: string;
  /**
   * What the scheme is and where its credentials come from.
   */
  description?: string;
  credentials: ObjectSchema1;
  sign: SignSpec;
  oauth2?: OAuth2Spec;
  authorization?: AuthorizationSpec;
  /**
   * A credential field that, when present, replaces the base URL (an OAuth token answer naming the account's own API host, e.g. Gong's api_base_url_for_customer). The URL must be https on a host of hosts.account (or an operator-named origin); any other value fails every call with HOST_NOT_ALLOWED, so credentials handed in by a tenant cannot point the engine elsewhere.
   */
  base_url_from?: {
    /**
     * Credential field holding the URL.
     */
    field: string;
  };
}
export interface BearerSign {
  /**
   * `Authorization: Bearer <token>`.
   */
  type: 'bearer';
  /**
   * Template of the token, e.g. {{credentials.access_token}}.
   */
  token: string;
  headers?: TemplateMap;
}
export interface HeaderSign {
  /**
   * Credentials in named headers (e.g. X-Shopify-Access-Token).
   */
  type: 'header';
  headers: TemplateMap1;
}
export interface BasicSign {
  /**
   * HTTP Basic authentication.
   */
  type: 'basic';
  /**
   * A handlebars template. Variables: params.*, config.*, credentials.*. Helpers: json (JSON text of a value), join (array joined with a separator, default ','), default (first value that is not empty), lower, upper.
   */
  username: string;
  /**
   * A handlebars template. Variables: params.*, config.*, credentials.*. Helpers: json (JSON text of a value), join (array joined with a separator, default ','), default (first value that is not empty), lower, upper.
   */
  password: string;
}
/**
 * OAuth 2.0 refresh-token flow. The engine refreshes before expiry, once after a 401, with one refresh in flight per credential set, and hands rotated tokens to onCredentialsChange before using them.
 */
export interface OAuth2Spec {
  /**
   * A handlebars template. Variables: params.*, config.*, credentials.*. Helpers: json (JSON text of a value), join (array joined with a separator, default ','), default (first value that is not empty), lower, upper.
   */
  token_url: string;
  /**
   * Where the refresh request's fields go: a form body, a JSON body, or the query string (Gong-style endpoints).
   */
  body_format: 'form' | 'json' | 'query';
  body: TemplateMap2;
  /**
   * Client authentication by HTTP Basic instead of (or besides) body fields.
   */
  client_auth?: {
    /**
     * Only `basic`.
     */
    type: 'basic';
    /**
     * A handlebars template. Variables: params.*, config.*, credentials.*. Helpers: json (JSON text of a value), join (array joined with a separator, default ','), default (first value that is not empty), lower, upper.
     */
    username: string;
    /**
     * A handlebars template. Variables: params.*, config.*, credentials.*. Helpers: json (JSON text of a value), join (array joined with a separator, default ','), default (first value that is not empty), lower, upper.
     */
    password: string;
  };
  headers?: TemplateMap3;
  /**
   * Where the token response keeps its fields.
   */
  response: {
    /**
     * Body path of the new access token.
     */
    access_token: string;
    /**
     * Body path of the (possibly rotated) refresh token.
     */
    refresh_token?: string;
    /**
     * Body path of the lifetime in seconds.
     */
    expires_in?: string;
    /**
     * Extra credential fields to store from the response (credential field -> body path), e.g. Gong's api_base_url_for_customer.
     */
    keep?: {
      [k: string]: BodyPath;
    };
  };
  /**
   * True when each refresh token is single-use: the new one must be stored before anything else happens.
   */
  rotates_refresh_token?: boolean;
  /**
   * Refresh this many seconds before the access token expires (default 60).
   */
  refresh_before_expiry_seconds?: number;
  /**
   * Token-endpoint answers that mean the grant is dead (REAUTH_REQUIRED, never retried). Any 400/401 whose body `error` is invalid_grant always counts.
   */
  reauth_when?: ReauthMatcher[];
}
/**
 * Matches an HTTP answer by status and/or a body field's value.
 */
export interface ReauthMatcher {
  /**
   * HTTP status to match.
   */
  status?: number;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  path?: string;
  /**
   * Value the body path must hold.
   */
  equals?: string;
}
/**
 * The OAuth 2.0 authorization-code flow (RFC 6749 §4.1) that gives an end user's credentials to this scheme: the authorize URL the user's browser opens, and the code-for-token exchange. The exchange is sent to oauth2.token_url with oauth2.body_format and oauth2.client_auth, and its answer is read with oauth2.response, so it yields the same credentials a refresh does. Needs oauth2 on the same scheme.
 */
export interface AuthorizationSpec {
  /**
   * A handlebars template. Variables: params.*, config.*, credentials.*. Helpers: json (JSON text of a value), join (array joined with a separator, default ','), default (first value that is not empty), lower, upper.
   */
  url: string;
  query: TemplateMap4;
  /**
   * The scopes asked for when the caller names none, in the upstream's spelling.
   */
  scopes?: string[];
  /**
   * How the scopes are joined into params.scope (default one space, RFC 6749 §3.3).
   */
  scope_separator?: string;
  /**
   * Proof Key for Code Exchange (RFC 7636), where the upstream supports it: the engine makes a verifier per authorization, sends its challenge in the authorize URL and the verifier in the exchange.
   */
  pkce?: {
    /**
     * How the challenge is derived from the verifier (S256 unless the upstream only takes plain).
     */
    method: 'S256' | 'plain';
  };
  /**
   * The code-for-token request.
   */
  exchange: {
    body: TemplateMap5;
    headers?: TemplateMap6;
  };
}
/**
 * Connector-wide HTTP behaviour: timeouts, retries, rate limit, concurrency, extra headers and how to read upstream error bodies. Every part has a default (30 s timeouts; 4 retries of 429 and 5xx with 500 ms to 15 s backoff, Retry-After honoured up to 60 s), so most manifests leave it out.
 */
export interface HttpPolicyDocument {
  /**
   * Per-attempt timeout of an upstream request.
   */
  timeout_ms?: number;
  headers?: TemplateMap7;
  retry?: RetryPolicyDocument;
  /**
   * Client-side limit: at most `requests` in any window of `per_ms`, per connector instance.
   */
  rate_limit?: {
    /**
     * Requests allowed per window.
     */
    requests: number;
    /**
     * Window length in milliseconds.
     */
    per_ms: number;
  };
  /**
   * Most requests in flight at once per connector instance.
   */
  concurrency?: number;
  /**
   * Body paths of the upstream error's message, request id and code, read into the typed error (redacted).
   */
  error_body?: {
    /**
     * Body path of the message, or a list of paths tried in order (APIs with two error shapes).
     */
    message?: BodyPath | [BodyPath, ...BodyPath[]];
    /**
     * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
     */
    request_id?: string;
    /**
     * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
     */
    code?: string;
  };
  /**
   * Response header holding the upstream request id, used when the body has none.
   */
  request_id_header?: string;
  /**
   * Upstream answers that map to a specific engine error code and message (e.g. a premium-only 402 -> FORBIDDEN).
   */
  error_map?: ErrorMapEntry[];
}
/**
 * Retries of failed attempts (429, listed statuses, timeouts, connection resets) with exponential backoff and full jitter. Writes are never retried; read-only POSTs are.
 */
export interface RetryPolicyDocument {
  /**
   * Retries after the first attempt.
   */
  max_retries?: number;
  /**
   * Statuses that are retried.
   */
  statuses?: number[];
  /**
   * First backoff ceiling; doubles each retry.
   */
  base_delay_ms?: number;
  /**
   * Ceiling of one backoff wait.
   */
  max_delay_ms?: number;
  /**
   * Longest Retry-After the engine waits; a longer one fails at once with RATE_LIMITED and retry_after_ms.
   */
  retry_after_cap_ms?: number;
}
export interface ErrorMapEntry {
  /**
   * Upstream status.
   */
  status: number;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  path?: string;
  /**
   * Value the body path must hold.
   */
  equals?: string;
  /**
   * Engine error code (see engine/errors.ts).
   */
  code: string;
  /**
   * Message given to the caller.
   */
  message: string;
}
/**
 * An entity: its record schema and its actions.
 */
export interface EntitySpec {
  /**
   * What the entity is.
   */
  description?: string;
  agent?: AgentHints;
  record: ObjectSchema2;
  /**
   * Actions keyed by name. `search` is not declared here: an entity with a `sync` plan gets it, answered from the synchronized copy.
   */
  actions: {
    [k: string]: ActionSpec;
  };
  sync?: SyncPlan;
}
/**
 * Hints for AI agents: when to use this entity and questions it answers. The MCP server puts them into the descriptions of the entity's tools.
 */
export interface AgentHints {
  /**
   * When an agent should reach for this entity rather than another, in a sentence or two.
   */
  when_to_use?: string;
  /**
   * Questions of a user this entity answers, as the user would ask them.
   *
   * @minItems 1
   * @maxItems 5
   */
  example_questions?:
    | [string]
    | [string, string]
    | [string, string, string]
    | [string, string, string, string]
    | [string, string, string, string, string];
}
/**
 * One action: params, request, response extraction, paging and field mapping.
 */
export interface ActionSpec {
  /**
   * What the action does.
   */
  description?: string;
  params?: ObjectSchema3;
  /**
   * Cross-field rules, checked after the params schema; a failing rule is reported with its name and message.
   */
  rules?: ParamRule[];
  request: RequestSpec;
  response: ResponseSpec;
  pagination?: PaginationSpec;
  /**
   * Record field mappings: output field -> where it comes from and its default. Fields not named pass through unchanged.
   */
  fields?: {
    [k: string]: FieldMapping;
  };
  /**
   * Records the action leaves out of its results (and so out of a synchronized copy): a record matching any rule is dropped from a list, and a get of it answers NOT_FOUND, unless the rule's unless_config setting is true.
   *
   * @minItems 1
   */
  exclude_records?: [ExcludeRecordRule, ...ExcludeRecordRule[]];
  file?: FileSpec;
}
/**
 * The upstream request, as templates.
 */
export interface RequestSpec {
  /**
   * HTTP method.
   */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Path template appended to base_url; starts with '/'; each value is percent-encoded as one segment.
   */
  path: string;
  query?: TemplateMap8;
  headers?: TemplateMap9;
  /**
   * Body: a template tree (objects and arrays of templates) or one template that renders JSON text. Entries that render undefined are left out.
   */
  body?: TemplateTree;
  /**
   * Body encoding (default json).
   */
  body_format?: 'json' | 'form';
  /**
   * True for a POST that only reads (e.g. a search endpoint), so it may be retried like a GET.
   */
  read_only?: boolean;
  /**
   * Config settings this request cannot be sent without (e.g. a profile id sent as a header); a missing one fails before any request with INVALID_CONFIG naming it.
   */
  required_config?: string[];
}
/**
 * Where the records and meta fields sit in the upstream answer.
 */
export interface ResponseSpec {
  /**
   * Body path of the records array (list-like actions), or a list of paths tried in order (an endpoint family that names its array after the kind asked for).
   */
  records?: BodyPath | [BodyPath, ...BodyPath[]];
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  record?: string;
  /**
   * Meta field name -> body path (e.g. next_cursor: paging.next.after, total: total). Absent values become null.
   */
  meta?: {
    [k: string]: BodyPath;
  };
  /**
   * Upstream answers that mean 'no records' rather than an error (e.g. a 404 for an empty period): the action returns an empty page.
   */
  empty_on?: ReauthMatcher[];
}
export interface NonePagination {
  /**
   * A single response holds every record.
   */
  type: 'none';
}
export interface BodyTokenPagination {
  /**
   * The next-page token sits in the body; it goes back in a param.
   */
  type: 'body_token';
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  token_path: string;
  /**
   * The action param that carries the token back.
   */
  param: string;
}
export interface LinkHeaderPagination {
  /**
   * The next page is named by the Link response header.
   */
  type: 'link_header';
  /**
   * Link relation of the next page (default next).
   */
  rel?: string;
  /**
   * Query parameter of the linked URL holding the token (e.g. page_info).
   */
  query_param: string;
  /**
   * The action param that carries the token back.
   */
  param: string;
  /**
   * Params that may travel with the page token; the others are dropped when following pages (the token carries the first request's filters).
   */
  keep_params?: string[];
}
export interface RecordKeyPagination {
  /**
   * Keyset paging for APIs without tokens that sort by a date-time field and filter on it: when a page is full, the next request is the same one narrowed to the last record's key (inclusive), and the records already read at that key are dropped, so ties at a page boundary are neither lost nor repeated. The cursor is opaque.
   */
  type: 'record_key';
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  field: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  id: string;
  /**
   * The action param that carries the cursor back.
   */
  param: string;
  /**
   * The param holding the page size: a page shorter than it is the last.
   */
  page_size_param: string;
  /**
   * The params the engine sets to the cursor's key: `descending` (e.g. created_at.before) and, where ascending order can be paged, `ascending` (e.g. created_at.after).
   */
  narrow: {
    /**
     * Param bounding the key from above.
     */
    descending: string;
    /**
     * Param bounding the key from below.
     */
    ascending?: string;
  };
  /**
   * A boolean param that, when true, asks for ascending order (default descending).
   */
  ascending_param?: string;
  /**
   * The param that picks the upstream's order: the action pages only when it is absent or `value`; in another order `execute` gives one page (`has_more` says whether it was full, with no cursor) and `records()` refuses before any request.
   */
  order?: {
    /**
     * The order param.
     */
    param: string;
    /**
     * Its value that sorts by `field`.
     */
    value: string;
  };
  /**
   * A meta field that also carries the cursor, as `{<param>: cursor}` (null on the last page), where sibling actions report paging that way (Asana's next_page).
   */
  token_meta?: string;
}
export interface PageNumberPagination {
  /**
   * Numbered pages: the next page is the current number plus one. The read stops on an empty page, on a page shorter than `page_size_param` asked for, or when `total_path` / `total_pages_path` is reached. `meta.next_cursor` is the next page number (a number), to pass back in `param`.
   */
  type: 'page_number';
  /**
   * The page-number param; it must be typed integer.
   */
  param: string;
  /**
   * The number of the first page (default 1).
   */
  start?: number;
  /**
   * The page-size param: a page shorter than the size asked for (the caller's, else the param's default) is the last.
   */
  page_size_param?: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  total_path?: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  total_pages_path?: string;
}
export interface OffsetPagination {
  /**
   * Offset and limit: the next page starts where this one ended. The read stops on an empty page, on a page shorter than the limit asked for, or when `total_path` is reached. `meta.next_cursor` is the next offset (a number), to pass back in `param`.
   */
  type: 'offset';
  /**
   * The offset param; it must be typed integer.
   */
  param: string;
  /**
   * The limit param: a page shorter than the limit asked for (the caller's, else the param's default) is the last.
   */
  page_size_param: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  total_path?: string;
}
export interface FieldMapping {
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  from?: string;
  /**
   * Value used when the upstream leaves the field out.
   */
  default?: {
    [k: string]: unknown;
  };
  /**
   * Conversion of the upstream value: epoch_ms (ISO date-time to milliseconds since 1970), lower, upper, number, string.
   */
  transform?: 'epoch_ms' | 'lower' | 'upper' | 'number' | 'string';
}
export interface ExcludeRecordRule {
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  field: string;
  /**
   * The value (string, number, boolean or null) that excludes a record.
   */
  equals: string | number | boolean | null;
  /**
   * A boolean config setting that, when true, keeps the records this rule would exclude.
   */
  unless_config?: string;
}
/**
 * For `download`: the record read by `request` names a file URL; the engine fetches it and streams the bytes. The file host gets no credentials (presigned URLs).
 */
export interface FileSpec {
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  url: string;
  headers?: TemplateMap10;
  /**
   * File-host statuses that mean the URL expired: the record is read again once for a fresh URL.
   */
  refetch_on?: number[];
  /**
   * Why a record without a file URL cannot be downloaded (NOT_FOUND); the record's name is put in front.
   */
  missing_message: string;
}
/**
 * How the synchronized copy of this entity is read, and what `search` may filter on. A full pass reads every page (within every partition), upserts the records by id, then removes the records the pass did not see; an incremental pass reads only what changed since the last pass.
 */
export interface SyncPlan {
  /**
   * What a pass reads: one list-like read, or several whose records together make the entity (e.g. live and archived CRM records). Each may run once per partition record (`for_each`, outermost first).
   */
  read: SyncPlanRead | [SyncPlanRead, ...SyncPlanRead[]];
  children?: SyncChildren;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  id: string;
  /**
   * The entity's searchable fields and their types (SPEC.md): `search` accepts these names, and the copy keeps these fields of each record.
   */
  searchable: {
    [k: string]: SearchableFieldType;
  };
  /**
   * Dot paths under searchable fields whose values search compares and sorts as a type whatever their JSON type (HubSpot property values and Shopify money arrive as strings). `number`: a JSON number, or a strict decimal string read as its number. `date-time`: an instant in epoch milliseconds, read from an ISO 8601 date (midnight UTC) or date-time (`Z`, `+HH:MM`, `-HH:MM`, or no zone meaning UTC), a JSON number or a string of 1 to 15 digits (epoch ms).
   */
  value_types?: {
    [k: string]: SyncValueType;
  };
  /**
   * Dot paths `search` may sort by through an index: the first sort key's keys are kept beside the copy from its first sorted search on (filled once from the records present, then by every write), so sorted pages seek instead of sorting the whole copy. Each path names one value per record: a top-level string, integer, number or boolean field, or a path inside an object field. Sorting by any other scalar path still works, unindexed. Default: every top-level string, integer, number and boolean field and every `value_types` path.
   *
   * @minItems 1
   */
  sortable?: [string, ...string[]];
  discover_fields?: SyncDiscoverFields;
  /**
   * Searchable fields computed from the record read (e.g. associated ids).
   */
  fields?: {
    [k: string]: SyncFieldMapping;
  };
  incremental?: SyncIncremental;
}
/**
 * The list-like action a pass reads, optionally once per partition record (`for_each`, outermost first).
 */
export interface SyncPlanRead {
  /**
   * Entity whose action is read; defaults to this entity (e.g. tasks read through project_sections).
   */
  entity?: string;
  /**
   * A list-like action of that entity (list, api_search, ...).
   */
  action: string;
  /**
   * Params of the read. String values are templates over the names bound by `for_each` (e.g. "{{workspace.gid}}") and, in `incremental.params`, `since`.
   */
  params?: Record<string, unknown>;
  /**
   * Partition levels, outermost first: e.g. every workspace, then every project of it.
   *
   * @minItems 1
   */
  for_each?: [SyncPartition, ...SyncPartition[]];
}
/**
 * One level of partitions: every record of this read is bound to the name `as` while the levels below (and the entity's own read) run.
 */
export interface SyncPartition {
  /**
   * Name the partition record is bound to in templates (e.g. workspace).
   */
  as: string;
  /**
   * Entity whose action is read; defaults to this entity (e.g. tasks read through project_sections).
   */
  entity: string;
  /**
   * A list-like action of that entity (list, api_search, ...).
   */
  action: string;
  /**
   * Params of the read. String values are templates over the names bound by `for_each` (e.g. "{{workspace.gid}}") and, in `incremental.params`, `since`.
   */
  params?: Record<string, unknown>;
}
/**
 * Records nested under the records read (e.g. Asana subtasks): for every record read whose `when` is above 0 or true, this list-like action is read with the record bound to `as`; the children's own children are read the same way, each record's once per pass. Incremental params do not apply to these reads.
 */
export interface SyncChildren {
  /**
   * Name the parent record is bound to in `params` templates (e.g. parent).
   */
  as: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  when: string;
  /**
   * Entity whose action lists the children (e.g. task_subtasks).
   */
  entity: string;
  /**
   * A list-like action of that entity.
   */
  action: string;
  /**
   * Params of the read. String values are templates over the parent's name (e.g. "{{parent.gid}}").
   */
  params?: Record<string, unknown>;
}
/**
 * Fields the upstream defines per account (e.g. a CRM's custom properties), read at the start of every pass of the entity with one request that goes through the connector's auth, base URL, host rules, rate limit, retries and error mapping. Each definition's name is sent, comma-joined, in `read_param` of every read, so the copy holds those fields, and its upstream type, mapped by `types`, types the path `<under>.<name>` for search until the next pass. Definitions with a `skip_when` field true are left out; `value_types` of the manifest win over discovered types.
 */
export interface SyncDiscoverFields {
  request: RequestSpec1;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  items: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  name: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  type: string;
  /**
   * Upstream type name -> value type. Definitions of other types are still read into the copy, untyped.
   */
  types: {
    [k: string]: 'number' | 'date-time';
  };
  /**
   * Body paths, in a definition, of flags: a definition with any of them true is left out (e.g. hidden, archived).
   */
  skip_when?: BodyPath[];
  /**
   * The searchable object field the discovered fields sit in (e.g. properties).
   */
  under: string;
  /**
   * The string param of every read that takes the comma-joined names (e.g. properties).
   */
  read_param: string;
  /**
   * The longest comma-joined list of names a pass sends; a longer one fails the entity's pass with URI_TOO_LONG before any read, naming the length (an upstream may refuse long URLs: HubSpot's fail past about 15,000 characters).
   */
  max_read_param_length?: number;
}
/**
 * The upstream request, as templates.
 */
export interface RequestSpec1 {
  /**
   * HTTP method.
   */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Path template appended to base_url; starts with '/'; each value is percent-encoded as one segment.
   */
  path: string;
  query?: TemplateMap8;
  headers?: TemplateMap9;
  /**
   * Body: a template tree (objects and arrays of templates) or one template that renders JSON text. Entries that render undefined are left out.
   */
  body?: TemplateTree;
  /**
   * Body encoding (default json).
   */
  body_format?: 'json' | 'form';
  /**
   * True for a POST that only reads (e.g. a search endpoint), so it may be retried like a GET.
   */
  read_only?: boolean;
  /**
   * Config settings this request cannot be sent without (e.g. a profile id sent as a header); a missing one fails before any request with INVALID_CONFIG naming it.
   */
  required_config?: string[];
}
/**
 * Where a searchable field comes from.
 */
export interface SyncFieldMapping {
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  from: string;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  pluck?: string;
  /**
   * Value when `from` is missing.
   */
  default?: {
    [k: string]: unknown;
  };
}
/**
 * How a pass reads only what changed (where the upstream allows it). Deletions are only detected by full passes.
 */
export interface SyncIncremental {
  /**
   * Params added to the read; `{{since}}` is the cursor of the last successful pass.
   */
  params: Record<string, unknown>;
  /**
   * Dot path into a JSON body (e.g. paging.next.after); the empty string is the whole body.
   */
  cursor_field: string;
  /**
   * The upstream returns the records of an incremental read in ascending order of `cursor_field` (and partitions, if any, one after another). Only then may the stored cursor advance batch by batch, past records already written, so an interrupted pass resumes where it stopped. Most list endpoints order by id, not by modification time: leave it false unless the upstream's documentation says otherwise.
   */
  ordered?: boolean;
}
/**
 * The cheapest read the credentials alone allow (no config setting beyond the defaults): creating a hosted connector, replacing its credentials and the library's checkCredentials() run it, so credentials the upstream refuses fail at once with INVALID_CREDENTIALS and the upstream's reason.
 */
export interface CredentialsCheckSpec {
  /**
   * An entity of this manifest.
   */
  entity: string;
  /**
   * A read action of that entity (not download) whose request needs no required_config.
   */
  action: string;
  /**
   * Params of the read; they must pass the action's params schema.
   */
  params?: Record<string, unknown>;
}
export interface ConfigLookup {
  /**
   * The entity whose records hold the values.
   */
  entity: string;
  /**
   * A list-like action of that entity that needs no required_config itself.
   */
  action: string;
  /**
   * The record field whose value the setting takes (a property of the entity's record schema).
   */
  field: string;
}

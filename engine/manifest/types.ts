/**
 * The manifest as data: these types mirror schemas/manifest.schema.json, which is the author's
 * reference; ajv checks a manifest against that schema before anything reads it as these types.
 */

export type JsonSchema = Record<string, unknown>;

export type TemplateTree = string | number | boolean | null | TemplateTree[] | { [key: string]: TemplateTree };

export interface BearerSign {
  type: 'bearer';
  token: string;
  headers?: Record<string, string>;
}

export interface HeaderSign {
  type: 'header';
  headers: Record<string, string>;
}

export interface BasicSign {
  type: 'basic';
  username: string;
  password: string;
}

export type SignSpec = BearerSign | HeaderSign | BasicSign;

export interface ReauthMatcher {
  status?: number;
  path?: string;
  equals?: string;
}

export interface OAuth2Spec {
  token_url: string;
  body_format: 'form' | 'json' | 'query';
  body: Record<string, string>;
  client_auth?: { type: 'basic'; username: string; password: string };
  headers?: Record<string, string>;
  response: {
    access_token: string;
    refresh_token?: string;
    expires_in?: string;
    keep?: Record<string, string>;
  };
  rotates_refresh_token?: boolean;
  refresh_before_expiry_seconds?: number;
  reauth_when?: ReauthMatcher[];
}

export interface AuthScheme {
  name: string;
  description?: string;
  credentials: JsonSchema;
  sign: SignSpec;
  oauth2?: OAuth2Spec;
  /** A credential field naming the account's own base URL; its host must be in `hosts.account`. */
  base_url_from?: { field: string };
}

export interface RetryPolicy {
  max_retries: number;
  statuses: number[];
  base_delay_ms: number;
  max_delay_ms: number;
  retry_after_cap_ms: number;
}

export interface ErrorMapEntry {
  status: number;
  path?: string;
  equals?: string;
  code: string;
  message: string;
}

export interface HttpPolicy {
  timeout_ms: number;
  headers?: Record<string, string>;
  retry: RetryPolicy;
  rate_limit?: { requests: number; per_ms: number };
  concurrency?: number;
  error_body?: { message?: string | string[]; request_id?: string; code?: string };
  request_id_header?: string;
  error_map?: ErrorMapEntry[];
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: TemplateTree;
  body_format?: 'json' | 'form';
  read_only?: boolean;
  required_config?: string[];
}

export interface ResponseSpec {
  records?: string | string[];
  record?: string;
  meta?: Record<string, string>;
  empty_on?: ReauthMatcher[];
}

export interface FileSpec {
  url: string;
  headers?: Record<string, string>;
  refetch_on?: number[];
  missing_message: string;
}

export type PaginationSpec =
  | { type: 'none' }
  | { type: 'body_token'; token_path: string; param: string }
  | { type: 'link_header'; rel?: string; query_param: string; param: string; keep_params?: string[] }
  | RecordKeyPagination;

/**
 * Keyset paging for upstreams with no page token that sort by a date-time field and filter on it:
 * the next page is the same request narrowed to the last key read (inclusive, with the ids already
 * read at that key carried in the cursor, so ties at a page boundary are neither lost nor repeated).
 */
export interface RecordKeyPagination {
  type: 'record_key';
  /** Body path, in a record, of the date-time key the upstream sorts by. */
  field: string;
  /** Body path, in a record, of its id (tells records with the same key apart). */
  id: string;
  /** The param that carries the cursor back. */
  param: string;
  page_size_param: string;
  /** The params narrowed to the cursor's key: `descending` (e.g. created_at.before), `ascending` (created_at.after). */
  narrow: { descending: string; ascending?: string };
  /** A boolean param that, when true, asks for ascending order. */
  ascending_param?: string;
  /** The param that picks the upstream's order: paging needs it absent or `value`. */
  order?: { param: string; value: string };
  /** A meta field that also carries the cursor, as `{<param>: cursor}` (null on the last page). */
  token_meta?: string;
}

export interface FieldMapping {
  from?: string;
  default?: unknown;
  transform?: 'epoch_ms' | 'lower' | 'upper' | 'number' | 'string';
}

export type ParamRule =
  | { name: string; message: string; field?: string; schema: JsonSchema }
  | { name: string; message: string; field?: string; count: { path: string; max: number } };

/** A rule that leaves a record out of an action's results, unless a boolean config setting is true. */
export interface ExcludeRecordRule {
  field: string;
  equals: string | number | boolean | null;
  unless_config?: string;
}

export interface ActionSpec {
  description?: string;
  params?: JsonSchema;
  rules?: ParamRule[];
  request: RequestSpec;
  response: ResponseSpec;
  pagination?: PaginationSpec;
  fields?: Record<string, FieldMapping>;
  file?: FileSpec;
  exclude_records?: ExcludeRecordRule[];
}

/** One list-like action read during a sync pass; string params are templates over partition names. */
export interface SyncRead {
  /** Defaults to the entity that owns the plan. */
  entity?: string;
  action: string;
  params?: Record<string, unknown>;
}

/** A partition level: each record of this read is bound to `as` for the levels below it. */
export interface SyncPartition extends SyncRead {
  as: string;
  entity: string;
}

/** Type of a searchable field, as SPEC.md's searchable-field tables list it. */
export type SearchableFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** How a typed path's values compare and sort (searches read `"88.68"` as 88.68); date-time may join later. */
export type SyncValueType = 'number' | 'date-time';

/** A searchable field computed from the record read. */
export interface SyncFieldMapping {
  from: string;
  pluck?: string;
  default?: unknown;
}

/** How a pass reads only what changed since the last one. */
export interface SyncIncremental {
  params: Record<string, unknown>;
  cursor_field: string;
  /** Records arrive in ascending `cursor_field` order, so the cursor may advance batch by batch. */
  ordered?: boolean;
}

/** One read of a pass, optionally once per partition record. */
export type SyncPlanRead = SyncRead & { for_each?: SyncPartition[] };

/**
 * Records nested under the records read (e.g. subtasks): read for every record whose `when` is
 * set, then for each of those, and so on; each record's children are read once per pass.
 */
export interface SyncChildren extends SyncRead {
  entity: string;
  /** The name the parent record is bound to in `params` templates. */
  as: string;
  /** Body path, in the parent, of a count or flag: children are read only where it is above 0 or true. */
  when: string;
}

/**
 * Fields an upstream account defines itself (a CRM's custom properties), read at the start of each
 * pass: their names go into every read's `read_param`, their types type `<under>.<name>`.
 */
export interface SyncDiscoverFields {
  /** The request answering the definitions in one response (templates over config only). */
  request: RequestSpec;
  /** Body path of the definitions' array. */
  items: string;
  /** Body paths, in a definition, of its name and of its upstream type. */
  name: string;
  type: string;
  /** Upstream type name -> value type; other types are copied, untyped. */
  types: Record<string, SyncValueType>;
  /** Body paths of flags: a definition with any true is left out. */
  skip_when?: string[];
  /** The searchable object field the fields sit in. */
  under: string;
  /** The param of every read that takes the comma-joined names. */
  read_param: string;
  /** The longest joined names a pass sends (default 12,000 characters). */
  max_read_param_length?: number;
}

export interface SyncPlan {
  /** One read, or several whose records together make the entity (live and archived records). */
  read: SyncPlanRead | SyncPlanRead[];
  /** Records under the records read, read the same way, recursively. */
  children?: SyncChildren;
  id: string;
  searchable: Record<string, SearchableFieldType>;
  /** Dot paths (under searchable fields) whose values compare and sort as a type, whatever their JSON type. */
  value_types?: Record<string, SyncValueType>;
  /** Fields the upstream account defines, discovered at the start of each pass. */
  discover_fields?: SyncDiscoverFields;
  fields?: Record<string, SyncFieldMapping>;
  incremental?: SyncIncremental;
}

export interface EntitySpec {
  description?: string;
  record: JsonSchema;
  actions: Record<string, ActionSpec>;
  sync?: SyncPlan;
}

/**
 * Where a connector's requests may go, by purpose: exact host names or `*.suffix` (one label).
 * Every outbound request is checked against the list of its purpose before it connects.
 */
export interface HostLists {
  /** The API hosts (base_url). */
  api: string[];
  /** The OAuth token endpoint hosts. */
  token?: string[];
  /** The hosts an account's own base URL may name (auth scheme base_url_from). */
  account?: string[];
  /** The hosts download URLs, and every redirect they lead through, may point at. */
  files?: string[];
}

/** What an outbound request is for; each purpose has its own list in `hosts`. */
export type HostPurpose = keyof HostLists;

export interface Manifest {
  type: string;
  name: string;
  version: string;
  docs_url?: string;
  base_url: string;
  hosts: HostLists;
  config: JsonSchema;
  auth: AuthScheme[];
  http: HttpPolicy;
  definitions?: Record<string, unknown>;
  config_from_credentials?: Record<string, string>;
  entities: Record<string, EntitySpec>;
  /** The cheapest read the credentials alone allow: the credentials check. */
  check: CredentialsCheckSpec;
  /** Where a user finds the value of a config setting some actions need. */
  config_lookup?: Record<string, ConfigLookup>;
}

/** The read that tells whether an upstream accepts a credential set. */
export interface CredentialsCheckSpec {
  entity: string;
  action: string;
  params?: Record<string, unknown>;
}

/** The action whose records hold the values of a config setting, and the field that holds one. */
export interface ConfigLookup {
  entity: string;
  action: string;
  field: string;
}

/** A loaded manifest plus where it came from, so later checks can still point at file:line:col. */
export interface LoadedManifest {
  manifest: Manifest;
  file: string;
}

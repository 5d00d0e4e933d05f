/**
 * GENERATED from schemas/hosted-*.schema.json by `npm run generate`; do not edit. A test fails when this file is
 * stale.
 */

/**
 * A platform client asks for a short-lived token scoped to one of its end users.
 */
export interface TokenRequestBody {
  /**
   * Platform client id (connector-engine clients create).
   */
  client_id: string;
  /**
   * Platform client secret.
   */
  client_secret: string;
  /**
   * The end user the token acts for.
   */
  external_user_id: string;
}

/**
 * A connector: one end user's account at one upstream, with its credentials (SPEC.md Connector resource). Before anything is stored, the service runs the type's credentials check (its cheapest read) with them: credentials the upstream refuses answer 400 INVALID_CREDENTIALS with the upstream's reason, and nothing is stored.
 */
export interface ConnectorCreateBody {
  /**
   * Owner of the connector; must be the token's user.
   */
  external_user_id: string;
  /**
   * Connector kind (see GET /v1/connector-types), matched case-insensitively.
   */
  connector_type: string;
  /**
   * Display name.
   */
  name?: string | null;
  /**
   * Credential fields of one of the type's auth schemes; stored encrypted, never returned.
   */
  credentials: Record<string, unknown>;
  /**
   * Non-secret settings of the connector type, checked against its config schema (GET /v1/connector-types: `config`), defaults applied. Some actions need a setting that has no default: the answer's `missing_config` names each one, the entities that need it and the action that lists its values (GET /v1/connector-types: `config_needs`), and a PATCH with the whole config adds it later.
   */
  config?: Record<string, unknown>;
  /**
   * false skips the credentials check (default true): the connector is stored without asking the upstream, e.g. while it is down.
   */
  check_credentials?: boolean;
}

/**
 * Fields to change; absent fields stay as they are.
 */
export interface ConnectorUpdateBody {
  /**
   * Display name (null clears it).
   */
  name?: string | null;
  /**
   * A complete new credential set (checked against the type's auth schemes, then by the type's credentials check: credentials the upstream refuses answer 400 INVALID_CREDENTIALS and change nothing).
   */
  credentials?: Record<string, unknown>;
  /**
   * A complete new config, replacing the old one (checked against the type's config schema, defaults applied); the synchronized copy is read again in full.
   */
  config?: Record<string, unknown>;
  /**
   * With credentials: false skips the credentials check (default true).
   */
  check_credentials?: boolean;
}

/**
 * One action on one entity of the connector (SPEC.md Execute request).
 */
export interface ExecuteRequestBody {
  /**
   * Entity name.
   */
  entity: string;
  /**
   * Action name: list, get, api_search, search, download.
   */
  action: string;
  /**
   * Action params (see GET /v1/connector-types).
   */
  params?: Record<string, unknown>;
  /**
   * Deadline of this call in ms (default: the operator's ENGINE_EXECUTE_DEADLINE_MS, 30000): every rate-limit wait, Retry-After, retry and refresh ends by it, a download's by its first byte. Past it: UPSTREAM_TIMEOUT (504), whose error.deadline says what was waited for.
   */
  timeout_ms?: number;
}

/**
 * Asks for a sync pass now. Without a body, the pass is incremental where the manifest allows it.
 */
export interface SyncRequestBody {
  /**
   * Read everything and remove the records that disappeared, even where an incremental pass would do.
   */
  full?: boolean;
}

/**
 * A platform client asks for a Connect page URL where its end user (the token's) connects an account.
 */
export interface ConnectSessionBody {
  /**
   * The connector types the user may choose from (GET /v1/connector-types); default every type.
   *
   * @minItems 1
   * @maxItems 50
   */
  connector_types?: [string, ...string[]];
  /**
   * An absolute http(s) URL the page sends the user to after success, with ?connector_id=...
   */
  return_url?: string;
}

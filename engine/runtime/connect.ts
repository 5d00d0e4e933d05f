import { systemClock, type Clock } from '../clock/index.js';
import { AuthSession, selectScheme, type CredentialsChangeHandler, type RefreshCoordinator } from '../auth/index.js';
import { InvalidConfigError, InvalidCredentialsError, InvalidRequestError, summarizeDetails, type EngineError } from '../errors.js';
import { DEFAULT_DEADLINE_MS, EgressPolicy, HttpClient, createRedactor, type RateSlots, type UpstreamRequestListener } from '../http/index.js';
import { findManifest, type AuthScheme, type HttpPolicy, type LoadedManifest, type Manifest } from '../manifest/index.js';
import { deadlineProblem } from './call-options.js';
import { compileConnector } from './compiled-connector.js';
import { Connection } from './connection.js';
import { trustedOrigins } from './trusted-origins.js';
import { MAX_VALUE_DEPTH, tooDeepAt } from './value-depth.js';

/** Options of `connect` in open-source mode. */
export interface ConnectOptions {
  /** Credential fields of one of the connector's auth schemes. */
  credentials: Record<string, unknown>;
  /** Non-secret settings (e.g. a store name); validated against the manifest, defaults applied. */
  config?: Record<string, unknown>;
  /**
   * Replaces the manifest's base URL (and the OAuth token URL's origin): the sandbox, a proxy. Its
   * origin is trusted exactly as named (http and loopback included), for every purpose.
   */
  baseUrl?: string;
  /**
   * More origins (`scheme://host[:port]`) the connector may reach besides the manifest's `hosts`,
   * trusted exactly as named: e.g. the sandbox fakes' file host and customer API host
   * (`allow_origins` in the sandbox's description). Credentials and config can never widen this.
   */
  allowOrigins?: string[];
  /** Receives rotated credentials before they are used, so the caller can persist them. */
  onCredentialsChange?: CredentialsChangeHandler;
  /** Serializes refreshes across processes sharing stored credentials (the hosted service). */
  refreshCoordinator?: RefreshCoordinator;
  /**
   * Told when a call ends in REAUTH_REQUIRED (a refresh token refused, a second 401): the
   * credentials are dead until the user connects again. The hosted service marks the connector.
   */
  onAuthFailure?: (error: EngineError) => void | Promise<void>;
  /** Per-attempt upstream timeout in ms, replacing the manifest's `http.timeout_ms`. */
  timeoutMs?: number;
  /**
   * Client-side rate limit replacing the manifest's (a higher account tier often allows more);
   * `false` switches the client-side limits off, the manifest's concurrency cap too, so a
   * benchmark (serve with --no-rate-limits) measures the engine, not calls queued behind the cap.
   */
  rateLimit?: { requests: number; perMs: number } | false;
  /**
   * The deadline of every call that names none, in ms (default 30,000): it bounds all of a call's
   * waits and retries (see `CallOptions.deadlineMs`).
   */
  deadlineMs?: number;
  /**
   * Where the rate limit's slots live, when several processes share one upstream account's
   * budget (the hosted service passes its database's); default: this process's memory.
   */
  rateSlots?: RateSlots;
  /**
   * Told of every HTTP request sent upstream as it is sent (API calls and their retries, token
   * refreshes, file transfers), e.g. to count them in metrics.
   */
  onUpstreamRequest?: UpstreamRequestListener;
  /**
   * Where the connection reads time and schedules its waits (retries, rate limit, deadlines, token
   * expiry); default real time. Tests pass a manual clock (`createManualClock`) and move it.
   */
  clock?: Clock;
}

function checkDeadline(options: ConnectOptions): number {
  if (options.deadlineMs === undefined) return DEFAULT_DEADLINE_MS;
  const problem = deadlineProblem(options.deadlineMs);
  if (problem) throw new InvalidRequestError(`connect option deadlineMs ${problem}`, { details: [{ path: '/deadlineMs', message: problem }] });
  return options.deadlineMs;
}

function checkConfig(connector: ReturnType<typeof compileConnector>, config: unknown): Record<string, unknown> {
  const deep = tooDeepAt(config);
  if (deep !== undefined) {
    throw new InvalidConfigError(`config for ${connector.manifest.type} nests deeper than ${MAX_VALUE_DEPTH} levels`, {
      details: [{ path: `/config${deep === '/' ? '' : deep}`, message: `nests deeper than ${MAX_VALUE_DEPTH} levels` }],
    });
  }
  const copy = structuredClone(config ?? {}) as Record<string, unknown>;
  const validate = connector.ajv.compile(connector.manifest.config);
  if (validate(copy)) return copy;
  const details = (validate.errors ?? []).map((e) => ({
    path: `/config${e.instancePath}${(e.params as { additionalProperty?: string }).additionalProperty ? '/' + (e.params as { additionalProperty: string }).additionalProperty : ''}`,
    message: e.message ?? 'is invalid',
  }));
  throw new InvalidConfigError(`invalid config for ${connector.manifest.type}: ${summarizeDetails(details)}`, { details });
}

/**
 * The credential fields a scheme marks `writeOnly` (secrets). A scheme that marks none is taken
 * to be all secret, so forgetting the mark errs on the side of redaction.
 */
function secretFields(scheme: AuthScheme): string[] | undefined {
  const props = (scheme.credentials.properties ?? {}) as Record<string, { writeOnly?: boolean }>;
  const marked = Object.keys(props).filter((name) => props[name]?.writeOnly === true);
  return marked.length > 0 ? [...marked, 'access_token', 'refresh_token'] : undefined;
}

/** Config settings the manifest takes from the credentials when the caller leaves them out. */
function configWithCredentials(manifest: Manifest, options: ConnectOptions): Record<string, unknown> | undefined {
  const pairs = Object.entries(manifest.config_from_credentials ?? {});
  if (pairs.length === 0) return options.config;
  const config = { ...(options.config ?? {}) };
  for (const [setting, field] of pairs) {
    if (config[setting] === undefined && options.credentials[field] !== undefined) config[setting] = options.credentials[field];
  }
  return config;
}

/**
 * The base URL an OAuth answer names for the account (its own regional API host), or the fixed
 * one while the credentials name none. A named URL must pass the egress policy for `account`
 * (https on a host of hosts.account, or an operator-named origin); otherwise every call fails with
 * HOST_NOT_ALLOWED, loudly, instead of quietly sending the token somewhere else.
 */
function accountBaseUrl(field: string, credentials: () => Record<string, unknown>, fallback: string, egress: EgressPolicy): () => string {
  return () => {
    const value = credentials()[field];
    if (value === undefined || value === null || value === '') return fallback;
    egress.permit(egress.parse(value, 'account'), 'account');
    return String(value).replace(/\/+$/, '');
  };
}

function httpPolicy(manifestPolicy: HttpPolicy, options: ConnectOptions): HttpPolicy {
  const policy: HttpPolicy = { ...manifestPolicy };
  if (options.timeoutMs) policy.timeout_ms = options.timeoutMs;
  if (options.rateLimit === false) {
    delete policy.rate_limit;
    delete policy.concurrency;
  } else if (options.rateLimit) policy.rate_limit = { requests: options.rateLimit.requests, per_ms: options.rateLimit.perMs };
  return policy;
}

/** What a connector's type, credentials and config resolve to, before anything is stored. */
export interface CheckedConnectorInput {
  type: string;
  scheme: string;
  config: Record<string, unknown>;
}

/**
 * Checks a connector's type, config and credentials against its manifest without connecting, so
 * the hosted service can refuse a connector it could never run (400 naming the schemes).
 */
export function checkConnectorInput(type: string, credentials: Record<string, unknown>, config?: Record<string, unknown>): CheckedConnectorInput {
  const connector = compileConnector(findManifest(type));
  const checked = checkConfig(connector, configWithCredentials(connector.manifest, { credentials, ...(config ? { config } : {}) }));
  const scheme = selectScheme(connector.manifest, credentials, connector.ajv);
  return { type: connector.manifest.type, scheme: scheme.name, config: checked };
}

/**
 * Opens a connector in this process with the caller's credentials. `type` names a shipped
 * connector (case-insensitively) or is a manifest the caller loaded with `loadManifestFile`.
 * The library's door is `connect` (engine/connect.ts), which adds the hosted mode and a copy. Everything that can be wrong
 * before the first call (unknown type, config, credentials matching no scheme) fails here.
 */
export function openConnection(type: string | LoadedManifest, options: ConnectOptions): Connection {
  const connector = compileConnector(typeof type === 'string' ? findManifest(type) : type);
  if (!options || typeof options.credentials !== 'object' || options.credentials === null) {
    throw new InvalidCredentialsError(`connect("${connector.manifest.type}") needs options.credentials`, {
      details: [{ path: '/credentials', message: 'is required' }],
    });
  }
  const config = checkConfig(connector, configWithCredentials(connector.manifest, options));
  const deadlineMs = checkDeadline(options);
  const scheme = selectScheme(connector.manifest, options.credentials, connector.ajv);
  const label = connector.manifest.name;
  const policy = httpPolicy(connector.manifest.http, options);
  const egress = new EgressPolicy({ hosts: connector.manifest.hosts, trustedOrigins: trustedOrigins(options.baseUrl, options.allowOrigins), label });
  const clock = options.clock ?? systemClock;
  let session: AuthSession | undefined;
  const secrets = secretFields(scheme);
  const redact = createRedactor(() => {
    const current = session?.credentials ?? options.credentials;
    return secrets ? secrets.map((field) => current[field]) : Object.values(current);
  });
  session = new AuthSession({
    scheme,
    credentials: options.credentials,
    config,
    label,
    redact,
    timeoutMs: policy.timeout_ms,
    egress,
    ...(options.baseUrl ? { tokenOrigin: options.baseUrl } : {}),
    ...(options.onCredentialsChange ? { onCredentialsChange: options.onCredentialsChange } : {}),
    ...(options.refreshCoordinator ? { coordinator: options.refreshCoordinator } : {}),
    ...(options.onAuthFailure ? { onAuthFailure: options.onAuthFailure } : {}),
    ...(options.onUpstreamRequest ? { onRequest: options.onUpstreamRequest } : {}),
    clock,
  });
  const http = new HttpClient(policy, label, redact, egress, options.rateSlots, options.onUpstreamRequest, clock);
  const fixedBaseUrl = options.baseUrl ?? connector.baseUrl.render({ config });
  const baseUrl = scheme.base_url_from
    ? accountBaseUrl(scheme.base_url_from.field, () => session?.credentials ?? {}, fixedBaseUrl, egress)
    : () => fixedBaseUrl;
  return new Connection(connector, session, http, config, baseUrl, policy.timeout_ms, redact, egress, deadlineMs, options.onUpstreamRequest, clock);
}

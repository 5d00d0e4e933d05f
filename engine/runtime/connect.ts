import { AuthSession, selectScheme, type CredentialsChangeHandler } from '../auth/index.js';
import { InvalidConfigError, InvalidCredentialsError } from '../errors.js';
import { HttpClient, createRedactor } from '../http/index.js';
import { findManifest, type HttpPolicy, type LoadedManifest } from '../manifest/index.js';
import { compileConnector } from './compiled-connector.js';
import { Connection } from './connection.js';

/** Options of `connect` in open-source mode. */
export interface ConnectOptions {
  /** Credential fields of one of the connector's auth schemes. */
  credentials: Record<string, unknown>;
  /** Non-secret settings (e.g. Shopify shop); validated against the manifest, defaults applied. */
  config?: Record<string, unknown>;
  /** Replaces the manifest's base URL (and the OAuth token URL's origin): the sandbox, a proxy. */
  baseUrl?: string;
  /** Receives rotated credentials before they are used, so the caller can persist them. */
  onCredentialsChange?: CredentialsChangeHandler;
  /** Per-attempt upstream timeout in ms, replacing the manifest's `http.timeout_ms`. */
  timeoutMs?: number;
  /**
   * Client-side rate limit replacing the manifest's (e.g. a HubSpot Enterprise account allows 190
   * per 10 s); `false` switches it off (the sandbox with --no-rate-limits, benchmarks).
   */
  rateLimit?: { requests: number; perMs: number } | false;
}

function checkConfig(connector: ReturnType<typeof compileConnector>, config: unknown): Record<string, unknown> {
  const copy = structuredClone(config ?? {}) as Record<string, unknown>;
  const validate = connector.ajv.compile(connector.manifest.config);
  if (validate(copy)) return copy;
  const details = (validate.errors ?? []).map((e) => ({
    path: `/config${e.instancePath}${(e.params as { additionalProperty?: string }).additionalProperty ? '/' + (e.params as { additionalProperty: string }).additionalProperty : ''}`,
    message: e.message ?? 'is invalid',
  }));
  throw new InvalidConfigError(`invalid config for ${connector.manifest.type}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, { details });
}

function httpPolicy(manifestPolicy: HttpPolicy, options: ConnectOptions): HttpPolicy {
  const policy: HttpPolicy = { ...manifestPolicy };
  if (options.timeoutMs) policy.timeout_ms = options.timeoutMs;
  if (options.rateLimit === false) delete policy.rate_limit;
  else if (options.rateLimit) policy.rate_limit = { requests: options.rateLimit.requests, per_ms: options.rateLimit.perMs };
  return policy;
}

/**
 * Opens a connector in this process with the caller's credentials. `type` names a shipped
 * connector (case-insensitively) or is a manifest the caller loaded with `loadManifestFile`. Everything that can be wrong
 * before the first call (unknown type, config, credentials matching no scheme) fails here.
 */
export function connect(type: string | LoadedManifest, options: ConnectOptions): Connection {
  const connector = compileConnector(typeof type === 'string' ? findManifest(type) : type);
  if (!options || typeof options.credentials !== 'object' || options.credentials === null) {
    throw new InvalidCredentialsError(`connect("${connector.manifest.type}") needs options.credentials`, { details: [{ path: '/credentials', message: 'is required' }] });
  }
  const config = checkConfig(connector, options.config);
  const scheme = selectScheme(connector.manifest, options.credentials, connector.ajv);
  const label = connector.manifest.name;
  const policy = httpPolicy(connector.manifest.http, options);
  let session: AuthSession | undefined;
  const redact = createRedactor(() => Object.values(session?.credentials ?? options.credentials));
  session = new AuthSession({
    scheme,
    credentials: options.credentials,
    config,
    label,
    redact,
    timeoutMs: policy.timeout_ms,
    ...(options.baseUrl ? { tokenOrigin: options.baseUrl } : {}),
    ...(options.onCredentialsChange ? { onCredentialsChange: options.onCredentialsChange } : {}),
  });
  const http = new HttpClient(policy, label, redact);
  const baseUrl = options.baseUrl ?? connector.baseUrl.render({ config });
  return new Connection(connector, session, http, config, baseUrl);
}

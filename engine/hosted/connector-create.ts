import { checkConnectorInput } from '../runtime/index.js';
import type { ConnectorRow, Tenant } from '../store/index.js';
import type { HostedContext } from './hosted-context.js';
import { DEFAULT_MAX_CONNECTORS_PER_USER } from './server-options.js';

/** What a new connector is made of, whoever asks (the API's POST, the Connect page). */
export interface ConnectorInput {
  connector_type: string;
  credentials: Record<string, unknown>;
  config?: Record<string, unknown> | undefined;
  name?: string | null | undefined;
  /** False skips the upstream check (the API's `check_credentials: false`). */
  check_credentials?: boolean | undefined;
}

/**
 * Creates a tenant's connector: checks the input against the manifest, runs the type's credentials
 * check with the upstream (its rotated credentials are the ones stored), stores it encrypted
 * within the tenant's limit, and makes its first pass due.
 * Why: `POST /v1/integrations/connectors` and the Connect page create connectors through this one
 * function, so whatever follows a creation (the first sync, a "connector created" event) happens
 * for both.
 */
export async function createTenantConnector(context: HostedContext, tenant: Tenant, input: ConnectorInput): Promise<ConnectorRow> {
  const checked = checkConnectorInput(input.connector_type, input.credentials, input.config);
  // Before anything is stored: credentials the upstream refuses leave no connector behind.
  const credentials = input.check_credentials === false ? input.credentials : await context.checkWithUpstream(checked.type, input.credentials, checked.config);
  const row = await context.store.createConnector(
    {
      tenant,
      connector_type: checked.type,
      name: input.name ?? null,
      config: checked.config,
      auth_scheme: checked.scheme,
      credentials_ciphertext: context.cipher.encrypt(JSON.stringify(credentials)),
    },
    { maxPerTenant: context.options.maxConnectorsPerUser ?? DEFAULT_MAX_CONNECTORS_PER_USER },
  );
  // DESIGN.md §7: the copy starts filling as soon as the connector exists.
  await context.requestSync(tenant, row.id, true, false);
  return row;
}

import { findManifest, missingConfig } from '../manifest/index.js';
import type { ConnectorRow } from '../store/index.js';

/** The connector as the API shows it: never the credentials. */
export function connectorView(row: ConnectorRow, sync?: object): Record<string, unknown> {
  return {
    id: row.id,
    external_user_id: row.external_user_id,
    connector_type: row.connector_type,
    name: row.name,
    config: row.config,
    auth_scheme: row.auth_scheme,
    // needs_reauth: the upstream refused the credentials for good; `reason` is what it said.
    auth: { state: row.auth_state, since: row.auth_state_at, reason: row.auth_reason },
    // Settings some actions need that this config lacks: which entities, and how to find a value.
    missing_config: missingConfig(findManifest(row.connector_type).manifest, row.config),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(sync ? { sync } : {}),
  };
}

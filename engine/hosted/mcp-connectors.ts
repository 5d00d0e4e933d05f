import { findManifest } from '../manifest/index.js';
import { hostedToolPrefix, type McpConnector } from '../mcp/index.js';
import { connectorNotFound, type ConnectorRow, type Tenant } from '../store/index.js';
import { executeAction } from './execute-action.js';
import type { HostedContext } from './hosted-context.js';

/** How a stored connector is named in tool descriptions: type, the user's name for it, and its id. */
function titleOf(row: ConnectorRow, name: string): string {
  return `${name} connector${row.name ? ` ${JSON.stringify(row.name)}` : ''} (${row.id})`;
}

/**
 * The tenant's stored connectors as the MCP server's connectors: the rows come from a
 * tenant-scoped read, and every call reads its row again through the tenant, so a connector
 * deleted (or never owned) is CONNECTOR_NOT_FOUND and reaches no upstream.
 */
export function hostedMcpConnectors(context: HostedContext, tenant: Tenant, rows: ConnectorRow[]): McpConnector[] {
  const all = rows.map((row) => ({ id: row.id, type: row.connector_type }));
  return rows.map((row) => {
    const manifest = findManifest(row.connector_type).manifest;
    return {
      prefix: hostedToolPrefix({ id: row.id, type: row.connector_type }, all),
      title: titleOf(row, manifest.name),
      manifest,
      // The service keeps a synchronized copy of every connector (DESIGN.md §7).
      searchable: true,
      execute: async (entity, action, params) => {
        const current = await context.store.getConnector(tenant, row.id);
        if (!current) throw connectorNotFound();
        return executeAction(context, tenant, current, { entity, action, params });
      },
    };
  });
}

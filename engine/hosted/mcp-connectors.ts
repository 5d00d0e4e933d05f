import { findManifest } from '../manifest/index.js';
import { hostedToolPrefix, type McpConnector } from '../mcp/index.js';
import type { ConnectorRow, Tenant } from '../store/index.js';
import { executeAction } from './execute-action.js';
import type { HostedContext } from './hosted-context.js';

/** How a stored connector is named in tool descriptions: type, the user's name for it, and its id. */
function titleOf(row: ConnectorRow, name: string): string {
  return `${name} connector${row.name ? ` ${JSON.stringify(row.name)}` : ''} (${row.id})`;
}

/**
 * The tenant's stored connectors as the MCP server's connectors. The rows come from a
 * tenant-scoped read made for this request (the endpoint is stateless), so a tool can only name
 * a connector the token's user holds now; search reads the copy through the tenant too.
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
      execute: (entity, action, params) => executeAction(context, tenant, row, { entity, action, params }),
    };
  });
}

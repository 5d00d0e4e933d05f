import { findManifest } from '../manifest/index.js';
import type { DownloadStream, ExecuteResult } from '../runtime/index.js';
import type { SearchResult } from '../search/index.js';
import type { ConnectorRow, Tenant } from '../store/index.js';
import { searchCopy } from '../sync/index.js';
import type { ExecuteRequestBody } from './body-types.generated.js';
import type { HostedContext } from './hosted-context.js';

/**
 * Runs one action (an execute body) of a tenant's connector: `search` on the synchronized copy (no credentials are
 * opened), anything else upstream through the pooled connection. Why one function: the execute
 * route and the MCP tools must behave alike, down to clearing `needs_reauth` when the upstream
 * took the credentials after all. `signal` cancels the upstream call (the caller went away).
 */
export async function executeAction(
  context: HostedContext,
  tenant: Tenant,
  row: ConnectorRow,
  request: ExecuteRequestBody,
  signal?: AbortSignal,
): Promise<ExecuteResult | SearchResult | DownloadStream> {
  const { store, pool, options } = context;
  const manifest = findManifest(row.connector_type).manifest;
  if (request.action === 'search' && manifest.entities[request.entity]?.sync) {
    return searchCopy({ store, manifest, connectorId: row.id, tenant }, request.entity, request.params ?? {});
  }
  const opened = pool.connection(row);
  const connection = opened instanceof Promise ? await opened : opened;
  const deadlineMs = request.timeout_ms ?? options.executeDeadlineMs;
  const callOptions = { ...(deadlineMs === undefined ? {} : { deadlineMs }), ...(signal ? { signal } : {}) };
  const result = await connection.execute(request.entity, request.action, request.params, callOptions);
  // The upstream took the credentials after all (the grant recovered, a rotated token arrived).
  if (row.auth_state === 'needs_reauth') await store.clearNeedsReauth(row.id);
  return result;
}

import type { CallerGone } from '../http/index.js';
import { findManifest } from '../manifest/index.js';
import type { CallOptions, DownloadStream, ExecuteResult } from '../runtime/index.js';
import type { SearchResult } from '../search/index.js';
import type { ConnectorRow, Tenant } from '../store/index.js';
import { searchCopy } from '../sync/index.js';
import type { ExecuteRequestBody } from './body-types.generated.js';
import type { HostedContext } from './hosted-context.js';

/**
 * Runs one action (an execute body) of a tenant's connector: `search` on the synchronized copy (no credentials are
 * opened), anything else upstream through the pooled connection. Why one function: the execute
 * route and the MCP tools must behave alike, down to clearing `needs_reauth` when the upstream
 * took the credentials after all. `gone` cancels the upstream call (the caller went away).
 */
export async function executeAction(
  context: HostedContext,
  tenant: Tenant,
  row: ConnectorRow,
  request: ExecuteRequestBody,
  gone?: CallerGone,
): Promise<ExecuteResult | SearchResult | DownloadStream> {
  const { store, pool, options } = context;
  const manifest = findManifest(row.connector_type).manifest;
  if (request.action === 'search' && manifest.entities[request.entity]?.sync) {
    return searchCopy({ store, manifest, connectorId: row.id, tenant }, request.entity, request.params ?? {});
  }
  const opened = pool.connection(row);
  const connection = opened instanceof Promise ? await opened : opened;
  const deadlineMs = request.timeout_ms ?? options.executeDeadlineMs;
  const callOptions: CallOptions = deadlineMs === undefined ? {} : { deadlineMs };
  // The call takes a CallerGone where a caller's AbortSignal goes (checkCallOptions accepts both; the public type names only the signal).
  if (gone) callOptions.signal = gone as unknown as AbortSignal;
  const result = await connection.execute(request.entity, request.action, request.params, callOptions);
  // The upstream took the credentials after all (the grant recovered, a rotated token arrived).
  if (row.auth_state === 'needs_reauth') await store.clearNeedsReauth(row.id);
  return result;
}

import type { Manifest } from '../manifest/index.js';
import type { DownloadStream, ExecuteResult } from '../runtime/index.js';
import type { SearchResult } from '../search/index.js';
import type { SyncState } from '../store/index.js';

/** What one action of a connector answers: a page or a record, search hits, or a file. */
export type ActionAnswer = ExecuteResult | SearchResult | DownloadStream;

/**
 * One connector as the MCP server sees it. The stdio command and the hosted endpoint each build
 * these (an open connection; a stored connector of the token's user), so the server itself never
 * knows where credentials live or who the tenant is.
 */
export interface McpConnector {
  /** What its tool names start with: the type (stdio), or the type and a piece of the connector id (hosted). */
  prefix: string;
  /** Who this connector is, in the words of tool descriptions (e.g. `CRM connector "Sales" (conn_...)`). */
  title: string;
  manifest: Manifest;
  /** Whether the entities with a sync plan get a `search` tool (a synchronized copy exists). */
  searchable: boolean;
  /** Runs one action (`search` included) with checked params; failures are engine errors. */
  execute(entity: string, action: string, params: Record<string, unknown>): Promise<ActionAnswer>;
  /** Runs a sync pass of the copy now (the stdio server with a store); the hosted service syncs on its own. */
  sync?(options: { entities?: string[]; full?: boolean }): Promise<SyncState[]>;
}

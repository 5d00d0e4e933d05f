import type { FastifyInstance } from 'fastify';
import { findManifest } from '../../manifest/index.js';
import { DownloadStream } from '../../runtime/index.js';
import { searchCopy } from '../../sync/index.js';
import { bodySchema } from '../body-schemas.js';
import type { ExecuteRequestBody } from '../body-types.generated.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';
import { sendFile } from '../send-file.js';

/** Runs one action of a connector: `search` on the copy, anything else upstream (a download streams through). */
export function registerExecuteRoutes(scoped: FastifyInstance, context: HostedContext): void {
  const { store, pool, options } = context;
  scoped.post<{ Params: { id: string }; Body: ExecuteRequestBody }>(
    '/api/v1/connectors/sources/:id/execute',
    { schema: { body: bodySchema('hosted-execute-request') } },
    async (request, reply) => {
      const row = await context.owned(request, request.params.id);
      const { body } = request;
      const manifest = findManifest(row.connector_type).manifest;
      // `search` reads the synchronized copy: no upstream call, so no credentials are opened.
      if (body.action === 'search' && manifest.entities[body.entity]?.sync) {
        return searchCopy({ store, manifest, connectorId: row.id, tenant: tenantOf(request) }, body.entity, body.params ?? {});
      }
      const connection = await pool.connection(row);
      const deadlineMs = body.timeout_ms ?? options.executeDeadlineMs;
      const result = await connection.execute(body.entity, body.action, body.params, deadlineMs === undefined ? undefined : { deadlineMs });
      // The upstream took the credentials after all (the grant recovered, a rotated token arrived).
      if (row.auth_state === 'needs_reauth') await store.clearNeedsReauth(row.id);
      return result instanceof DownloadStream ? sendFile(reply, result) : result;
    },
  );
}

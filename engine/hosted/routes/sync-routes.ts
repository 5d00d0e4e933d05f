import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodySchema } from '../body-schemas.js';
import type { SyncRequestBody } from '../body-types.generated.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';

interface ById {
  Params: { id: string };
}

/** POST .../sync may come with no body at all: that is `{}` (an incremental pass where possible). */
async function emptyBodyIsEmptyObject(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/** Sync of a connector's copy: ask for a pass now, and read each entity's state. */
export function registerSyncRoutes(scoped: FastifyInstance, context: HostedContext): void {
  scoped.post<ById & { Body: SyncRequestBody }>(
    '/api/v1/connectors/sources/:id/sync',
    { preValidation: emptyBodyIsEmptyObject, schema: { body: bodySchema('hosted-sync-request') } },
    async (request, reply) => {
      const { id } = request.params;
      await context.requestSync(tenantOf(request), id, request.body.full ?? false, true);
      return reply.code(202).send(await context.syncStatus(tenantOf(request), id));
    },
  );
  scoped.get<ById>('/api/v1/connectors/sources/:id/sync', async (request) => context.syncStatus(tenantOf(request), request.params.id));
}

import type { FastifyInstance } from 'fastify';
import { DownloadStream } from '../../runtime/index.js';
import { bodySchema } from '../body-schemas.js';
import type { ExecuteRequestBody } from '../body-types.generated.js';
import { clientGone } from '../client-gone.js';
import { executeAction } from '../execute-action.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';
import { sendFile } from '../send-file.js';
import { sendJson } from '../send-json.js';

/** Runs one action of a connector: `search` on the copy, anything else upstream (a download streams through). */
export function registerExecuteRoutes(scoped: FastifyInstance, context: HostedContext): void {
  scoped.post<{ Params: { id: string }; Body: ExecuteRequestBody }>(
    '/api/v1/connectors/sources/:id/execute',
    { schema: { body: bodySchema('hosted-execute-request') } },
    async (request, reply) => {
      // The kept row comes without a promise: no await (and its turn of the queue) when there is none.
      const owned = context.owned(request, request.params.id);
      const row = owned instanceof Promise ? await owned : owned;
      const result = await executeAction(context, tenantOf(request), row, request.body, clientGone(reply));
      return result instanceof DownloadStream ? sendFile(reply, result) : sendJson(reply, result);
    },
  );
}

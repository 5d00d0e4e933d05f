import type { FastifyInstance } from 'fastify';
import { UnauthenticatedError } from '../../errors.js';
import { bodySchema } from '../body-schemas.js';
import type { TokenRequestBody } from '../body-types.generated.js';
import { connectorTypes } from '../connector-types.js';
import type { HostedContext } from '../hosted-context.js';
import { openApiDocument } from '../openapi.js';

/** Routes without a token: health, metrics, the connector types, the OpenAPI documents (all types, or one), and tokens. */
export function registerPublicRoutes(app: FastifyInstance, context: HostedContext): void {
  const { metrics, clients, tokens } = context;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  app.get('/v1/connector-types', async () => ({ data: connectorTypes() }));
  app.get('/openapi.json', async (request) => openApiDocument(`${request.protocol}://${request.host}`));
  app.get<{ Params: { type: string } }>('/v1/connector-types/:type/openapi.json', async (request) =>
    openApiDocument(`${request.protocol}://${request.host}`, request.params.type),
  );

  app.post<{ Body: TokenRequestBody }>('/v1/auth/token', { schema: { body: bodySchema('hosted-token-request') } }, async (request) => {
    const { body } = request;
    const client = await clients.authenticate(body.client_id, body.client_secret);
    if (!client) throw new UnauthenticatedError('unknown client_id or wrong client_secret');
    return tokens.issue({ clientId: client.client_id, externalUserId: body.external_user_id });
  });
}

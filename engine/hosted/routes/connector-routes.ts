import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../errors.js';
import { checkConnectorInput } from '../../runtime/index.js';
import { connectorNotFound } from '../../store/index.js';
import { bodySchema } from '../body-schemas.js';
import type { ConnectorCreateBody, ConnectorUpdateBody } from '../body-types.generated.js';
import { createTenantConnector } from '../connector-create.js';
import { connectorView } from '../connector-view.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';

interface ById {
  Params: { id: string };
}

/** POST: creates a connector once the upstream took its credentials, and starts its first pass. */
function registerCreate(scoped: FastifyInstance, context: HostedContext): void {
  scoped.post<{ Body: ConnectorCreateBody }>(
    '/v1/integrations/connectors',
    { schema: { body: bodySchema('hosted-connector-create') } },
    async (request, reply) => {
      const { body } = request;
      const tenant = tenantOf(request);
      if (body.external_user_id !== tenant.externalUserId) {
        throw new ForbiddenError('external_user_id must be the user the token was issued for', {
          details: [{ path: '/external_user_id', message: 'does not match the token' }],
        });
      }
      const row = await createTenantConnector(context, tenant, body);
      return reply.code(201).send(connectorView(row, await context.syncSummary(tenant, row.id)));
    },
  );
}

/** GET (list and one): the tenant's connectors with their sync summaries. */
function registerReads(scoped: FastifyInstance, context: HostedContext): void {
  scoped.get<{ Querystring: { connector_type?: string | string[] } }>('/v1/integrations/connectors', async (request) => {
    const type = request.query.connector_type;
    const tenant = tenantOf(request);
    const rows = await context.store.listConnectors(tenant, typeof type === 'string' ? { connector_type: type.toLowerCase() } : {});
    return { data: await Promise.all(rows.map(async (row) => connectorView(row, await context.syncSummary(tenant, row.id)))) };
  });
  scoped.get<ById>('/v1/integrations/connectors/:id', async (request) => {
    const row = await context.owned(request, request.params.id);
    return connectorView(row, await context.syncSummary(tenantOf(request), row.id));
  });
}

/** The credentials a PATCH is checked with: the new ones, or the stored ones when only config changes. */
async function credentialsToCheck(context: HostedContext, id: string, body: ConnectorUpdateBody): Promise<Record<string, unknown> | undefined> {
  if (body.credentials || !body.config) return body.credentials;
  const stored = await context.store.readCredentials(id);
  if (!stored) throw connectorNotFound();
  return JSON.parse(context.cipher.decrypt(stored.ciphertext)) as Record<string, unknown>;
}

/** PATCH: renames, or replaces config or credentials (new credentials are checked before they replace the old). */
function registerUpdate(scoped: FastifyInstance, context: HostedContext): void {
  const { store, cipher, pool } = context;
  scoped.patch<ById & { Body: ConnectorUpdateBody }>(
    '/v1/integrations/connectors/:id',
    { schema: { body: bodySchema('hosted-connector-update') } },
    async (request) => {
      const { id } = request.params;
      const { body } = request;
      const row = await context.owned(request, id);
      const credentials = await credentialsToCheck(context, id, body);
      const checked = credentials ? checkConnectorInput(row.connector_type, credentials, body.config ?? row.config) : undefined;
      // New credentials are checked before they replace the old ones, which keep working if refused.
      const replacement =
        checked && body.credentials && body.check_credentials !== false
          ? await context.checkWithUpstream(row.connector_type, body.credentials, checked.config, id)
          : body.credentials;
      const updated = await store.updateConnector(tenantOf(request), id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(checked && body.config ? { config: checked.config } : {}),
        ...(checked && replacement ? { auth_scheme: checked.scheme, credentials_ciphertext: cipher.encrypt(JSON.stringify(replacement)) } : {}),
      });
      if (!updated) throw connectorNotFound();
      pool.forget(id);
      // New credentials or settings may reach other data (another profile, private calls): read everything again.
      if (body.credentials || body.config) await context.requestSync(tenantOf(request), id, true, false);
      return connectorView(updated, await context.syncSummary(tenantOf(request), id));
    },
  );
}

/** The connector resource (SPEC.md): create, list, read, update, delete, scoped to the token's tenant. */
export function registerConnectorRoutes(scoped: FastifyInstance, context: HostedContext): void {
  registerCreate(scoped, context);
  registerReads(scoped, context);
  registerUpdate(scoped, context);
  scoped.delete<ById>('/v1/integrations/connectors/:id', async (request, reply) => {
    const { id } = request.params;
    if (!(await context.store.deleteConnector(tenantOf(request), id))) throw connectorNotFound();
    context.pool.forget(id);
    return reply.code(204).send();
  });
}

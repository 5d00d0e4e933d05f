import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MethodNotAllowedError } from '../../errors.js';
import { createMcpServer } from '../../mcp/index.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';
import { hostedMcpConnectors } from '../mcp-connectors.js';

/**
 * Answers one MCP message over streamable HTTP, statelessly: a server with the tools of the
 * token user's connectors is built for the request and closed with it. Why stateless: the scoped
 * token is checked on every request (tokens live 15 minutes), any process of the service can
 * answer, and no session outlives what the token allows.
 */
async function answerMcp(context: HostedContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const tenant = tenantOf(request);
  const rows = await context.store.listConnectors(tenant);
  const server = createMcpServer({
    connectors: hostedMcpConnectors(context, tenant, rows),
    log: (error) => request.log.error({ err: error }, 'mcp: a tool failed'),
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The transport writes the answer itself; hooks that would have added the request id do not run.
  reply.hijack();
  reply.raw.setHeader('x-request-id', request.id);
  reply.raw.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
}

/**
 * `/v1/mcp`: the MCP endpoint (streamable HTTP), behind the scoped bearer token like every
 * connector route. POST carries the messages; there are no sessions to stream to or end, so GET
 * and DELETE answer 405, as the MCP spec allows.
 */
export function registerMcpRoutes(scoped: FastifyInstance, context: HostedContext): void {
  scoped.post('/v1/mcp', (request, reply) => answerMcp(context, request, reply));
  const postOnly = async (_request: FastifyRequest, reply: FastifyReply): Promise<never> => {
    reply.header('allow', 'POST');
    throw new MethodNotAllowedError('the MCP endpoint takes POST only: this stateless server has no stream to GET and no session to DELETE');
  };
  scoped.get('/v1/mcp', postOnly);
  scoped.delete('/v1/mcp', postOnly);
}

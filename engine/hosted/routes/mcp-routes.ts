import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MethodNotAllowedError } from '../../errors.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';

/** What answering MCP needs, loaded once on the first MCP request. */
interface McpParts {
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
  createMcpServer: typeof import('../../mcp/index.js').createMcpServer;
  hostedMcpConnectors: typeof import('../mcp-connectors.js').hostedMcpConnectors;
}
let mcpParts: Promise<McpParts> | undefined;

/**
 * Loads the MCP SDK (with zod) on first use rather than with the hosted door: it is about a third of
 * a second of CPU at start-up, and `connector-engine sync`, `clients` and every process that never
 * answers MCP would pay it on each start.
 */
function loadMcpParts(): Promise<McpParts> {
  mcpParts ??= Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('../../mcp/index.js'), import('../mcp-connectors.js')]).then(
    ([sdk, mcp, connectors]) => ({
      StreamableHTTPServerTransport: sdk.StreamableHTTPServerTransport,
      createMcpServer: mcp.createMcpServer,
      hostedMcpConnectors: connectors.hostedMcpConnectors,
    }),
  );
  return mcpParts;
}

/**
 * Answers one MCP message over streamable HTTP, statelessly: a server with the tools of the
 * token user's connectors is built for the request and closed with it. Why stateless: the scoped
 * token is checked on every request (tokens live 15 minutes), any process of the service can
 * answer, and no session outlives what the token allows.
 */
async function answerMcp(context: HostedContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { StreamableHTTPServerTransport, createMcpServer, hostedMcpConnectors } = await loadMcpParts();
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

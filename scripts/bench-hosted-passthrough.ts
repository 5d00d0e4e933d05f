/**
 * The hosted benchmark's baseline: a bare fastify server whose one route makes the same upstream
 * call the service's execute makes (HubSpot contacts list, limit 10, with the connector's bearer)
 * through undici (the client the engine sends with, so the ratio measures the engine and not the
 * choice of client), and answers the upstream body as it came. No auth, no store, no mapping: what
 * serving that call over HTTP costs at the least. `GET /cpu` answers this process's
 * process.cpuUsage(), so the benchmark can charge CPU per request.
 *
 * Run by scripts/bench-hosted.ts: node dist/scripts/bench-hosted-passthrough.js <upstream base URL> <bearer token>
 * Prints one line with its URL, then serves until its stdin closes.
 */
import Fastify from 'fastify';
import { request } from 'undici';

const [baseUrl, token] = process.argv.slice(2);
if (!baseUrl || !token) throw new Error('usage: bench-hosted-passthrough <upstream base URL> <bearer token>');
const upstream = `${baseUrl}/crm/v3/objects/contacts?limit=10`;
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };

const app = Fastify({ logger: false });
app.post('/api/v1/connectors/sources/:id/execute', async (_request, reply) => {
  const answer = await request(upstream, { headers });
  return reply
    .code(answer.statusCode)
    .type('application/json; charset=utf-8')
    .send(await answer.body.text());
});
app.get('/cpu', async () => process.cpuUsage());
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void app.close().then(() => process.exit(0));
});

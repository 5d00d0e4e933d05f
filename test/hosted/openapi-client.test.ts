/**
 * Issue 14: a client generated from the OpenAPI documents works against `serve --sandbox`. The
 * README's typed client (openapi-typescript declarations of /v1/connector-types/hubspot/openapi.json,
 * openapi-fetch) is compiled strictly and run, and the service's real answers validate against the
 * documents' typed responses.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkResponse, type OpenApiDocument } from '../support/openapi-conformance.js';
import { executeSamples } from '../support/openapi-samples.js';
import { compileStrict, generatedTypes } from '../support/openapi-tooling.js';
import { call } from '../support/http-call.js';
import { createConnector, killAll, platformToken, startServe, syncStatus, waitFor, type SandboxInfo, type ServeProcess } from '../support/sync-processes.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const TYPES = ['amazon-ads', 'asana', 'gong', 'hubspot', 'shopify'];

let serve: ServeProcess;
let info: SandboxInfo;
let token: string;
const connectors: Record<string, string> = {};
const documents: Record<string, OpenApiDocument> = {};

beforeAll(async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'openapi-client-')), 'engine.db')}`;
  serve = await startServe({ ENGINE_SECRET: 'openapi-client-secret-0123456789', ENGINE_DATABASE_URL: databaseUrl, ENGINE_LOG_LEVEL: 'warn' }, ['--sandbox']);
  info = JSON.parse(serve.lines[0]!) as SandboxInfo;
  token = await platformToken(serve.url, databaseUrl);
  // Its first sync pass starts now; the other types' connectors are made when needed, so their passes do not slow this one.
  connectors.hubspot = await createConnector(serve.url, token, info, 'hubspot');
  documents.hosted = (await call(serve.url, 'GET', '/openapi.json')).body;
  for (const type of TYPES) documents[type] = (await call(serve.url, 'GET', `/v1/connector-types/${type}/openapi.json`)).body;
});
afterAll(killAll);

const EXECUTE = (id: string) => `/api/v1/connectors/sources/${id}/execute`;

/** Executes a body on a connector and checks the answer against the type's document and the hosted one. */
async function executeChecked(type: string, body: unknown): Promise<any> {
  const response = await fetch(serve.url + EXECUTE(connectors[type]!), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  const exchange = {
    method: 'POST',
    path: EXECUTE(connectors[type]!),
    response: { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? undefined }, body: answer },
  };
  expect({ body, status: response.status, problems: [...checkResponse(documents[type]!, exchange), ...checkResponse(documents.hosted!, exchange)] }).toEqual({
    body,
    status: 200,
    problems: [],
  });
  return answer;
}

function readmeBlock(lang: string, marker: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const found = [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] as string).find((b) => b.includes(marker));
  if (!found) throw new Error(`README has no ${lang} block with ${marker}`);
  return found;
}

test("the README's typed client compiles strictly and runs list, get and search through openapi-fetch", async () => {
  const base = join(root, 'test', '.tmp');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'openapi-client-'));
  const client = readmeBlock('ts', 'typed-client.ts');
  writeFileSync(join(dir, 'hubspot-api.d.ts'), await generatedTypes(documents.hubspot!));
  writeFileSync(join(dir, 'typed-client.ts'), client);
  // As the README says, the same code against the types of /openapi.json (every connector type).
  writeFileSync(join(dir, 'hosted-api.d.ts'), await generatedTypes(documents.hosted!));
  writeFileSync(join(dir, 'hosted-client.ts'), client.replace("from './hubspot-api.js'", "from './hosted-api.js'"));
  expect(compileStrict([join(dir, 'typed-client.ts'), join(dir, 'hosted-client.ts')])).toEqual([]);

  const id = connectors.hubspot!;
  await waitFor(async () => (await syncStatus(serve.url, token, id)).entities.filter((e) => e.status === 'succeeded').length === 3, {
    what: 'the first HubSpot sync',
    alive: serve,
  });
  const env = { ...process.env, API: serve.url, TOKEN: token, CONNECTOR: id };
  const { stdout } = await run(process.execPath, ['typed-client.js'], { cwd: dir, env });
  expect((await run(process.execPath, ['hosted-client.js'], { cwd: dir, env })).stdout).toBe(stdout);

  // The same requests, sent plainly: the typed client printed what the service answers.
  const list = await executeChecked('hubspot', { entity: 'contacts', action: 'list', params: { limit: 2 } });
  const one = await executeChecked('hubspot', { entity: 'contacts', action: 'get', params: { contactId: '1001' } });
  const deals = await executeChecked('hubspot', {
    entity: 'deals',
    action: 'search',
    params: {
      query: { filter: { gte: { 'properties.amount': '50000' } }, sort: [{ 'properties.amount': 'asc' }] },
      limit: 2,
      fields: ['id', 'properties.amount'],
    },
  });
  expect(list.data).toHaveLength(2);
  expect(deals.hits).toHaveLength(2);
  expect(stdout.trim().split('\n')).toEqual([
    `contacts: ${list.data.map((c: any) => c.properties.email).join(', ')} (more)`,
    `contact 1001: ${one.data.properties.email} live`,
    ...deals.hits.map((hit: any) => `deal ${hit.id} ${hit.data.properties.amount}`),
  ]);
  expect(one.data.properties.email).toBe('ada.lovelace@example.com');
});

test('every list that needs no params answers what the documents say, for every type', async () => {
  const lists = executeSamples().filter((sample) => sample.kind === 'minimal' && sample.action === 'list' && sample.body.params === undefined);
  expect(new Set(lists.map((sample) => sample.type))).toEqual(new Set(TYPES));
  for (const type of TYPES) connectors[type] ??= await createConnector(serve.url, token, info, type);
  for (const sample of lists) await executeChecked(sample.type, sample.body);
});

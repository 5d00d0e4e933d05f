import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { connect as connectSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { CancelledError, HostedConnection, type ListResult } from '../../engine/index.js';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { expectOptionsTakenOrRefused } from '../support/call-options-fuzz.js';
import { failure } from '../support/failure.js';
import { logLines } from '../support/log-lines.js';
import { waitFor } from '../support/sync-processes.js';

/**
 * Cancelling through the service: the hosted client's `signal` closes its request, and the
 * service cancels the upstream call of any execute whose caller went away (the client's signal,
 * or a socket closed by hand), instead of holding the upstream until it answers. The fake holds
 * the upstream request, so nothing here races a timer.
 */

let sandbox: Sandbox;
let service: HostedService;
let log: ReturnType<typeof logLines>;
const secret = 'ces_hosted_cancel_secret_01';
let clientId: string;
let token: string;
let connectorId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  log = logLines();
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  service = await startHostedService({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'hosted-cancel-')), 'engine.db')}`,
    port: 0,
    secret: 'hosted-cancel-secret',
    upstreams,
    logger: { level: 'info', stream: log.stream },
    sync: { background: false },
  });
  clientId = (await service.store.createClient({ name: 'cancel tests', secretHash: await hashSecret(secret) })).client_id;
  const issued = await fetch(`${service.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: secret, external_user_id: 'user-1' }),
  });
  token = ((await issued.json()) as { access_token: string }).access_token;
  const created = await fetch(`${service.url}/v1/integrations/connectors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ external_user_id: 'user-1', connector_type: 'hubspot', credentials: sandbox.upstreams.hubspot!.credentials }),
  });
  expect(created.status).toBe(201);
  connectorId = ((await created.json()) as { id: string }).id;
}, 60_000);
afterEach(() => sandbox.fakes.hubspot.faults.reset());
afterAll(async () => {
  await service?.close();
  await sandbox?.close();
});

const COMPANIES = /^\/crm\/v3\/objects\/companies/;

function hosted(): HostedConnection {
  return new HostedConnection('hubspot', { baseUrl: service.url, externalUserId: 'user-1', clientId, clientSecret: secret, connectorId });
}

describe('the hosted client signal', () => {
  test('an abort while the upstream holds the call: CANCELLED with its reason at the client, and the service cancels its upstream call', async () => {
    const fake = sandbox.fakes.hubspot;
    fake.faults.hold(COMPANIES);
    const connection = hosted();
    await connection.execute('contacts', 'list', { limit: 1 });
    const controller = new AbortController();
    const outcome = failure(connection.execute('companies', 'list', { limit: 1 }, { signal: controller.signal }));
    await waitFor(() => fake.faults.heldRequests === 1, { what: 'the upstream to hold the call', timeoutMs: 10_000 });
    const reason = new Error('the user left');
    controller.abort(reason);
    const error = await outcome;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toMatchObject({ code: 'CANCELLED', status: 499, retryable: true });
    expect(error.cause).toBe(reason);
    expect(error.message).toBe("hubspot companies list was cancelled by its caller's signal");
    // The fake still holds the request: only the service's cancel can have closed its connection.
    await waitFor(() => fake.faults.abandonedHolds === 1, { what: 'the service to cancel its upstream call', timeoutMs: 10_000 });
  });

  test('a signal aborted before the call sends nothing to the service', async () => {
    const logFrom = log.lines.length;
    const error = await failure(hosted().execute('contacts', 'list', { limit: 1 }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('CANCELLED');
    expect(log.lines.length).toBe(logFrom);
  });

  test('records(): an abort between pages ends the iteration with CANCELLED; the next page is never asked for', async () => {
    const before = sandbox.fakes.hubspot.requests.length;
    const controller = new AbortController();
    const seen: unknown[] = [];
    const connection = hosted();
    const error = await failure(
      (async () => {
        for await (const record of connection.records('contacts', 'list', { limit: 2 }, { signal: controller.signal })) {
          seen.push(record);
          if (seen.length === 2) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('CANCELLED');
    expect(seen).toHaveLength(2);
    expect(sandbox.fakes.hubspot.requests.slice(before).filter((request) => request.path.startsWith('/crm/v3/objects/contacts'))).toHaveLength(1);
  });

  test('an abort after the answer changes nothing: the listener is gone', async () => {
    const controller = new AbortController();
    const page = (await hosted().execute('contacts', 'list', { limit: 1 }, { signal: controller.signal })) as ListResult;
    expect(page.data).toHaveLength(1);
    controller.abort();
    expect(EventEmitter.getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('a caller that closes its connection', () => {
  test('the service cancels the upstream call at once instead of holding it until the upstream answers', async () => {
    const fake = sandbox.fakes.hubspot;
    fake.faults.hold(COMPANIES);
    const body = JSON.stringify({ entity: 'companies', action: 'list', params: { limit: 1 } });
    const { port } = new URL(service.url);
    const socket = connectSocket(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /api/v1/connectors/sources/${connectorId}/execute HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await waitFor(() => fake.faults.heldRequests === 1, { what: 'the upstream to hold the call', timeoutMs: 10_000 });
    socket.destroy();
    await waitFor(() => fake.faults.abandonedHolds === 1, { what: 'the service to cancel its upstream call', timeoutMs: 10_000 });
  });
});

/** A raw execute on its own socket (closed by hand), and the service's answer status once it comes. */
function rawExecute(bearer: string, connector: string): { socket: ReturnType<typeof connectSocket>; status: Promise<number> } {
  const body = JSON.stringify({ entity: 'companies', action: 'list', params: { limit: 1 } });
  const socket = connectSocket(Number(new URL(service.url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  let head = '';
  const status = new Promise<number>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const line = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (line) resolve(Number(line[1]));
    });
    socket.on('close', () => resolve(0));
  });
  socket.write(
    `POST /api/v1/connectors/sources/${connector}/execute HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bearer}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return { socket, status };
}

describe('one caller leaving cancels only its own call', () => {
  test("another tenant's call and a second call on the same connector are answered when the upstream releases them", async () => {
    const otherSecret = 'ces_hosted_cancel_secret_02';
    const other = await service.store.createClient({ name: 'cancel tests, second tenant', secretHash: await hashSecret(otherSecret) });
    const issued = await fetch(`${service.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: other.client_id, client_secret: otherSecret, external_user_id: 'user-1' }),
    });
    const otherToken = ((await issued.json()) as { access_token: string }).access_token;
    const created = await fetch(`${service.url}/v1/integrations/connectors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${otherToken}` },
      body: JSON.stringify({ external_user_id: 'user-1', connector_type: 'hubspot', credentials: sandbox.upstreams.hubspot!.credentials }),
    });
    const otherConnectorId = ((await created.json()) as { id: string }).id;
    const fake = sandbox.fakes.hubspot;
    fake.faults.hold(COMPANIES);
    const staying = rawExecute(token, connectorId);
    const sameConnector = rawExecute(token, connectorId);
    const leaving = rawExecute(otherToken, otherConnectorId);
    await waitFor(() => fake.faults.heldRequests === 3, { what: 'the upstream to hold the three calls', timeoutMs: 10_000 });
    leaving.socket.destroy();
    await waitFor(() => fake.faults.abandonedHolds === 1, { what: "the service to cancel the leaving caller's upstream call", timeoutMs: 10_000 });
    fake.faults.reset();
    expect(await Promise.all([staying.status, sameConnector.status])).toEqual([200, 200]);
    staying.socket.destroy();
    sameConnector.socket.destroy();
  });
});

describe('call options through the hosted client', () => {
  test('any options value is either taken or refused with INVALID_REQUEST naming /options, before anything is sent', async () => {
    const connection = hosted();
    await connection.execute('contacts', 'list', { limit: 1 });
    await expectOptionsTakenOrRefused(
      { names: ['deadlineMs', 'signal'], maxDeadlineMs: 300_000 },
      (options) => connection.execute('contacts', 'list', { limit: 1 }, options as never),
      () => log.lines.length,
    );
  });

  test('a misspelt option is refused, naming it and the options there are', async () => {
    const error = await failure(hosted().execute('contacts', 'list', { limit: 1 }, { deadline: 5000 } as never));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual([{ path: '/options/deadline', message: 'is not a call option (deadlineMs, signal)' }]);
  });
});

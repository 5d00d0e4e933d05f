/**
 * Issue 12 §4: an error says whose fault it is. An upstream 400 caused by the caller's params is
 * UPSTREAM_REJECTED (400) quoting the upstream's message, through the library and the hosted API;
 * only upstream 5xx and answers that break the protocol are 502 UPSTREAM_ERROR. An Asana gid that
 * is not a numeric string is refused as INVALID_PARAMS before any request.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, createManualClock, EngineError, type ListResult, type ManualClock, type RecordResult } from '../../engine/index.js';
import { startSandbox, type RecordedRequest, type Sandbox } from '../../engine/sandbox/index.js';
import { driveClock } from '../support/clock.js';
import { failure } from '../support/failure.js';
import type { HttpAnswer } from '../support/http-call.js';
import { createConnector, execute, startSyncHarness, token, type SyncHarness } from '../support/sync-hosted.js';

type Type = 'asana' | 'amazon-ads' | 'gong' | 'hubspot';

let sandbox: Sandbox;
let clock: ManualClock;
let hosted: SyncHarness;
let userToken: string;
const connectorIds: Partial<Record<Type, string>> = {};

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, records: 20 });
  clock = createManualClock();
  hosted = await startSyncHarness(`sqlite:${join(mkdtempSync(join(tmpdir(), 'blame-')), 'engine.db')}`, sandbox, { background: false }, clock);
  userToken = await token(hosted, 'blame');
  for (const type of ['asana', 'amazon-ads', 'gong', 'hubspot'] as const) connectorIds[type] = await createConnector(hosted, 'blame', type);
});
afterAll(async () => {
  await hosted?.service.close();
  await sandbox?.close();
});

/** A library connection to a fake, on the test's manual clock, with no client-side rate limit. */
function library(type: Type) {
  const info = sandbox.upstreams[type]!;
  return connect(type, {
    credentials: info.credentials,
    config: info.config,
    baseUrl: info.base_url,
    allowOrigins: info.allow_origins,
    rateLimit: false,
    clock,
  });
}

/** The same call through POST /api/v1/connectors/sources/{id}/execute. */
function overHttp(type: Type, entity: string, action: string, params: Record<string, unknown>): Promise<HttpAnswer> {
  return execute(hosted, userToken, connectorIds[type]!, { entity, action, params });
}

function requests(type: Type): RecordedRequest[] {
  return sandbox.fakes[type].requests;
}

/** The upstream's own words in the last answer of `type`'s fake, read from its request log. */
function lastAnswer(type: Type): { status: number; body: any; headers: Record<string, string | string[]> } {
  return requests(type).at(-1)!.response as { status: number; body: any; headers: Record<string, string | string[]> };
}

/** Where each upstream puts its message and request id (API-NOTES A6, B6, A.6, C.4). */
function quoted(type: Type): { message: string; request_id?: string } {
  const { body, headers } = lastAnswer(type);
  if (type === 'asana') return { message: body.errors[0].message };
  if (type === 'gong') return { message: body.errors[0], request_id: body.requestId };
  if (type === 'hubspot') return { message: body.message, request_id: body.correlationId };
  return { message: body.message, request_id: headers['x-amzn-requestid'] as string };
}

const LABELS: Record<Type, string> = { asana: 'Asana', 'amazon-ads': 'Amazon Ads', gong: 'Gong', hubspot: 'HubSpot CRM' };

/** The error body both surfaces give for an upstream 400 that quotes `upstream`. */
function rejection(type: Type, upstream: { message: string; request_id?: string }) {
  return {
    code: 'UPSTREAM_REJECTED',
    message: `${LABELS[type]} answered 400: ${upstream.message}`,
    retryable: false,
    upstream: { status: 400, ...upstream },
  };
}

/** The caller's mistakes that only the upstream can see, with the message it answers. */
const REJECTED: Array<{ type: Type; entity: string; action: string; params: Record<string, unknown>; upstream: string }> = [
  // A numeric string the schema lets through but that is no Long (the fake's "Not a Long").
  {
    type: 'asana',
    entity: 'project_tasks',
    action: 'list',
    params: { project_gid: '123456789012345678901234' },
    upstream: 'project: Not a Long: 123456789012345678901234',
  },
  {
    type: 'amazon-ads',
    entity: 'sponsored_product_campaigns',
    action: 'list',
    params: { nextToken: 'not-a-token-of-this-list' },
    upstream: 'Invalid nextToken: it was not issued for this request (same profile and filters) or has been altered',
  },
  { type: 'gong', entity: 'calls', action: 'list', params: { cursor: 'not-a-gong-cursor' }, upstream: 'The cursor is not valid' },
  {
    type: 'hubspot',
    entity: 'contacts',
    action: 'api_search',
    params: { after: '9995', limit: 10 },
    upstream: 'The search endpoints are limited to 10000 total results for any given query; after (9995) + limit (10) exceeds it.',
  },
];

describe('an upstream 400 caused by the params is UPSTREAM_REJECTED, quoting the upstream', () => {
  test.each(REJECTED)('$type $entity $action through the library: execute and records()', async ({ type, entity, action, params, upstream }) => {
    const connection = library(type);
    const error = await failure(connection.execute(entity, action, params));
    const said = quoted(type);
    expect(lastAnswer(type).status).toBe(400);
    expect(said.message).toBe(upstream);
    expect(error.status).toBe(400);
    expect(error.toJSON().error).toEqual(rejection(type, said));
    // records() pages through the same request: the first page's 400 is the caller's too.
    const paged = await failure(
      (async () => {
        for await (const record of connection.records(entity, action, params)) expect(record).toBeUndefined();
      })(),
    );
    expect(paged.toJSON().error).toEqual(rejection(type, quoted(type)));
    expect(connection.stats.attempts).toBe(2);
  });

  test.each(REJECTED)('$type $entity $action through POST .../execute', async ({ type, entity, action, params, upstream }) => {
    const answer = await overHttp(type, entity, action, params);
    const said = quoted(type);
    expect(said.message).toBe(upstream);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ ...rejection(type, said), request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  test("a page token that expires halfway through records() is the caller's 400 too (Asana offsets expire, API-NOTES B2)", async () => {
    const connection = library('asana');
    const workspaces = (await connection.execute('workspaces', 'list', { limit: 1 })) as ListResult;
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const workspace of connection.records('workspaces', 'list', { limit: 1 })) {
          seen.push(workspace.gid as string);
          sandbox.fakes.asana.clock.advance(60 * 60 * 1000);
        }
      })(),
    );
    expect(seen).toEqual([workspaces.data[0]!.gid]);
    expect(quoted('asana').message).toBe('offset: Your pagination token has expired.');
    expect(error.toJSON().error).toEqual(rejection('asana', quoted('asana')));
  });
});

describe('an Asana gid that is not a numeric string is refused before any request', () => {
  const CASES: Array<{ entity: string; action: string; params: Record<string, unknown>; path: string }> = [
    { entity: 'tasks', action: 'get', params: { task_gid: 'NaN' }, path: '/task_gid' },
    { entity: 'project_tasks', action: 'list', params: { project_gid: 'NaN' }, path: '/project_gid' },
    { entity: 'tasks', action: 'list', params: { section: 'NaN' }, path: '/section' },
    { entity: 'attachments', action: 'list', params: { parent: 'undefined' }, path: '/parent' },
    { entity: 'users', action: 'list', params: { workspace: '12 34' }, path: '/workspace' },
    { entity: 'user_teams', action: 'list', params: { user_gid: 'NaN', organization: '1' }, path: '/user_gid' },
  ];

  test.each(CASES)('$entity $action $params: INVALID_PARAMS naming $path, through the library and over HTTP', async ({ entity, action, params, path }) => {
    const pattern = path === '/user_gid' ? '^([0-9]+|me|[^@\\s]+@[^@\\s]+)$' : '^[0-9]+$';
    const details = [{ path, message: `must match pattern "${pattern}"` }];
    const before = requests('asana').length;
    const error = await failure(library('asana').execute(entity, action, params));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.status).toBe(400);
    expect(error.details).toEqual(details);
    const answer = await overHttp('asana', entity, action, params);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'INVALID_PARAMS', details });
    expect(requests('asana').length).toBe(before);
  });

  test('users may still be named by gid, me or email', async () => {
    const connection = library('asana');
    const user = async (userGid: string) => ((await connection.execute('users', 'get', { user_gid: userGid })) as RecordResult).data;
    const me = await user('me');
    const byEmail = await user(me.email as string);
    const byGid = await user(me.gid as string);
    expect([byEmail.gid, byGid.gid]).toEqual([me.gid, me.gid]);
  });
});

describe('only upstream failures are 502 UPSTREAM_ERROR', () => {
  const SERVER_ERROR = { code: 'UPSTREAM_ERROR', message: 'Asana answered 500: Server Error', retryable: true };

  test('a 500 that outlasts the four retries, through the library', async () => {
    const fake = sandbox.fakes.asana;
    fake.faults.failNext(5, 500);
    const connection = library('asana');
    const outcome = await driveClock(clock, connection.execute('workspaces', 'list', {}));
    fake.faults.reset();
    const error = outcome.error as EngineError;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.status).toBe(502);
    expect(error.toJSON().error).toEqual({ ...SERVER_ERROR, upstream: { status: 500, message: 'Server Error' } });
    expect(connection.stats.attempts).toBe(5);
    expect(outcome.sleeps).toHaveLength(4);
  });

  test('a 500 that outlasts the four retries, over HTTP', async () => {
    const fake = sandbox.fakes.asana;
    const before = requests('asana').length;
    fake.faults.failNext(5, 500);
    const outcome = await driveClock(clock, overHttp('asana', 'workspaces', 'list', {}));
    fake.faults.reset();
    expect(requests('asana').length - before).toBe(5);
    expect(outcome.value!.status).toBe(502);
    expect(outcome.value!.body.error).toEqual({
      ...SERVER_ERROR,
      upstream: { status: 500, message: 'Server Error' },
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  const NOT_JSON = { code: 'UPSTREAM_ERROR', message: 'Gong answered 200 with a body that is not JSON (text/plain;charset=utf-8)', retryable: false };

  test('a 200 whose body is not JSON, through the library', async () => {
    sandbox.fakes.gong.faults.failNext(1, 200, '<html>down for maintenance</html>');
    const error = await failure(library('gong').execute('users', 'list', {}));
    expect(error.status).toBe(502);
    expect(error.toJSON().error).toEqual(NOT_JSON);
  });

  test('a 200 whose body is not JSON, over HTTP', async () => {
    sandbox.fakes.gong.faults.failNext(1, 200, '<html>down for maintenance</html>');
    const answer = await overHttp('gong', 'users', 'list', {});
    expect(answer.status).toBe(502);
    expect(answer.body.error).toEqual({ ...NOT_JSON, request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});

test('the OpenAPI document of execute says which statuses blame the caller and which the upstream', async () => {
  const doc = (await (await fetch(`${hosted.url}/openapi.json`)).json()) as any;
  const responses = doc.paths['/api/v1/connectors/sources/{id}/execute'].post.responses;
  expect(responses['400'].description).toContain(
    'UPSTREAM_REJECTED when the upstream refused the params (its 400, 416 or 422; error.upstream quotes its message)',
  );
  expect(responses['502'].description).toBe(
    'UPSTREAM_ERROR (an upstream 5xx after retries, or an answer that breaks its protocol, such as a body that is not JSON) or PAGINATION_LOOP',
  );
});

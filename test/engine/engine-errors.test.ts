import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EngineError, connect, type ListResult } from '../../engine/index.js';
import { createManualClock, type ManualClock } from '../../engine/clock/index.js';
import { findManifest } from '../../engine/manifest/index.js';
import type { Faults } from '../../engine/sandbox/index.js';
import { driveClock } from '../support/clock.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { failure } from '../support/failure.js';

let hub: HubspotHarness;

beforeAll(async () => {
  hub = await startHubspot();
});
afterAll(() => hub.close());

afterAll(() => hub.sandbox.fakes.hubspot.faults.reset());

function hubspot(extra: { timeoutMs?: number; clock?: ManualClock } = {}) {
  return connect('hubspot', { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl, ...extra });
}

describe('resolving and params', () => {
  test('unknown connector type names the known ones', () => {
    expect(() => connect('salesforce', { credentials: {} })).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_CONNECTOR_TYPE', message: expect.stringContaining('hubspot') }),
    );
  });

  test('connector types match case-insensitively', async () => {
    const result = (await connect('HubSpot', { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl }).execute('contacts', 'list', {
      limit: 1,
    })) as ListResult;
    expect(result.data).toHaveLength(1);
  });

  test('unknown entity and unsupported action list the valid ones', async () => {
    // @ts-expect-error TypeScript refuses it too; this checks what JavaScript callers get.
    const entity = await failure(hubspot().execute('leads', 'list'));
    expect(entity.code).toBe('UNKNOWN_ENTITY');
    expect(entity.message).toContain('contacts, companies, deals, tickets, schemas, objects');
    // @ts-expect-error TypeScript refuses it too; this checks what JavaScript callers get.
    const action = await failure(hubspot().execute('schemas', 'api_search'));
    expect(action.code).toBe('UNSUPPORTED_ACTION');
    expect(action.details).toEqual([{ path: '/action', message: 'must be one of list, get' }]);
  });

  test('every bad param is named at once, before any request', async () => {
    const before = hub.sandbox.fakes.hubspot.requests.length;
    // @ts-expect-error TypeScript refuses it too; this checks what JavaScript callers get.
    const error = await failure(hubspot().execute('contacts', 'list', { limit: 500, archived: 'yes', colour: 'blue', after: '' }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.status).toBe(400);
    expect(error.details).toEqual(
      expect.arrayContaining([
        { path: '/limit', message: 'must be <= 100' },
        { path: '/archived', message: 'must be boolean' },
        { path: '/colour', message: expect.stringContaining('is not a param here; valid params: limit, after') },
        { path: '/after', message: 'must NOT have fewer than 1 characters' },
      ]),
    );
    expect(error.details).toHaveLength(4);
    expect(hub.sandbox.fakes.hubspot.requests.length).toBe(before);
  });

  test('a missing required param and a cross-field rule', async () => {
    // @ts-expect-error TypeScript refuses it too; this checks what JavaScript callers get.
    const missing = await failure(hubspot().execute('objects', 'get', { objectType: '0-1' }));
    expect(missing.details).toEqual([{ path: '/objectId', message: 'is required' }]);
    const rule = await failure(hubspot().execute('contacts', 'list', { propertiesWithHistory: 'email', limit: 80 }));
    expect(rule.details).toEqual([{ path: '/limit', message: 'rule history-page-size: with propertiesWithHistory, limit can be at most 50' }]);
    const notObject = await failure(hubspot().execute('contacts', 'list', [] as unknown as Record<string, unknown>));
    expect(notObject.details).toEqual([{ path: '/', message: 'must be an object' }]);
  });

  test('config and credentials are checked at connect', () => {
    expect(() => connect('hubspot', { credentials: { access_token: 'x' }, config: { region: 'EU' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', details: [{ path: '/config/region', message: 'must NOT have additional properties' }] }),
    );
    let error: EngineError | undefined;
    try {
      connect('hubspot', { credentials: { client_id: 'a', client_secret: 'b' } });
    } catch (e) {
      error = e as EngineError;
    }
    expect(error?.code).toBe('INVALID_CREDENTIALS');
    expect(error?.message).toContain('private_app {access_token}; oauth {client_id, client_secret, refresh_token}');
    expect(error?.details).toEqual(
      expect.arrayContaining([{ path: '/credentials/refresh_token', message: "oauth: must have required property 'refresh_token'" }]),
    );
  });
});

describe('path params stay on the upstream host and path', () => {
  const hostile = [
    '../../oauth/v1/token',
    '?archived=true',
    '#fragment',
    '@evil.example',
    'a/b',
    '%2e%2e',
    '%2F..%2F',
    '..%2f..%2fschemas',
    'http://evil.example/',
  ];

  test.each(hostile)('contactId %j is one encoded segment', async (value) => {
    const fake = hub.sandbox.fakes.hubspot;
    const error = await failure(hubspot().execute('contacts', 'get', { contactId: value }));
    expect(error.code).toBe('NOT_FOUND');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`/crm/v3/objects/contacts/${encodeURIComponent(value)}`);
    expect(sent.query).toEqual({});
  });

  test.each(['.', '..'])('contactId %j is refused before any request', async (value) => {
    const before = hub.sandbox.fakes.hubspot.requests.length;
    const error = await failure(hubspot().execute('objects', 'get', { objectType: value, objectId: '1' }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details).toEqual([{ path: '/objectType', message: 'may not be "." or ".." (it would change the request path)' }]);
    expect(hub.sandbox.fakes.hubspot.requests.length).toBe(before);
  });
});

describe('retries, rate limits and upstream failures', () => {
  test('Retry-After in seconds is waited exactly, then the call succeeds', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 1 });
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const outcome = await driveClock(clock, connection.execute('contacts', 'list', { limit: 1 }));
    expect((outcome.value as ListResult).data).toHaveLength(1);
    expect(outcome.sleeps).toEqual([1000]);
    expect(connection.stats).toMatchObject({ requests: 1, attempts: 2, retries: 1 });
  });

  test('Retry-After as an HTTP-date is waited until that date', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(1, { retryAfter: 'http-date', seconds: 2 });
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const outcome = await driveClock(clock, connection.execute('contacts', 'list', { limit: 1 }));
    expect(outcome.error).toBeUndefined();
    // An HTTP-date has one-second resolution: "2 s from now" is 1 to 2 s away, less the few
    // milliseconds between the fake writing the date and the client reading it.
    expect(outcome.sleeps).toHaveLength(1);
    expect(outcome.sleeps[0]).toBeGreaterThan(900);
    expect(outcome.sleeps[0]).toBeLessThanOrEqual(2000);
    expect(connection.stats.retries).toBe(1);
  });

  test('a Retry-After over the cap fails at once with RATE_LIMITED and retry_after_ms', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 120 });
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const error = await failure(connection.execute('contacts', 'list', { limit: 1 }));
    // Nothing was slept: the only wait scheduled is the call's deadline.
    expect(clock.history.filter((wait) => wait.kind === 'sleep')).toEqual([]);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.toJSON().error).toMatchObject({ code: 'RATE_LIMITED', retryable: true, retry_after_ms: 120_000 });
    expect(connection.stats.attempts).toBe(1);
    fake.faults.reset();
  });

  test('a 429 storm without Retry-After is ridden out with backoff', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(3, { retryAfter: 'none' });
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const outcome = await driveClock(clock, connection.execute('contacts', 'list', { limit: 2 }));
    expect((outcome.value as ListResult).data).toHaveLength(2);
    expect(connection.stats).toMatchObject({ attempts: 4, retries: 3 });
    // Full jitter: retry n waits between 1 ms and min(max_delay_ms, base_delay_ms * 2^(n-1)).
    const retry = findManifest('hubspot').manifest.http.retry;
    expect(outcome.sleeps).toHaveLength(3);
    outcome.sleeps.forEach((delay, n) => {
      expect(delay).toBeGreaterThanOrEqual(1);
      expect(delay).toBeLessThanOrEqual(Math.min(retry.max_delay_ms, retry.base_delay_ms * 2 ** n));
    });
  });

  test.each([
    ['a 502 burst', (f: Faults) => f.failNext(2, 502), 2],
    ['a connection reset', (f: Faults) => f.resetNext(1), 1],
    ['a truncated body', (f: Faults) => f.truncateNext(1), 1],
  ] as const)('%s is retried until the call succeeds', async (_name, arm, retries) => {
    arm(hub.sandbox.fakes.hubspot.faults);
    const connection = hubspot();
    const result = (await connection.execute('contacts', 'list', { limit: 3 })) as ListResult;
    expect(result.data).toHaveLength(3);
    expect(connection.stats.retries).toBe(retries);
  });

  test('read-only POST searches are retried', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.failNext(1, 503);
    const connection = hubspot();
    await connection.execute('deals', 'api_search', { limit: 1 });
    expect(connection.stats.retries).toBe(1);
  });

  test('a 5xx that outlasts the retries is UPSTREAM_ERROR with the upstream message and id', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.failNext(10, 500);
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const error = await failure(driveClock(clock, connection.execute('contacts', 'list')).then((outcome) => Promise.reject(outcome.error)));
    fake.faults.reset();
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.retryable).toBe(true);
    expect(error.upstream?.status).toBe(500);
    expect(connection.stats.attempts).toBe(5);
  });

  test('a slow upstream is UPSTREAM_TIMEOUT', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.latency(400);
    const clock = createManualClock();
    // Each attempt times out in real time (a socket timeout); the back-off between them is on the clock.
    const error = await failure(
      driveClock(clock, hubspot({ timeoutMs: 100, clock }).execute('contacts', 'list', { limit: 1 })).then((outcome) => Promise.reject(outcome.error)),
    );
    fake.faults.latency(0);
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.status).toBe(504);
    // The abandoned attempts are still sleeping in the fake; let them finish before the next test
    // arms faults, or one of them could consume a fault meant for that test.
    await new Promise((resolve) => setTimeout(resolve, 450));
  });

  test('a 403 is FORBIDDEN and a rejected token is REAUTH_REQUIRED, neither retried and no secret quoted', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.failNext(1, 403);
    const connection = hubspot();
    const forbidden = await failure(connection.execute('contacts', 'list'));
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(connection.stats.attempts).toBe(1);
    const secret = 'pat-na1-not-issued-by-the-fake-0000';
    const bad = connect('hubspot', { credentials: { access_token: secret }, baseUrl: hub.baseUrl });
    const rejected = await failure(bad.execute('contacts', 'list'));
    expect(rejected.code).toBe('REAUTH_REQUIRED');
    expect(rejected.upstream?.status).toBe(401);
    expect(JSON.stringify(rejected.toJSON())).not.toContain(secret);
    expect(rejected.message).not.toContain(secret);
  });

  test('the client-side rate limit keeps every rolling window under its budget', async () => {
    const clock = createManualClock();
    const sent: number[] = [];
    const connection = connect('hubspot', {
      credentials: { access_token: hub.privateToken },
      baseUrl: hub.baseUrl,
      rateLimit: { requests: 3, perMs: 500 },
      clock,
      onUpstreamRequest: () => sent.push(clock.now()),
    });
    const calls = Promise.all(Array.from({ length: 9 }, () => connection.execute('contacts', 'list', { limit: 1 })));
    const outcome = await driveClock(clock, calls, { quiet: () => connection.stats.inFlight === 0 });
    expect(outcome.error).toBeUndefined();
    expect(connection.stats.attempts).toBe(9);
    // Time stands still while answers come back, so each slot frees exactly a window after its
    // attempt ended: three requests at 0, three at 500 ms, three at 1,000 ms.
    const start = sent[0]!;
    expect(sent.map((at) => at - start)).toEqual([0, 0, 0, 500, 500, 500, 1000, 1000, 1000]);
    expect(outcome.sleeps).toEqual([500, 500]);
  });
});

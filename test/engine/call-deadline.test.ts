import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { connect, createManualClock, DEFAULT_DEADLINE_MS, type ListResult, type ManualClock } from '../../engine/index.js';
import { startAsana, type AsanaHarness } from '../support/asana.js';
import { driveClock } from '../support/clock.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { waitFor } from '../support/sync-processes.js';
import { failure } from '../support/failure.js';

/**
 * Issue 11 part 3: one deadline per call bounds every retry, Retry-After, rate-limit wait and
 * attempt. Asserted on the waits the error reports (scheduled delays) rather than on wall time;
 * real waits stay short (small deadlines), except one Retry-After of a second, the unit upstreams use.
 */

let hub: HubspotHarness;
let asana: AsanaHarness;

beforeAll(async () => {
  [hub, asana] = await Promise.all([startHubspot(), startAsana()]);
});
afterAll(async () => {
  await hub?.close();
  await asana?.close();
});
afterEach(() => hub.sandbox.fakes.hubspot.faults.reset());

function hubspot(extra: { deadlineMs?: number; rateLimit?: { requests: number; perMs: number }; clock?: ManualClock } = {}) {
  return connect('hubspot', { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl, ...extra });
}

/** Waits until the fake has logged `count` more exchanges than `before` (an abandoned attempt finishing). */
async function fakeLogged(before: number, count: number): Promise<void> {
  await waitFor(() => hub.sandbox.fakes.hubspot.requests.length >= before + count, { what: 'the fake to finish the abandoned attempt', timeoutMs: 10_000 });
}

describe('the deadline of one call', () => {
  test('a 429 storm with Retry-After ends as UPSTREAM_TIMEOUT when the next Retry-After would pass the deadline, naming the waits', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(10, { retryAfter: 'seconds', seconds: 1 });
    const before = fake.requests.length;
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const outcome = await driveClock(clock, connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 1500 }));
    expect(outcome.sleeps).toEqual([1000]);
    const error = await failure(Promise.reject(outcome.error));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.status).toBe(504);
    expect(error.retryable).toBe(true);
    // Attempt 1 answered 429 with Retry-After: 1; that second was waited; attempt 2 answered the
    // same, and a second more would end after 1500 ms: the call stopped at once.
    expect(error.deadline).toMatchObject({
      deadline_ms: 1500,
      waiting_for: 'retry_after',
      needed_ms: 1000,
      retry_after_ms: 1000,
      backoff_ms: 0,
      attempts: 2,
      elapsed_ms: 1000,
    });
    expect(error.retryAfterMs).toBe(1000);
    expect(error.upstream).toMatchObject({ status: 429 });
    expect(error.message).toContain('1500 ms deadline');
    expect(error.message).toContain("waiting 1000 ms more on the upstream's Retry-After would pass it");
    expect(error.toJSON().error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', retry_after_ms: 1000, deadline: { waiting_for: 'retry_after', attempts: 2 } });
    expect(fake.requests.length - before).toBe(2);
    expect(connection.stats).toMatchObject({ attempts: 2, retries: 1 });
  });

  test('a Retry-After longer than the time left fails at once, without sleeping', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 5 });
    const error = await failure(hubspot().execute('contacts', 'list', { limit: 1 }, { deadlineMs: 2000 }));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.deadline).toMatchObject({ deadline_ms: 2000, waiting_for: 'retry_after', needed_ms: 5000, retry_after_ms: 0, attempts: 1 });
    // retry_after_ms 0: no time was spent waiting on the Retry-After.
    expect(error.retryAfterMs).toBe(5000);
  });

  test('an attempt still running at the deadline is abandoned there', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.latency(700);
    const before = fake.requests.length;
    const error = await failure(hubspot().execute('contacts', 'list', { limit: 1 }, { deadlineMs: 200 }));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.deadline).toMatchObject({ deadline_ms: 200, waiting_for: 'attempt', attempts: 1, retry_after_ms: 0, backoff_ms: 0 });
    expect(error.deadline!.elapsed_ms).toBeGreaterThanOrEqual(200);
    // Abandoned before the fake answered: its 700 ms latency has not run out, so it has logged nothing yet.
    expect(fake.requests.length).toBe(before);
    // The abandoned attempt is still sleeping in the fake; let it finish before the next test arms faults.
    await fakeLogged(before, 1);
  });

  test('an attempt still running at the deadline is aborted: its connection to the upstream closes', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    // An upstream that never answers: only an aborted attempt ever closes its connection (undici
    // keeps waiting for the headers for minutes otherwise). The socket's close is watched, not the
    // request's: on a loaded machine the deadline can pass before the request is parsed.
    const server = createServer(() => undefined);
    server.on('connection', (socket) => socket.on('close', closed));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const connection = connect('hubspot', { credentials: { access_token: 'silent-upstream-token' }, baseUrl: `http://127.0.0.1:${port}` });
      // 1 s: long enough for the attempt to connect on a loaded machine, so there is a connection to close.
      const error = await failure(connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 1000 }));
      expect(error.deadline).toMatchObject({ deadline_ms: 1000, waiting_for: 'attempt', attempts: 1 });
      await connectionClosed;
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('calls in flight together each end at their own deadline, whatever order they started in', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const clock = createManualClock();
      const connection = connect('hubspot', { credentials: { access_token: 'silent-upstream-token' }, baseUrl: `http://127.0.0.1:${port}`, clock });
      const ended: number[] = [];
      // Started longest first: each later one ends before the ones started before it.
      const calls = [5000, 3000, 1000].map((deadlineMs) =>
        failure(connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs })).then((error) => {
          ended.push(error.deadline!.deadline_ms);
          return error;
        }),
      );
      await waitFor(() => connection.stats.inFlight === 3, { what: 'the three attempts to be sent', timeoutMs: 10_000 });
      await clock.advance(1000);
      await waitFor(() => ended.length === 1, { what: 'the 1000 ms call to end', timeoutMs: 10_000 });
      await clock.advance(1999);
      expect(ended).toEqual([1000]);
      await clock.advance(1);
      await waitFor(() => ended.length === 2, { what: 'the 3000 ms call to end', timeoutMs: 10_000 });
      await clock.advance(2000);
      const errors = await Promise.all(calls);
      expect(ended).toEqual([1000, 3000, 5000]);
      for (const error of errors) expect(error.deadline).toMatchObject({ waiting_for: 'attempt', attempts: 1, elapsed_ms: error.deadline!.deadline_ms });
      expect(clock.pending()).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('a rate-limit wait that would end after the deadline fails at once, naming the rate limiter', async () => {
    const connection = hubspot({ rateLimit: { requests: 1, perMs: 60_000 } });
    await connection.execute('contacts', 'list', { limit: 1 });
    const error = await failure(connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 5000 }));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    expect(error.deadline).toMatchObject({ deadline_ms: 5000, waiting_for: 'rate_limiter', attempts: 0, rate_limiter_ms: 0 });
    // The one slot was used when the first call's answer came in: it frees a minute after that.
    expect(error.deadline!.needed_ms).toBeGreaterThan(50_000);
    expect(error.deadline!.needed_ms).toBeLessThanOrEqual(60_000);
    expect(error.message).toContain('on the rate limiter would pass it');
    expect(connection.stats.attempts).toBe(1);
  });

  test('a call queued behind others gives up at its deadline, reporting the time spent on the rate limiter', async () => {
    const clock = createManualClock();
    const connection = hubspot({ rateLimit: { requests: 1, perMs: 400 }, clock });
    await connection.execute('contacts', 'list', { limit: 1 });
    // The second call waits for the slot (400 ms on the clock); the third, queued behind it, cannot
    // be served before that slot frees, so it fails at once; the second succeeds.
    const second = driveClock(clock, connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 5000 }));
    const third = await failure(connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 150 }));
    expect(third.deadline).toMatchObject({ deadline_ms: 150, waiting_for: 'rate_limiter', attempts: 0, needed_ms: 400, elapsed_ms: 0 });
    const outcome = await second;
    expect((outcome.value as ListResult).data).toHaveLength(1);
    expect(outcome.sleeps).toEqual([400]);
  });
});

describe('where the deadline is set', () => {
  test('the default is 30 s, connect({deadlineMs}) replaces it, and a call option wins over both', async () => {
    expect(DEFAULT_DEADLINE_MS).toBe(30_000);
    // A rate-limit wait of a minute cannot fit any of these deadlines: each fails at once and says which deadline it had.
    const plain = hubspot({ rateLimit: { requests: 1, perMs: 60_000 } });
    await plain.execute('contacts', 'list', { limit: 1 });
    expect((await failure(plain.execute('contacts', 'list', { limit: 1 }))).deadline?.deadline_ms).toBe(30_000);
    const set = hubspot({ rateLimit: { requests: 1, perMs: 60_000 }, deadlineMs: 1234 });
    await set.execute('contacts', 'list', { limit: 1 });
    expect((await failure(set.execute('contacts', 'list', { limit: 1 }))).deadline?.deadline_ms).toBe(1234);
    expect((await failure(set.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 4321 }))).deadline?.deadline_ms).toBe(4321);

    // On a slow upstream, the connect-level deadline ends a call that a longer per-call deadline lets finish.
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.latency(300);
    const before = fake.requests.length;
    const short = hubspot({ deadlineMs: 100 });
    expect((await failure(short.execute('contacts', 'list', { limit: 1 }))).deadline).toMatchObject({ deadline_ms: 100, waiting_for: 'attempt' });
    const page = (await short.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 5000 })) as ListResult;
    expect(page.data).toHaveLength(1);
    await fakeLogged(before, 2);
  });

  test('bad deadlines are refused before any request', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const before = fake.requests.length;
    const error = await failure(hubspot().execute('contacts', 'list', { limit: 1 }, { deadlineMs: 0 }));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual([{ path: '/options/deadlineMs', message: expect.stringContaining('whole number of milliseconds') }]);
    const traffic = await failure(hubspot().execute('contacts', 'list', { limit: 1 }, { traffic: 'bulk' as 'sync' }));
    expect(traffic.details).toEqual([{ path: '/options/traffic', message: 'must be "interactive" or "sync"' }]);
    expect(() => hubspot({ deadlineMs: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', details: [{ path: '/deadlineMs', message: expect.any(String) }] }),
    );
    expect(fake.requests.length).toBe(before);
  });

  test('records(): the deadline applies to each page request, not to the whole iteration', async () => {
    // One request per 150 ms: five pages take 600 ms on the clock, longer than the 400 ms deadline,
    // while no single page waits longer than 150 ms.
    const clock = createManualClock();
    const connection = hubspot({ rateLimit: { requests: 1, perMs: 150 }, clock });
    const started = clock.now();
    const ids: unknown[] = [];
    const read = async () => {
      for await (const record of connection.records('contacts', 'list', { limit: 1 }, { deadlineMs: 400 })) {
        ids.push(record.id);
        if (ids.length === 5) break;
      }
    };
    const outcome = await driveClock(clock, read(), { quiet: () => connection.stats.inFlight === 0 });
    expect(outcome.error).toBeUndefined();
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect(outcome.sleeps).toEqual([150, 150, 150, 150]);
    expect(clock.now() - started).toBe(600);
  });
});

describe('downloads', () => {
  function asanaConnection(clock?: ManualClock) {
    const info = asana.sandbox.upstreams.asana!;
    return connect('asana', { credentials: { token: asana.token }, baseUrl: info.base_url, allowOrigins: info.allow_origins, ...(clock ? { clock } : {}) });
  }

  test('the deadline bounds reaching the first byte, not reading the stream', async () => {
    const gid = asana.sandbox.fakes.asana.anchors.attachments.asana;
    const clock = createManualClock();
    const file = await asanaConnection(clock).execute('attachments', 'download', { attachment_gid: gid }, { deadlineMs: 1000 });
    let bytes = 0;
    let first = true;
    for await (const chunk of file) {
      bytes += chunk.length;
      // The consumer is slow: the stream outlives the deadline of the call that opened it.
      if (first) await clock.advance(1200);
      first = false;
    }
    expect(bytes).toBe(file.record.size);
    // The deadline was scheduled, and cancelled once the first byte was in: it never fired.
    expect(clock.history.filter((wait) => wait.kind === 'timer').map((wait) => wait.delayMs)).toContain(1000);
    expect(clock.pending()).toEqual([]);
  });

  test('a file whose record does not arrive in time is UPSTREAM_TIMEOUT', async () => {
    const fake = asana.sandbox.fakes.asana;
    fake.faults.latency(600);
    const before = fake.requests.length;
    try {
      const gid = fake.anchors.attachments.asana;
      const error = await failure(asanaConnection().execute('attachments', 'download', { attachment_gid: gid }, { deadlineMs: 150 }));
      expect(error.code).toBe('UPSTREAM_TIMEOUT');
      expect(error.deadline).toMatchObject({ deadline_ms: 150, waiting_for: 'attempt' });
    } finally {
      fake.faults.reset();
    }
    await waitFor(() => fake.requests.length > before, { what: 'the abandoned record read', timeoutMs: 10_000 });
  });
});

import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { CancelledError, connect, createManualClock, type ListResult } from '../../engine/index.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';
import { waitFor } from '../support/sync-processes.js';
import { expectOptionsTakenOrRefused } from '../support/call-options-fuzz.js';
import { failure } from '../support/failure.js';

/**
 * A call's `signal` option: aborting it ends every wait and the attempt in flight at once, and the
 * call fails with CANCELLED. Waits are read from a manual clock; nothing sleeps for real.
 */

let hub: HubspotHarness;

beforeAll(async () => {
  hub = await startHubspot();
});
afterAll(async () => {
  await hub?.close();
});
afterEach(() => hub.sandbox.fakes.hubspot.faults.reset());

const hubspot = (extra: Record<string, unknown> = {}) =>
  connect('hubspot', { credentials: { access_token: hub.privateToken }, baseUrl: hub.baseUrl, ...extra });

/** An upstream that never answers, and a promise of its first connection's close. */
async function silentUpstream(): Promise<{ baseUrl: string; closed: Promise<void>; stop: () => void }> {
  let closed!: () => void;
  const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer(() => undefined);
  server.on('connection', (socket) => socket.on('close', closed));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    closed: connectionClosed,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('cancelling a call through its signal', () => {
  test('an attempt in flight is aborted: CANCELLED with the reason as its cause, and the connection to the upstream closes', async () => {
    const upstream = await silentUpstream();
    try {
      const connection = connect('hubspot', { credentials: { access_token: 'silent-upstream-token' }, baseUrl: upstream.baseUrl });
      const controller = new AbortController();
      const outcome = failure(connection.execute('contacts', 'list', { limit: 1 }, { signal: controller.signal, deadlineMs: 600_000 }));
      await waitFor(() => connection.stats.inFlight === 1, { what: 'the attempt to be sent', timeoutMs: 10_000 });
      const reason = new Error('the user left');
      controller.abort(reason);
      const error = await outcome;
      expect(error).toBeInstanceOf(CancelledError);
      expect(error).toMatchObject({ code: 'CANCELLED', status: 499, retryable: true });
      expect(error.cause).toBe(reason);
      expect(error.message).toBe("hubspot contacts list was cancelled by its caller's signal");
      expect(connection.stats.inFlight).toBe(0);
      await upstream.closed;
    } finally {
      upstream.stop();
    }
  });

  test('a signal aborted before the call sends nothing', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const before = fake.requests.length;
    const connection = hubspot();
    const error = await failure(connection.execute('contacts', 'list', { limit: 1 }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('CANCELLED');
    expect(connection.stats.attempts).toBe(0);
    expect(fake.requests.length).toBe(before);
  });

  test("a wait on the upstream's Retry-After ends at the abort, with no second attempt and no wait left on the clock", async () => {
    const fake = hub.sandbox.fakes.hubspot;
    fake.faults.rateLimitNext(1, { retryAfter: 'seconds', seconds: 10 });
    const before = fake.requests.length;
    const clock = createManualClock();
    const connection = hubspot({ clock });
    const controller = new AbortController();
    const outcome = failure(connection.execute('contacts', 'list', { limit: 1 }, { signal: controller.signal }));
    const wait = await clock.nextWait((w) => w.kind === 'sleep');
    expect(wait.delayMs).toBe(10_000);
    controller.abort();
    const error = await outcome;
    expect(error.code).toBe('CANCELLED');
    expect(error.cause).toBeInstanceOf(DOMException);
    expect(connection.stats).toMatchObject({ attempts: 1, retries: 1, inFlight: 0 });
    expect(fake.requests.length - before).toBe(1);
    expect(clock.pending()).toEqual([]);
  });

  test('a call queued on the rate limiter leaves the queue at the abort; the call behind it takes its place', async () => {
    const clock = createManualClock();
    const connection = hubspot({ clock, rateLimit: { requests: 1, perMs: 60_000 } });
    await connection.execute('contacts', 'list', { limit: 1 });
    const controller = new AbortController();
    const cancelled = failure(connection.execute('contacts', 'list', { limit: 1 }, { signal: controller.signal, deadlineMs: 600_000 }));
    const behind = connection.execute('contacts', 'list', { limit: 1 }, { deadlineMs: 600_000 });
    await clock.nextWait((w) => w.kind === 'sleep' && w.delayMs > 50_000 && w.delayMs <= 60_000);
    controller.abort();
    expect((await cancelled).code).toBe('CANCELLED');
    // The slot frees a minute after the first answer: the call behind is the one served then.
    await clock.advance(60_000);
    expect(((await behind) as ListResult).data).toHaveLength(1);
    expect(connection.stats.attempts).toBe(2);
  });

  test('records(): an abort between pages ends the iteration at the next page, with CANCELLED', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const connection = hubspot();
    const controller = new AbortController();
    const seen: unknown[] = [];
    const iterate = async () => {
      for await (const record of connection.records('contacts', 'list', { limit: 2 }, { signal: controller.signal })) {
        seen.push(record);
        if (seen.length === 2) controller.abort();
      }
    };
    const before = fake.requests.length;
    const error = await failure(iterate());
    expect(error.code).toBe('CANCELLED');
    expect(seen).toHaveLength(2);
    // One page was read; the second was never sent.
    expect(fake.requests.length - before).toBe(1);
  });

  test('a signal that is not an AbortSignal is refused before any request, naming the option', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const before = fake.requests.length;
    const error = await failure(hubspot().execute('contacts', 'list', { limit: 1 }, { signal: { aborted: false } as AbortSignal }));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual([{ path: '/options/signal', message: 'must be an AbortSignal' }]);
    expect(fake.requests.length).toBe(before);
  });

  test('any options value is either taken or refused with INVALID_REQUEST naming /options, before anything is sent', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const connection = hubspot();
    await expectOptionsTakenOrRefused(
      { names: ['deadlineMs', 'traffic', 'signal'], maxDeadlineMs: 2_147_483_647 },
      (options) => connection.execute('contacts', 'list', { limit: 1 }, options as never),
      () => fake.requests.length,
    );
  });

  test('a misspelt option is refused, naming it and the options there are', async () => {
    const error = await failure(hubspot().execute('contacts', 'list', { limit: 1 }, { deadline: 5000 } as never));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.details).toEqual([{ path: '/options/deadline', message: 'is not a call option (deadlineMs, traffic, signal)' }]);
  });

  test('a call that ends normally stops listening to its signal', async () => {
    const controller = new AbortController();
    const connection = hubspot();
    const page = (await connection.execute('contacts', 'list', { limit: 1 }, { signal: controller.signal })) as ListResult;
    expect(page.data).toHaveLength(1);
    // An abort after the answer changes nothing: the listener is gone (Node counts them on the signal).
    expect(EventEmitter.getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

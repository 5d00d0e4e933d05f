import { systemClock, type Clock, type ClockTimer } from '../clock/index.js';
import { EngineError, ServiceUnavailableError } from '../errors.js';
import { MemoryRateSlots, type RateSlots } from './rate-slots.js';
import { syncShareOf, TrafficQueue } from './traffic-queue.js';
import type { Traffic, UpstreamCall } from './upstream-call.js';
import { Waiter } from './waiter.js';

/** Limits of one connector: a rolling window of requests and a cap on requests in flight. */
export interface LimiterOptions {
  requests?: number;
  perMs?: number;
  concurrency?: number;
  /** Where the window's slots live (default: this process's memory). */
  slots?: RateSlots;
  /** How long a slot stays taken when its attempt never ends (its process died). */
  holdMs?: number;
  /** Where the limiter reads time and sleeps (default: real time). */
  clock?: Clock;
}

/** A slot of the rolling window held by one attempt; `release` it when the attempt ends (idempotent). */
export interface SlotHold {
  release(): void;
}

const NO_HOLD: SlotHold = { release: () => undefined };
/** Shortest pause between two looks at a full window, so a wait of 0 ms never spins. */
const MIN_POLL_MS = 2;
const DEFAULT_HOLD_MS = 60_000;

/**
 * Keeps a connector under the upstream's published rate limit before the upstream has to say 429,
 * and bounds the requests in flight. The window is rolling, as upstream limits usually are: an
 * attempt takes one of `requests` slots, free once its last attempt ended a window ago (see
 * rate-slots.ts). Calls wait in two classes: while an interactive call waits, sync calls go only
 * while they hold less than their share (SYNC_SHARE) of the window or of the concurrency cap. An
 * interactive call waits for a turn first when sync calls hold every turn (waiting for slots):
 * the window's share holds then too, so those calls cannot take the whole window before it.
 * Every wait ends at the call's deadline, and a wait that would end after it fails at once.
 */
export class RequestLimiter {
  private readonly slots: RateSlots;
  private readonly running: Record<Traffic, number> = { interactive: 0, sync: 0 };
  private readonly turns = new TrafficQueue<Waiter<void>>();
  private readonly waiting = new TrafficQueue<Waiter<number>>();
  private readonly held: Record<Traffic, number> = { interactive: 0, sync: 0 };
  /** When this process's sync attempts released their slots (local clock), pruned to the window. */
  private readonly syncReleases: number[] = [];
  private pumping = false;
  /** Restarts a pump that stopped with only sync waiting over its share (see syncHeldBackMs). */
  private resume: ClockTimer | undefined;
  /**
   * A slot taken while no interactive call was on its way, granted once one was: kept for that
   * call (syncHeldBackMs). A slot store in a database takes a slot in a round trip, during which
   * the call can arrive; sync was already held to its share then, and CI saw it take a third.
   */
  private kept: number | undefined;
  /** When the window's next slot frees at the earliest, as the last full look found (local clock). */
  private nextFreeAt = 0;
  private readonly clock: Clock;

  constructor(private readonly options: LimiterOptions) {
    this.clock = options.clock ?? systemClock;
    this.slots = options.slots ?? new MemoryRateSlots(this.clock);
  }

  /**
   * Takes a concurrency turn for the call's class: undefined when one was free and is taken now,
   * else a promise that resolves once the call holds one (or rejects at its deadline). Hand the
   * turn back with {@link endTurn}. Why not a promise either way: most calls find a turn free, and
   * this runs on every call.
   */
  takeTurn(call: UpstreamCall): Promise<void> | undefined {
    const max = this.options.concurrency ?? Number.POSITIVE_INFINITY;
    if (this.running.interactive + this.running.sync < max && this.turns.size === 0) {
      this.running[call.traffic]++;
      return undefined;
    }
    return this.waitForTurn(call);
  }

  /** Hands back the turn a call took, letting the next waiter in. */
  endTurn(call: UpstreamCall): void {
    this.running[call.traffic]--;
    this.admitTurns();
    // Sync's waiters may have stood aside for this call (syncHeldBackMs).
    if (call.traffic === 'interactive' && this.waiting.size > 0) this.pumpAgain();
  }

  /**
   * A slot of the rolling window for one more attempt: NO_HOLD at once when the window is off,
   * else a promise of the hold. Every attempt (retries too) asks, and releases the hold when its
   * answer (or failure) is in.
   */
  attempt(call: UpstreamCall): SlotHold | Promise<SlotHold> {
    const { requests, perMs } = this.options;
    if (!requests || !perMs) return NO_HOLD;
    return this.waitForSlot(call, requests, perMs);
  }

  private async waitForSlot(call: UpstreamCall, requests: number, perMs: number): Promise<SlotHold> {
    const since = this.clock.now();
    call.doing('rate_limiter');
    const ahead = this.nextFreeAt - since;
    if (call.expired() || (this.waiting.size > 0 && ahead > call.remaining())) throw call.failure('rate_limiter', Math.max(0, ahead));
    const waiter = new Waiter<number>(call, (w) => this.waiting.remove(w));
    this.waiting.push(waiter);
    void this.pump(requests, perMs);
    const slot = await waiter.promise;
    call.spend('rate_limiter', this.clock.now() - since);
    return this.hold(call.traffic, slot);
  }

  private async waitForTurn(call: UpstreamCall): Promise<void> {
    if (call.expired()) throw call.failure('rate_limiter');
    const since = this.clock.now();
    call.doing('rate_limiter');
    // An interactive call that gives up its turn lets sync's held-back waiters go (syncHeldBackMs).
    const waiter = new Waiter<void>(call, (w) => {
      this.turns.remove(w);
      this.pumpAgain();
    });
    this.turns.push(waiter);
    await waiter.promise;
    call.spend('rate_limiter', this.clock.now() - since);
  }

  private admitTurns(): void {
    const max = this.options.concurrency ?? Number.POSITIVE_INFINITY;
    while (this.running.interactive + this.running.sync < max) {
      const next = this.turns.peek(this.running.sync < syncShareOf(max));
      if (!next) return;
      this.turns.remove(next);
      this.running[next.traffic]++;
      next.grant();
    }
  }

  /**
   * Hands out slots while calls wait: takes one whenever the window has room and gives it to the
   * waiter whose turn it is; otherwise fails the waiters a wait cannot serve in time and sleeps
   * until a slot can be free. One pump runs at a time.
   */
  private async pump(requests: number, perMs: number): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.size > 0) {
        const heldBackMs = this.syncHeldBackMs();
        if (heldBackMs !== undefined) {
          this.resumeIn(heldBackMs);
          return;
        }
        if (this.kept !== undefined) {
          const slot = this.kept;
          this.kept = undefined;
          this.grant(slot);
          continue;
        }
        const taken = await this.slots.take(requests, perMs, this.options.holdMs ?? DEFAULT_HOLD_MS);
        if ('slot' in taken) {
          this.grant(taken.slot);
          continue;
        }
        this.nextFreeAt = this.clock.now() + taken.waitMs;
        this.failHopeless(taken.waitMs);
        if (this.waiting.size > 0) await this.clock.sleep(Math.max(MIN_POLL_MS, taken.waitMs));
      }
    } catch (error) {
      const failure =
        error instanceof EngineError
          ? error
          : new ServiceUnavailableError('the shared rate limit cannot be read from the database; retry the request', { cause: error });
      for (const waiter of this.waiting.all()) {
        this.waiting.remove(waiter);
        waiter.fail(failure);
      }
    } finally {
      this.pumping = false;
    }
  }

  private grant(slot: number): void {
    const next = this.waiting.peek(this.syncUnderShare());
    if (next?.traffic === 'sync' && this.syncHeldBackMs() !== undefined) {
      this.kept = slot;
      return;
    }
    if (!next) {
      // Every waiter gave up while the slot was taken: the slot counts as used once, as it was.
      void this.slots.release(slot).catch(() => undefined);
      return;
    }
    this.waiting.remove(next);
    this.held[next.traffic]++;
    next.grant(slot);
  }

  /**
   * How long sync's waiters stand aside though a slot may be free, or undefined when the pump may
   * serve them: while an interactive call waits for a concurrency turn (not yet for a slot) and
   * sync holds its share of the window, the next slot is kept for that call. Sync is under its
   * share again when its oldest counted release leaves the window; while only attempts in flight
   * count (Infinity), their releases restart the pump, as does the call reaching the slot queue or
   * giving up.
   */
  private syncHeldBackMs(): number | undefined {
    if (this.waiting.has('interactive') || !this.interactiveOnItsWay() || this.syncUnderShare()) return undefined;
    const oldest = this.syncReleases[0];
    return oldest === undefined ? Number.POSITIVE_INFINITY : oldest + (this.options.perMs ?? 0) - this.clock.now();
  }

  /**
   * Whether an interactive call is on its way to the slot queue: waiting for a turn, or holding
   * one without a slot (granted a turn and not yet asking, or between retries). The turn's grant
   * and the call's ask are microtasks apart, and a sync release in between must not take the slot.
   */
  private interactiveOnItsWay(): boolean {
    return this.turns.has('interactive') || this.running.interactive > this.held.interactive;
  }

  /** Starts the pump outside a slot wait (a restart after sync stood aside); nothing waits for slots when the window is off. */
  private pumpAgain(): void {
    const { requests, perMs } = this.options;
    if (requests && perMs) void this.pump(requests, perMs);
  }

  /** Runs the pump again in `ms` (never when Infinity: an event restarts it then). */
  private resumeIn(ms: number): void {
    this.resume?.cancel();
    this.resume = undefined;
    if (!Number.isFinite(ms)) return;
    this.resume = this.clock.setTimer(
      () => {
        this.resume = undefined;
        this.pumpAgain();
      },
      Math.max(MIN_POLL_MS, ms),
    );
  }

  /** Fails at once the waiters whose deadline comes before any slot can be free. */
  private failHopeless(waitMs: number): void {
    for (const waiter of this.waiting.all()) {
      if (waiter.call.remaining() >= waitMs) continue;
      this.waiting.remove(waiter);
      waiter.fail(waiter.call.exceeded('rate_limiter', waitMs));
    }
  }

  private syncUnderShare(): boolean {
    const { requests = 1, perMs = 0 } = this.options;
    const horizon = this.clock.now() - perMs;
    while (this.syncReleases.length > 0 && (this.syncReleases[0] as number) <= horizon) this.syncReleases.shift();
    return this.held.sync + this.syncReleases.length < syncShareOf(requests);
  }

  private hold(traffic: Traffic, slot: number): SlotHold {
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        // A slot whose release is lost (the database went away) stays taken until its lease ends.
        // The attempt counts as held until the store has stamped its slot, then as released from
        // then on: a database stamps it a query later, and sync's count must not leave the window
        // before the slot does, or sync would take a slot beyond its share meanwhile.
        void this.slots
          .release(slot)
          .catch(() => undefined)
          .finally(() => {
            this.held[traffic]--;
            if (traffic !== 'sync') return;
            this.syncReleases.push(this.clock.now());
            // A pump that stopped with sync over its share times its restart from this release.
            if (this.waiting.size > 0) this.pumpAgain();
          });
      },
    };
  }
}

import type { UpstreamCall } from './upstream-call.js';

/**
 * A call waiting in one of the limiter's queues for a value (a slot, a turn). It gives up at the
 * call's deadline: `onExpire` takes it out of its queue, and the call fails with UPSTREAM_TIMEOUT
 * naming the rate limiter.
 */
export class Waiter<V> {
  readonly promise: Promise<V>;
  private resolveValue!: (value: V) => void;
  private rejectValue!: (error: unknown) => void;
  private readonly onDeadline: () => void;

  constructor(
    readonly call: UpstreamCall,
    onExpire: (waiter: Waiter<V>) => void,
  ) {
    this.promise = new Promise<V>((resolve, reject) => {
      this.resolveValue = resolve;
      this.rejectValue = reject;
    });
    this.onDeadline = () => {
      onExpire(this);
      this.fail(call.failure('rate_limiter'));
    };
    call.onDeadline(this.onDeadline);
  }

  get traffic(): UpstreamCall['traffic'] {
    return this.call.traffic;
  }

  /** Hands the waiter its value. */
  grant(value: V): void {
    this.call.offDeadline(this.onDeadline);
    this.resolveValue(value);
  }

  /** Fails the waiter (a wait that cannot end in time, a store that cannot be reached). */
  fail(error: unknown): void {
    this.call.offDeadline(this.onDeadline);
    this.rejectValue(error);
  }
}

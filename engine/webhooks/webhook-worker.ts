import { randomBytes } from 'node:crypto';
import { IdleWait, systemClock, type Clock } from '../clock/index.js';
import { EngineError } from '../errors.js';
import { EgressPolicy } from '../http/index.js';
import { processOwner, type AttemptOutcome, type Cipher, type ClaimedDelivery, type Store } from '../store/index.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy.js';
import { sendDelivery, type AttemptResult } from './send-delivery.js';
import { signWebhook } from './signature.js';

/** The shortest sleep between rounds: a delivery due now but leased elsewhere never makes a busy loop. */
const MIN_WAIT_MS = 10;

/** Where the worker reports what it cannot do (pino-compatible); never given a secret. */
export interface WebhookLogger {
  error(object: Record<string, unknown>, message: string): void;
}

export interface WebhookWorkerOptions {
  store: Store;
  /** Decrypts the endpoints' signing secrets (the store's cipher). */
  cipher: Cipher;
  /**
   * Origins the operator allowed webhooks to reach although they are http or not public
   * (ENGINE_ALLOW_ORIGINS_WEBHOOKS, the same switch as ENGINE_ALLOW_ORIGINS_<TYPE> for upstreams).
   */
  allowOrigins?: readonly string[];
  retry?: Partial<RetryPolicy>;
  /** How long one attempt may take, connect to status line (default 10 s). */
  attemptTimeoutMs?: number;
  /** How often an idle worker looks for due deliveries (default 5 s). */
  pollMs?: number;
  /** Deliveries claimed per round (default 10), sent at once. */
  batchSize?: number;
  clock?: Clock;
  logger?: WebhookLogger;
}

/**
 * Sends the outbox's due deliveries: claims them under a lease (so two processes on one database
 * never send one at once), signs each with its endpoint's secret, POSTs it, and records the
 * outcome: 2xx delivered; otherwise retried with exponential backoff, then failed after the last
 * attempt. Runs in every serve process and, for one round, after `connector-engine sync`.
 */
export class WebhookWorker {
  readonly owner = processOwner(`webhooks-${randomBytes(4).toString('hex')}`);
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private stopped = true;
  private readonly idle: IdleWait;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.idle = new IdleWait(this.clock);
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  private get attemptTimeoutMs(): number {
    return this.options.attemptTimeoutMs ?? 10_000;
  }

  /** Starts delivering in the background. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.poll();
  }

  /** Stops looking for deliveries and waits for the attempts in flight (each ends by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.idle.wakeUp();
    await this.loop;
  }

  /** Looks for due deliveries now instead of at the next poll (after an event was written). */
  kick(): void {
    this.idle.wakeUp();
  }

  /** Sends every delivery due now, once each; answers how many attempts were made. */
  async drain(): Promise<number> {
    let attempts = 0;
    for (;;) {
      const claimed = await this.options.store.webhooks.claimDeliveries(this.owner, this.leaseMs(), this.options.batchSize ?? 10);
      if (claimed.length === 0) return attempts;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      attempts += claimed.length;
    }
  }

  /** The lease outlives an attempt by a margin, so it never runs out under a live attempt. */
  private leaseMs(): number {
    return this.attemptTimeoutMs * 2 + 5_000;
  }

  private async poll(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.drain();
      } catch (error) {
        this.options.logger?.error({ err: error }, 'webhooks: could not claim deliveries');
      }
      if (this.stopped) return;
      await this.idle.wait(await this.idleMs());
    }
  }

  /**
   * How long to sleep: until the earliest pending delivery falls due (so a retry goes out at its
   * scheduled delay), at most the poll interval (events written by other processes are found then).
   */
  private async idleMs(): Promise<number> {
    const pollMs = this.options.pollMs ?? 5_000;
    try {
      const next = await this.options.store.webhooks.nextDueAt();
      return next === undefined ? pollMs : Math.min(pollMs, Math.max(MIN_WAIT_MS, next - this.clock.now()));
    } catch (error) {
      this.options.logger?.error({ err: error }, 'webhooks: could not read the next due time');
      return pollMs;
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const result = await this.send(delivery);
    const outcome = this.outcome(delivery, result);
    const held = await this.options.store.webhooks.finishAttempt(delivery.id, this.owner, outcome);
    if (!held) this.options.logger?.error({ delivery: delivery.id }, 'webhooks: lease lost before the attempt was recorded');
  }

  private async send(delivery: ClaimedDelivery): Promise<AttemptResult> {
    try {
      const url = new URL(delivery.url);
      const egress = new EgressPolicy({
        hosts: { api: [url.hostname] },
        trustedOrigins: this.options.allowOrigins ?? [],
        label: `webhook endpoint ${delivery.endpoint_id}`,
      });
      const permit = egress.permit(url, 'api');
      const secret = this.options.cipher.decrypt(delivery.secret_ciphertext);
      const timestamp = Math.floor(this.clock.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'connector-engine-webhooks',
        'webhook-id': delivery.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secret, delivery.event_id, timestamp, delivery.payload),
      };
      return await sendDelivery({
        url,
        headers,
        body: delivery.payload,
        timeoutMs: this.attemptTimeoutMs,
        clock: this.clock,
        dispatcher: permit.dispatcher,
        refusal: (error) => egress.connectRefusal(error, url, 'api'),
      });
    } catch (error) {
      return { statusCode: null, error: error instanceof EngineError ? `${error.code}: ${error.message}`.slice(0, 300) : 'the delivery could not be sent' };
    }
  }

  /** 2xx is delivered; anything else is retried after the policy's delay, or failed when no attempt is left. */
  private outcome(delivery: ClaimedDelivery, result: AttemptResult): AttemptOutcome {
    const code = result.statusCode;
    if (code !== null && code >= 200 && code < 300) return { status: 'delivered', statusCode: code, error: null };
    const error = result.error ?? `the endpoint answered ${code}`;
    const delay = retryDelayMs(this.retry, delivery.attempts + 1);
    if (delay === undefined) return { status: 'failed', statusCode: code, error };
    return { status: 'pending', statusCode: code, error, nextAttemptAt: new Date(this.clock.now() + delay) };
  }
}

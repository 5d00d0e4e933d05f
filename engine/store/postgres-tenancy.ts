import pg from 'pg';
import type { Clock } from '../clock/index.js';

/** The channel every write to platform clients, connectors or credentials notifies, in its own transaction. */
export const TENANCY_CHANNEL = 'connector_engine_tenancy';

/** The application_name of the listening connection, so an operator (or a test) can find it in pg_stat_activity. */
export const TENANCY_LISTENER_NAME = 'connector-engine tenancy listener';

/** The shortest time between two attempts to (re)connect the listener, so a database that is down is not hammered once per request. */
const RECONNECT_EVERY_MS = 1000;

/**
 * The PostgreSQL side of `Store.tenancyMark`: one connection of its own that LISTENs on
 * TENANCY_CHANNEL. The mark moves on every notification (a commit of any process that changed
 * tenancy data), on this process's own such writes, and when the connection is made or lost.
 * While it is not listening every read answers a new mark, so a caller keeps nothing: a change
 * committed while nobody listened can never be missed. It connects on first use, not at open,
 * so CLI commands that never ask pay nothing for it.
 */
export class TenancyListener {
  private mark = 0;
  private client: pg.Client | undefined;
  private listening = false;
  private connecting = false;
  private closed = false;
  private nextAttemptAt = 0;

  constructor(
    private readonly url: string,
    private readonly clock: Clock,
  ) {}

  /** The current mark; a new one on every call while not listening (and a (re)connect is started then). */
  current(): number {
    if (this.listening) return this.mark;
    this.connect();
    return ++this.mark;
  }

  /** This process changed tenancy data: its own later reads must not wait for the notification to come back. */
  bump(): void {
    this.mark++;
  }

  /** Stops listening for good (the store closes). */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): void {
    const now = this.clock.now();
    if (this.connecting || this.closed || now < this.nextAttemptAt) return;
    this.connecting = true;
    this.nextAttemptAt = now + RECONNECT_EVERY_MS;
    const client = new pg.Client({ connectionString: this.url, application_name: TENANCY_LISTENER_NAME });
    client.on('notification', () => this.mark++);
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${TENANCY_CHANNEL}`))
      .then(
        () => {
          if (this.closed) return void client.end().catch(() => undefined);
          this.client = client;
          this.listening = true;
          this.mark++;
        },
        () => this.drop(client),
      )
      .finally(() => (this.connecting = false));
  }

  /** The connection failed or ended: nothing heard before counts any more, and the next read reconnects. */
  private drop(client: pg.Client): void {
    client.end().catch(() => undefined);
    // A connection replaced earlier ending late says nothing about the one listening now.
    if (this.client !== undefined && this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    this.mark++;
  }
}

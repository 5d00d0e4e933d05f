import { systemClock, type Clock } from '../clock/index.js';
import type Database from 'better-sqlite3';
import { newId } from './ids.js';
import { DELIVERY_COLUMNS, ENDPOINT_COLUMNS, eventsColumn, outboxRows, unknownClient, type EventConnector } from './webhook-outbox.js';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  ConnectorEvent,
  DeliveryFilter,
  DeliveryPage,
  NewWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookStore,
} from './webhook-types.js';

/** The connector an event is about, while its client is live (a revoked client's tenants hear nothing). */
const EVENT_CONNECTOR = `SELECT id, client_id, external_user_id, connector_type FROM connectors
  WHERE id = ? AND EXISTS (SELECT 1 FROM platform_clients p WHERE p.client_id = connectors.client_id AND p.revoked_at IS NULL)`;

type EndpointDbRow = Omit<WebhookEndpoint, 'events'> & { events: string | null };

/**
 * The webhook outbox of the SQLite store. Times are ISO text from the JS clock (text order is
 * time order). `emitIn` is synchronous, so the store calls it inside the transaction of the fact.
 */
export class SqliteWebhooks implements WebhookStore {
  private readonly stmt: ReturnType<typeof prepareWebhookStatements>;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock = systemClock,
  ) {
    this.stmt = prepareWebhookStatements(db);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async addEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    if (this.stmt.clientExists.get(input.clientId) === undefined) throw unknownClient(input.clientId);
    const row = this.stmt.insertEndpoint.get(newId('whe_'), input.clientId, input.url, eventsColumn(input.events), input.secretCiphertext, this.now());
    return toEndpoint(row as EndpointDbRow);
  }

  async listEndpoints(clientId?: string): Promise<WebhookEndpoint[]> {
    return (this.stmt.listEndpoints.all({ client: clientId ?? null }) as EndpointDbRow[]).map(toEndpoint);
  }

  async removeEndpoint(id: string): Promise<boolean> {
    const remove = this.db.transaction(() => {
      if (this.stmt.deleteEndpoint.run(id).changes !== 1) return false;
      this.stmt.failEndpointDeliveries.run({ endpoint: id });
      return true;
    });
    return remove.immediate();
  }

  async emit(connectorId: string, event: ConnectorEvent): Promise<number> {
    const emit = this.db.transaction(() => {
      const connector = this.stmt.eventConnector.get(connectorId) as EventConnector | undefined;
      return connector ? this.emitIn(connector, event) : 0;
    });
    return emit.immediate();
  }

  /** Writes the event's deliveries; call it inside the transaction that makes the fact. */
  emitIn(connector: EventConnector, event: ConnectorEvent): number {
    const endpoints = (this.stmt.listEndpoints.all({ client: connector.client_id }) as EndpointDbRow[]).map(toEndpoint);
    const rows = outboxRows(connector, event, endpoints, this.now());
    for (const row of rows) this.stmt.insertDelivery.run({ ...row, due: row.created_at });
    return rows.length;
  }

  async claimDeliveries(owner: string, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    const lease = { owner, now: new Date(now).toISOString(), until: new Date(now + leaseMs).toISOString(), limit };
    // IMMEDIATE: the write lock is taken before the due rows are read, so two processes never both see one free.
    const claim = this.db.transaction(() => {
      const ids = this.stmt.claimDue.all(lease) as string[];
      return ids.length === 0 ? [] : (this.stmt.claimed.all(JSON.stringify(ids)) as ClaimedDelivery[]);
    });
    return claim.immediate();
  }

  async nextDueAt(): Promise<number | undefined> {
    const next = this.stmt.nextDue.get() as string | null;
    return next === null ? undefined : Date.parse(next);
  }

  async finishAttempt(id: string, owner: string, outcome: AttemptOutcome): Promise<boolean> {
    const now = this.now();
    return (
      this.stmt.finishAttempt.run({
        id,
        owner,
        status: outcome.status,
        code: outcome.statusCode,
        error: outcome.error,
        next: outcome.status === 'pending' ? (outcome.nextAttemptAt ?? new Date(this.clock.now())).toISOString() : null,
        delivered: outcome.status === 'delivered' ? now : null,
      }).changes === 1
    );
  }

  async listDeliveries(clientId: string, filter: DeliveryFilter): Promise<DeliveryPage> {
    const rows = this.stmt.listDeliveries.all({
      client: clientId,
      status: filter.status ?? null,
      event: filter.event ?? null,
      before: filter.beforeSeq ?? null,
      limit: filter.limit + 1,
    }) as Array<WebhookDelivery & { seq: number }>;
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1);
    return { data: page.map(({ seq: _seq, ...delivery }) => delivery), nextSeq: rows.length > filter.limit && last ? last.seq : null };
  }

  async getDelivery(clientId: string, id: string): Promise<WebhookDelivery | undefined> {
    return this.stmt.getDelivery.get(clientId, id) as WebhookDelivery | undefined;
  }
}

/** Every fixed statement of the outbox, prepared once per connection. */
function prepareWebhookStatements(db: Database.Database) {
  return {
    clientExists: db.prepare('SELECT 1 FROM platform_clients WHERE client_id = ?').pluck(),
    insertEndpoint: db.prepare(`INSERT INTO webhook_endpoints (id, client_id, url, events, secret_ciphertext, created_at)
      VALUES (?, ?, ?, ?, ?, ?) RETURNING ${ENDPOINT_COLUMNS}`),
    listEndpoints: db.prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE @client IS NULL OR client_id = @client ORDER BY seq DESC`),
    deleteEndpoint: db.prepare('DELETE FROM webhook_endpoints WHERE id = ?'),
    failEndpointDeliveries: db.prepare(`UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint removed', next_attempt_at = NULL
      WHERE endpoint_id = @endpoint AND status = 'pending'`),
    eventConnector: db.prepare(EVENT_CONNECTOR),
    insertDelivery: db.prepare(`INSERT INTO webhook_deliveries (id, event_id, event_type, endpoint_id, client_id, payload, next_attempt_at, created_at)
      VALUES (@id, @event_id, @event_type, @endpoint_id, @client_id, @payload, @due, @created_at)`),
    // A delivery whose endpoint is gone is never claimed (removing an endpoint fails its pending ones).
    claimDue: db
      .prepare(
        `UPDATE webhook_deliveries SET lease_owner = @owner, lease_until = @until
      WHERE id IN (
        SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
          AND endpoint_id IN (SELECT id FROM webhook_endpoints)
        ORDER BY next_attempt_at, seq LIMIT @limit)
      RETURNING id`,
      )
      .pluck(),
    claimed: db.prepare(`SELECT ${DELIVERY_COLUMNS.split(', ')
      .map((column) => `d.${column}`)
      .join(', ')}, e.url, e.secret_ciphertext, d.payload
      FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.seq`),
    nextDue: db
      .prepare(
        `SELECT min(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END)
      FROM webhook_deliveries WHERE status = 'pending'`,
      )
      .pluck(),
    finishAttempt: db.prepare(`UPDATE webhook_deliveries SET attempts = attempts + 1, status = @status, last_status_code = @code,
      last_error = @error, next_attempt_at = @next, delivered_at = @delivered, lease_owner = NULL, lease_until = NULL
      WHERE id = @id AND lease_owner = @owner AND status = 'pending'`),
    listDeliveries: db.prepare(`SELECT seq, ${DELIVERY_COLUMNS} FROM webhook_deliveries
      WHERE client_id = @client AND (@status IS NULL OR status = @status) AND (@event IS NULL OR event_type = @event)
        AND (@before IS NULL OR seq < @before)
      ORDER BY seq DESC LIMIT @limit`),
    getDelivery: db.prepare(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE client_id = ? AND id = ?`),
  };
}

function toEndpoint(row: EndpointDbRow): WebhookEndpoint {
  return { ...row, events: row.events === null ? null : (JSON.parse(row.events) as WebhookEndpoint['events']) };
}

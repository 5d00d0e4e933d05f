import { systemClock, type Clock } from '../clock/index.js';
import type pg from 'pg';
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

const D_COLUMNS = DELIVERY_COLUMNS.split(', ')
  .map((column) => `d.${column}`)
  .join(', ');

/** Anything that runs a query: the pool, or a transaction's client. */
type Queryable = Pick<pg.Pool, 'query'>;

/** Times come back as Date; the API shows ISO text, as the SQLite store keeps it. */
function iso(value: unknown): string | null {
  return value instanceof Date ? value.toISOString() : (value as string | null);
}

function toDelivery<T extends WebhookDelivery>(row: Record<string, unknown>): T {
  return {
    ...row,
    next_attempt_at: iso(row.next_attempt_at),
    delivered_at: iso(row.delivered_at),
    created_at: iso(row.created_at) as string,
  } as T;
}

function toEndpoint(row: Record<string, unknown>): WebhookEndpoint {
  return { ...(row as unknown as WebhookEndpoint), created_at: iso(row.created_at) as string };
}

/**
 * The webhook outbox of the PostgreSQL store. `emitWith` takes the transaction's client, so the
 * store writes an event in the transaction of its fact; claims use FOR UPDATE SKIP LOCKED.
 */
export class PostgresWebhooks implements WebhookStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock = systemClock,
  ) {}

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async addEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const { rows } = await this.pool.query(
      `INSERT INTO webhook_endpoints (id, client_id, url, events, secret_ciphertext, created_at)
        SELECT $1, client_id, $3, $4::jsonb, $5, $6 FROM platform_clients WHERE client_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [newId('whe_'), input.clientId, input.url, eventsColumn(input.events), input.secretCiphertext, this.now()],
    );
    if (!rows[0]) throw unknownClient(input.clientId);
    return toEndpoint(rows[0]);
  }

  async listEndpoints(clientId?: string): Promise<WebhookEndpoint[]> {
    return this.endpointsOf(this.pool, clientId ?? null);
  }

  private async endpointsOf(db: Queryable, clientId: string | null): Promise<WebhookEndpoint[]> {
    const { rows } = await db.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE $1::text IS NULL OR client_id = $1 ORDER BY seq DESC`, [clientId]);
    return rows.map(toEndpoint);
  }

  async removeEndpoint(id: string): Promise<boolean> {
    // One statement: the delete and the failing of its pending deliveries commit together.
    const { rows } = await this.pool.query<{ removed: number }>(
      `WITH gone AS (DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id),
        failed AS (UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint removed', next_attempt_at = NULL
          WHERE endpoint_id IN (SELECT id FROM gone) AND status = 'pending')
      SELECT count(*)::int AS removed FROM gone`,
      [id],
    );
    return (rows[0]?.removed ?? 0) === 1;
  }

  /** `db`: the transaction to write in (default: the pool, on its own). */
  async emit(connectorId: string, event: ConnectorEvent, db: Queryable = this.pool): Promise<number> {
    const { rows } = await db.query<EventConnector>(
      `SELECT id, client_id, external_user_id, connector_type FROM connectors c
        WHERE id = $1 AND EXISTS (SELECT 1 FROM platform_clients p WHERE p.client_id = c.client_id AND p.revoked_at IS NULL)`,
      [connectorId],
    );
    return rows[0] ? this.emitWith(db, rows[0], event) : 0;
  }

  /** Writes the event's deliveries through `db`: the client of the transaction that makes the fact. */
  async emitWith(db: Queryable, connector: EventConnector, event: ConnectorEvent): Promise<number> {
    const rows = outboxRows(connector, event, await this.endpointsOf(db, connector.client_id), this.now());
    if (rows.length === 0) return 0;
    const columns = ['id', 'event_id', 'event_type', 'endpoint_id', 'client_id', 'payload', 'created_at'] as const;
    await db.query(
      `INSERT INTO webhook_deliveries (${columns.join(', ')}, next_attempt_at)
        SELECT r.*, r.created_at FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
          AS r(${columns.join(', ')})`,
      columns.map((column) => rows.map((row) => row[column])),
    );
    return rows.length;
  }

  async claimDeliveries(owner: string, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    const { rows } = await this.pool.query(
      `WITH picked AS (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
        ORDER BY d.next_attempt_at, d.seq LIMIT $4 FOR UPDATE OF d SKIP LOCKED)
      UPDATE webhook_deliveries d SET lease_owner = $2, lease_until = $3 FROM picked, webhook_endpoints e
      WHERE d.id = picked.id AND e.id = d.endpoint_id
      RETURNING ${D_COLUMNS}, e.url, e.secret_ciphertext, d.payload`,
      [new Date(now).toISOString(), owner, new Date(now + leaseMs).toISOString(), limit],
    );
    return rows.map((row) => toDelivery<ClaimedDelivery>(row));
  }

  async nextDueAt(): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ next: Date | null }>(
      `SELECT min(GREATEST(next_attempt_at, lease_until)) AS next FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return rows[0]?.next ? rows[0].next.getTime() : undefined;
  }

  async finishAttempt(id: string, owner: string, outcome: AttemptOutcome): Promise<boolean> {
    const now = this.now();
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = $3, last_status_code = $4, last_error = $5, next_attempt_at = $6,
        delivered_at = $7, lease_owner = NULL, lease_until = NULL
      WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`,
      [
        id,
        owner,
        outcome.status,
        outcome.statusCode,
        outcome.error,
        outcome.status === 'pending' ? (outcome.nextAttemptAt ?? new Date(now)).toISOString() : null,
        outcome.status === 'delivered' ? now : null,
      ],
    );
    return rowCount === 1;
  }

  async listDeliveries(clientId: string, filter: DeliveryFilter): Promise<DeliveryPage> {
    const { rows } = await this.pool.query(
      `SELECT seq::float8 AS seq, ${DELIVERY_COLUMNS} FROM webhook_deliveries
      WHERE client_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR event_type = $3) AND ($4::bigint IS NULL OR seq < $4)
      ORDER BY seq DESC LIMIT $5`,
      [clientId, filter.status ?? null, filter.event ?? null, filter.beforeSeq ?? null, filter.limit + 1],
    );
    const page = rows.slice(0, filter.limit);
    const last = page.at(-1) as { seq: number } | undefined;
    return {
      data: page.map(({ seq: _seq, ...delivery }) => toDelivery(delivery)),
      nextSeq: rows.length > filter.limit && last ? last.seq : null,
    };
  }

  async getDelivery(clientId: string, id: string): Promise<WebhookDelivery | undefined> {
    const { rows } = await this.pool.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE client_id = $1 AND id = $2`, [clientId, id]);
    return rows[0] ? toDelivery(rows[0]) : undefined;
  }
}

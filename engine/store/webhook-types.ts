/**
 * The shapes of the webhook outbox: the endpoints an operator registers per platform client and
 * the deliveries of events to them. Column names match the JSON the hosted API answers with.
 */

/** The events a webhook endpoint can hear (README "Webhooks"); names never change once released. */
export type WebhookEventType = 'connector.created' | 'sync.finished' | 'sync.failed' | 'credentials.refreshed' | 'connector.reauthorization_required';

/** Where a delivery stands: waiting for an attempt (first or retry), answered 2xx, or given up. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** An endpoint as the operator sees it; its signing secret is never part of it. */
export interface WebhookEndpoint {
  id: string;
  client_id: string;
  url: string;
  /** The events it hears; null: every event. */
  events: WebhookEventType[] | null;
  created_at: string;
}

/** What `webhooks add` stores: the signing secret arrives encrypted with the store's cipher. */
export interface NewWebhookEndpoint {
  clientId: string;
  url: string;
  events: WebhookEventType[] | null;
  secretCiphertext: string;
}

/** One event on its way to one endpoint, as GET /v1/webhooks/deliveries shows it. */
export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  endpoint_id: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** When the next attempt is due; null once delivered or failed. */
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** A delivery a worker holds under its lease, with what it needs to send it. */
export interface ClaimedDelivery extends WebhookDelivery {
  url: string;
  secret_ciphertext: string;
  /** The event's JSON body, the same bytes on every attempt (the signature covers them). */
  payload: string;
}

/** How an attempt ended: delivered, to be retried at `nextAttemptAt`, or failed for good. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
  /** Required when `status` is 'pending'. */
  nextAttemptAt?: Date;
}

/** Filters and page of a deliveries listing (newest first). */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: WebhookEventType;
  limit: number;
  /** Only deliveries older than this position (from the previous page's `next_cursor`). */
  beforeSeq?: number;
}

/** One page of deliveries and the position the next page starts after (null: no more). */
export interface DeliveryPage {
  data: WebhookDelivery[];
  nextSeq: number | null;
}

/** An event raised about a connector: the store adds its tenant and type to `data`. */
export interface ConnectorEvent {
  type: WebhookEventType;
  data?: Record<string, unknown>;
}

/**
 * The webhook part of the store. Events are written into the outbox (one delivery per endpoint
 * of the connector's platform client that hears the event) in the same transaction as the fact
 * where the store makes the fact (a connector created, credentials rotated, needs_reauth set), so
 * a crash never loses one. Workers in any process claim due deliveries under a lease.
 */
export interface WebhookStore {
  /** Registers an endpoint; NOT_FOUND naming `--client` when the client does not exist. */
  addEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  /** Endpoints, newest first, of one client or of all. */
  listEndpoints(clientId?: string): Promise<WebhookEndpoint[]>;
  /** Removes an endpoint; its pending deliveries fail ("endpoint removed"). False when unknown. */
  removeEndpoint(id: string): Promise<boolean>;
  /** Writes an event about a connector into the outbox; answers how many deliveries it made (0 when nobody listens). */
  emit(connectorId: string, event: ConnectorEvent): Promise<number>;
  /**
   * Takes up to `limit` pending deliveries due now whose lease is free, leasing them to `owner`
   * until now + `leaseMs`: two workers never hold the same delivery at once.
   */
  claimDeliveries(owner: string, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
  /**
   * When the earliest pending delivery may next be claimed (its due time, or the end of the lease
   * holding it), as epoch ms; undefined when none is pending. A worker sleeps until then.
   */
  nextDueAt(): Promise<number | undefined>;
  /** Records an attempt (attempts + 1) and frees the lease; false when `owner` no longer holds it. */
  finishAttempt(id: string, owner: string, outcome: AttemptOutcome): Promise<boolean>;
  /** The client's deliveries, newest first. */
  listDeliveries(clientId: string, filter: DeliveryFilter): Promise<DeliveryPage>;
  /** One delivery of the client; another client's is `undefined`, like an unknown one. */
  getDelivery(clientId: string, id: string): Promise<WebhookDelivery | undefined>;
}

import { NotFoundError } from '../errors.js';
import { newId } from './ids.js';
import type { ConnectorEvent, WebhookEndpoint, WebhookEventType } from './webhook-types.js';

/** The webhook_endpoints columns a WebhookEndpoint is read from, on both backends. */
export const ENDPOINT_COLUMNS = 'id, client_id, url, events, created_at';

/** The webhook_deliveries columns a WebhookDelivery is read from, on both backends. */
export const DELIVERY_COLUMNS =
  'id, event_id, event_type, endpoint_id, status, attempts, last_status_code, last_error, next_attempt_at, delivered_at, created_at';

/** Every event type, in the order README "Webhooks" lists them. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'connector.created',
  'sync.finished',
  'sync.failed',
  'credentials.refreshed',
  'connector.reauthorization_required',
];

/** The connector facts every event's data carries: who it belongs to and what it is. */
export interface EventConnector {
  id: string;
  client_id: string;
  external_user_id: string;
  connector_type: string;
}

/** One outbox row to insert: an event on its way to one endpoint. */
export interface OutboxRow {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  endpoint_id: string;
  client_id: string;
  payload: string;
  created_at: string;
}

/** Whether an endpoint hears an event type (null events: every type). */
export function hears(endpoint: Pick<WebhookEndpoint, 'events'>, type: WebhookEventType): boolean {
  return endpoint.events === null || endpoint.events.includes(type);
}

/**
 * The rows of one event for the endpoints that hear it. The body is fixed here, once, so every
 * attempt sends the same bytes under the same `webhook-id` (the event id): a receiver dedupes on it.
 */
export function outboxRows(connector: EventConnector, event: ConnectorEvent, endpoints: readonly WebhookEndpoint[], now: string): OutboxRow[] {
  const listening = endpoints.filter((endpoint) => hears(endpoint, event.type));
  if (listening.length === 0) return [];
  const eventId = newId('evt_');
  const data = {
    client_id: connector.client_id,
    external_user_id: connector.external_user_id,
    connector_id: connector.id,
    connector_type: connector.connector_type,
    ...event.data,
  };
  const payload = JSON.stringify({ id: eventId, type: event.type, created_at: now, data });
  return listening.map((endpoint) => ({
    id: newId('whd_'),
    event_id: eventId,
    event_type: event.type,
    endpoint_id: endpoint.id,
    client_id: connector.client_id,
    payload,
    created_at: now,
  }));
}

/** The events column as stored: a JSON array, or NULL for every event. */
export function eventsColumn(events: readonly WebhookEventType[] | null): string | null {
  return events === null ? null : JSON.stringify(events);
}

/** NOT_FOUND for an endpoint registered for a client that does not exist. */
export function unknownClient(clientId: string): NotFoundError {
  return new NotFoundError(`no platform client ${JSON.stringify(clientId.slice(0, 100))}; see \`connector-engine clients list\``, {
    details: [{ path: '--client', message: 'is not a platform client' }],
  });
}

/** The position of a delivery in listings, as the opaque cursor the API hands out. */
export function cursorOf(seq: number): string {
  return Buffer.from(`d${seq}`).toString('base64url');
}

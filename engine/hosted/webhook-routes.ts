import type { FastifyInstance } from 'fastify';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { cursorOf, WEBHOOK_EVENT_TYPES, type DeliveryFilter, type DeliveryStatus, type WebhookEventType } from '../store/index.js';
import { tenantOf, type HostedContext } from './hosted-context.js';

const STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

type Query = Record<string, string | string[] | undefined>;

function badQuery(name: string, expected: string): InvalidRequestError {
  return new InvalidRequestError(`query parameter ${name} ${expected}`, { details: [{ path: `?${name}`, message: expected }] });
}

/** One query parameter given at most once, from a list of allowed values. */
function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw badQuery(name, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** `limit`: a whole number from 1 to 100 (default 50). */
function limitOf(query: Query): number {
  const value = query.limit;
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = typeof value === 'string' && /^[0-9]{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw badQuery('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
  return limit;
}

/** `cursor`: the `next_cursor` of an earlier page, as given. */
function cursorSeq(query: Query): number | undefined {
  const value = query.cursor;
  if (value === undefined) return undefined;
  const text = typeof value === 'string' && /^[A-Za-z0-9_-]{1,24}$/.test(value) ? Buffer.from(value, 'base64url').toString() : '';
  const match = /^d([1-9][0-9]{0,14})$/.exec(text);
  if (!match || cursorOf(Number(match[1])) !== value) throw badQuery('cursor', 'must be the next_cursor of an earlier page');
  return Number(match[1]);
}

/** The listing's filters, each checked with a typed error naming the parameter. */
export function deliveryFilter(query: Query): DeliveryFilter {
  const status = oneOf(query, 'status', STATUSES);
  const event = oneOf<WebhookEventType>(query, 'event', WEBHOOK_EVENT_TYPES);
  const beforeSeq = cursorSeq(query);
  return { limit: limitOf(query), ...(status ? { status } : {}), ...(event ? { event } : {}), ...(beforeSeq !== undefined ? { beforeSeq } : {}) };
}

/**
 * The state of webhook deliveries, for the platform client of the token (every end user of it):
 * another client's deliveries are never listed, and another client's id answers 404 like an unknown one.
 */
export function registerWebhookRoutes(scoped: FastifyInstance, context: HostedContext): void {
  scoped.get<{ Querystring: Query }>('/v1/webhooks/deliveries', async (request) => {
    const page = await context.store.webhooks.listDeliveries(tenantOf(request).clientId, deliveryFilter(request.query));
    return { data: page.data, next_cursor: page.nextSeq === null ? null : cursorOf(page.nextSeq) };
  });
  scoped.get<{ Params: { id: string } }>('/v1/webhooks/deliveries/:id', async (request) => {
    const delivery = await context.store.webhooks.getDelivery(tenantOf(request).clientId, request.params.id);
    if (!delivery) throw new NotFoundError('no webhook delivery with this id for this client', { details: [{ path: '/id', message: 'not found' }] });
    return delivery;
  });
}

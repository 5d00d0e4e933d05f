import type { OpenAPIV3_1 } from 'openapi-types';
import { WEBHOOK_EVENT_TYPES } from '../store/index.js';

type Schema = OpenAPIV3_1.SchemaObject;

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function json(schema: Schema | OpenAPIV3_1.ReferenceObject, description: string): Record<string, unknown> {
  return { description, content: { 'application/json': { schema } } };
}

/** One webhook delivery as GET /v1/webhooks/deliveries shows it (README "Webhooks"). */
const DELIVERY: Schema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_type',
    'endpoint_id',
    'status',
    'attempts',
    'last_status_code',
    'last_error',
    'next_attempt_at',
    'delivered_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    event_id: { type: 'string', description: 'The webhook-id header of every attempt.' },
    event_type: { enum: [...WEBHOOK_EVENT_TYPES] },
    endpoint_id: { type: 'string' },
    status: { enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    last_status_code: { type: ['integer', 'null'], description: "The endpoint's status code at the last attempt (null: no answer)." },
    last_error: { type: ['string', 'null'] },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time', description: 'When the next attempt is due (null once delivered or failed).' },
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const DELIVERY_REF = { $ref: '#/components/schemas/WebhookDelivery' };

/** The schema components the webhook paths refer to. */
export const WEBHOOK_COMPONENTS = { WebhookDelivery: DELIVERY };

const query = (name: string, schema: Schema, description: string) => ({ name, in: 'query', required: false, schema, description });

/** The deliveries of the token's platform client: a listing and one by id. */
export function webhookPaths(): Record<string, unknown> {
  return {
    '/v1/webhooks/deliveries': {
      get: {
        summary: "Webhook deliveries of the token's platform client, newest first",
        security: [{ bearer: [] }],
        parameters: [
          query('status', { enum: ['pending', 'delivered', 'failed'] }, 'Only deliveries in this state'),
          query('event', { enum: [...WEBHOOK_EVENT_TYPES] }, 'Only deliveries of this event type'),
          query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 50 }, 'Deliveries per page'),
          query('cursor', { type: 'string' }, 'The next_cursor of the previous page'),
        ],
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['data', 'next_cursor'],
              properties: { data: { type: 'array', items: DELIVERY_REF }, next_cursor: { type: ['string', 'null'] } },
            },
            'One page of deliveries',
          ),
          '400': json(ERROR_REF, 'INVALID_REQUEST: a query parameter is not one the listing takes (details name it)'),
          '401': json(ERROR_REF, 'Missing, expired or invalid token'),
        },
      },
    },
    '/v1/webhooks/deliveries/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: 'One webhook delivery',
        security: [{ bearer: [] }],
        responses: {
          '200': json(DELIVERY_REF, 'The delivery'),
          '401': json(ERROR_REF, 'Missing, expired or invalid token'),
          '404': json(ERROR_REF, "NOT_FOUND: no delivery with this id for the token's platform client"),
        },
      },
    },
  };
}

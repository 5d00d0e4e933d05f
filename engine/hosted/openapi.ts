import type { OpenAPIV3_1 } from 'openapi-types';
import { ERROR_CODES, ERROR_LIMITS, NotFoundError } from '../errors.js';
import { embeddedBodySchema } from './body-schemas.js';
import { connectorTypes, type ConnectorTypeDescription } from './connector-types.js';
import { EXECUTE_REQUEST, EXECUTE_RESULT, executeComponents } from './openapi-execute.js';
import { openObjects } from './openapi-open-objects.js';
import { CONNECTOR_SCHEMA, configSchemas, connectorBody } from './openapi-connector.js';
import { WEBHOOK_COMPONENTS, webhookPaths } from './openapi-webhooks.js';

type Schema = OpenAPIV3_1.SchemaObject;

const errorBody: Schema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable', 'request_id'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CODES) },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        request_id: { type: 'string', description: 'Id of this request, also in the x-request-id header and on its server log lines.' },
        retry_after_ms: { type: 'integer' },
        details: {
          type: 'array',
          maxItems: ERROR_LIMITS.maxDetails,
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
        details_omitted: { type: 'integer', description: 'Problems found beyond the ones listed in details.' },
        upstream: { type: 'object', properties: { status: { type: 'integer' }, message: { type: 'string' }, request_id: { type: 'string' } } },
        sync: { type: 'object', description: 'SEARCH_NOT_READY: the sync state of the entity.' },
        deadline: {
          type: 'object',
          description: 'UPSTREAM_TIMEOUT of a call past its deadline: where its time went, in ms.',
          properties: {
            deadline_ms: { type: 'integer' },
            elapsed_ms: { type: 'integer' },
            waiting_for: {
              enum: ['rate_limiter', 'retry_after', 'backoff', 'attempt', 'refresh'],
              description: 'What the call was doing, or was about to wait for, when it stopped.',
            },
            needed_ms: { type: 'integer', description: 'A wait that would have ended past the deadline, so the call stopped at once.' },
            rate_limiter_ms: { type: 'integer' },
            retry_after_ms: { type: 'integer' },
            backoff_ms: { type: 'integer' },
            refresh_ms: { type: 'integer' },
            attempts: { type: 'integer' },
            attempts_ms: { type: 'integer' },
          },
        },
      },
    },
  },
};

function json(schema: Schema | OpenAPIV3_1.ReferenceObject, description: string): Record<string, unknown> {
  return { description, content: { 'application/json': { schema } } };
}

const errors = {
  '400': json(
    { $ref: '#/components/schemas/Error' },
    'Invalid request, entity, action, params, config or credentials (INVALID_CREDENTIALS also when the upstream refused them at the credentials check); REQUEST_TOO_COMPLEX for a body over the JSON limits',
  ),
  '401': json({ $ref: '#/components/schemas/Error' }, 'Missing, expired or invalid token'),
  '404': json({ $ref: '#/components/schemas/Error' }, 'Unknown connector (or another tenant’s: another user, or another platform client)'),
  '413': json({ $ref: '#/components/schemas/Error' }, 'PAYLOAD_TOO_LARGE: the body is over the size limit'),
  '414': json({ $ref: '#/components/schemas/Error' }, 'URI_TOO_LONG: a path segment is over 100 characters'),
  '415': json({ $ref: '#/components/schemas/Error' }, 'UNSUPPORTED_MEDIA_TYPE: send application/json'),
  '431': json({ $ref: '#/components/schemas/Error' }, 'HEADERS_TOO_LARGE: request line and headers over 16 KB'),
  '503': json(
    { $ref: '#/components/schemas/Error' },
    'SERVICE_UNAVAILABLE (retryable): the process is shutting down, or the database session of the call ended under it',
  ),
};

const CONNECTOR_REF = { $ref: '#/components/schemas/Connector' };
const BEARER = [{ bearer: [] }];

/** What a credentials check answers when the upstream could not say yes or no. */
const CHECK_FAILURES = {
  '502': json(
    { $ref: '#/components/schemas/Error' },
    'The credentials check could not reach a verdict: UPSTREAM_ERROR, HOST_NOT_ALLOWED (retry, or skip the check with check_credentials: false)',
  ),
  '504': json({ $ref: '#/components/schemas/Error' }, 'UPSTREAM_TIMEOUT: the credentials check did not finish in time'),
};

const SYNC_STATUS: Schema = {
  type: 'object',
  required: ['connector_id', 'running', 'next_sync_at', 'interval_ms', 'entities'],
  properties: {
    connector_id: { type: 'string' },
    running: { type: 'boolean', description: 'A pass runs now, in any server process.' },
    next_sync_at: { type: ['string', 'null'], format: 'date-time', description: 'When the next pass is due (null while one runs).' },
    interval_ms: { type: 'integer', description: 'Time between passes.' },
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          entity: { type: 'string' },
          status: { enum: ['running', 'succeeded', 'failed'] },
          mode: { enum: ['full', 'incremental'] },
          records: { type: 'integer', description: 'Records written by the latest pass.' },
          started_at: { type: 'string', format: 'date-time' },
          finished_at: { type: ['string', 'null'], format: 'date-time' },
          last_success_at: { type: ['string', 'null'], format: 'date-time' },
          last_full_at: { type: ['string', 'null'], format: 'date-time' },
          last_error: { type: ['string', 'null'] },
          value_types: {
            type: 'object',
            additionalProperties: { enum: ['number', 'date-time'] },
            description:
              "Entities whose sync plan discovers fields: the value types the last successful pass read from the upstream (path -> type); the manifest's own value_types win over these.",
          },
        },
      },
    },
  },
};

type Operations = Record<string, unknown>;

/** Tokens and connectors; a connector's config is one of the covered types' config schemas. */
function connectorPaths(types: ConnectorTypeDescription[]): Operations {
  return {
    '/v1/auth/token': {
      post: {
        summary: 'Get a scoped token for one external user',
        requestBody: { required: true, content: { 'application/json': { schema: embeddedBodySchema('hosted-token-request') as Schema } } },
        responses: {
          '200': json(
            { type: 'object', properties: { access_token: { type: 'string' }, token_type: { const: 'Bearer' }, expires_in: { type: 'integer' } } },
            'A token',
          ),
          '400': errors['400'],
          '401': errors['401'],
        },
      },
    },
    '/v1/connect/sessions': {
      post: {
        summary: "Create a Connect page link for the token's end user",
        description:
          'A single-use link that works for 30 minutes: the user picks a type, signs in with the upstream or fills in a token form, and the connector is created for them (README "Connect your users").',
        security: BEARER,
        requestBody: { required: true, content: { 'application/json': { schema: embeddedBodySchema('hosted-connect-session') as Schema } } },
        responses: {
          '201': json(
            {
              type: 'object',
              required: ['url', 'expires_at'],
              properties: { url: { type: 'string', format: 'uri' }, expires_at: { type: 'string', format: 'date-time' } },
            },
            'The link to send the user to, and when it stops working',
          ),
          ...errors,
        },
      },
    },
    '/v1/integrations/connectors': {
      post: {
        summary: 'Create a connector',
        description:
          "Checks the body, then runs the type's credentials check (GET /v1/connector-types: `check`) with the credentials unless check_credentials is false, then stores the connector. Refused credentials answer 400 INVALID_CREDENTIALS with the upstream's reason in error.upstream, and nothing is stored.",
        security: BEARER,
        requestBody: { required: true, content: { 'application/json': { schema: connectorBody('hosted-connector-create', types) } } },
        responses: {
          '201': json(CONNECTOR_REF, 'The connector (never its credentials); missing_config names the settings some entities still need'),
          ...errors,
          ...CHECK_FAILURES,
          '409': json({ $ref: '#/components/schemas/Error' }, 'CONNECTOR_LIMIT_REACHED: the end user already holds the most connectors one tenant may hold'),
        },
      },
      get: {
        summary: "List the user's connectors",
        security: BEARER,
        parameters: [{ name: 'connector_type', in: 'query', schema: { type: 'string' } }],
        responses: { '200': json({ type: 'object', properties: { data: { type: 'array', items: CONNECTOR_REF } } }, 'The connectors'), '401': errors['401'] },
      },
    },
    '/v1/integrations/connectors/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { summary: 'Read a connector', security: BEARER, responses: { '200': json(CONNECTOR_REF, 'The connector'), ...errors } },
      patch: {
        summary: 'Change a connector',
        description:
          'New credentials go through the credentials check first (unless check_credentials is false): refused ones answer 400 INVALID_CREDENTIALS and the stored ones stay. New credentials or config start a full sync pass.',
        security: BEARER,
        requestBody: { required: true, content: { 'application/json': { schema: connectorBody('hosted-connector-update', types) } } },
        responses: { '200': json(CONNECTOR_REF, 'The connector'), ...errors, ...CHECK_FAILURES },
      },
      delete: { summary: 'Delete a connector', security: BEARER, responses: { '204': { description: 'Deleted' }, ...errors } },
    },
  };
}

/** Execute (its body and answer from the manifests) and sync. */
function executePaths(): Operations {
  return {
    '/api/v1/connectors/sources/{id}/execute': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        summary: 'Execute an action',
        description: `The body is one ${EXECUTE_REQUEST}.<entity>.<action>; a JSON answer is that action's ${EXECUTE_RESULT}.<entity>.<action> (a download answers the file).`,
        security: BEARER,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${EXECUTE_REQUEST}` } } } },
        responses: {
          '200': {
            description: 'Records and meta, search hits, or the file of a download',
            content: {
              'application/json': { schema: { $ref: `#/components/schemas/${EXECUTE_RESULT}` } },
              'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            },
          },
          '206': { description: 'Part of a file (download with range_header)' },
          ...errors,
          '400': json(
            { $ref: '#/components/schemas/Error' },
            'Invalid request, entity, action, params or config, checked before any upstream call (INVALID_PARAMS names each bad param); REQUEST_TOO_COMPLEX for a body over the JSON limits; UPSTREAM_REJECTED when the upstream refused the params (its 400, 416 or 422; error.upstream quotes its message)',
          ),
          '409': json(
            { $ref: '#/components/schemas/Error' },
            'REAUTH_REQUIRED (authorize again), or SEARCH_NOT_READY (search before the first sync of the entity succeeded; error.sync holds its state)',
          ),
          '429': json({ $ref: '#/components/schemas/Error' }, 'RATE_LIMITED by the upstream (Retry-After and retry_after_ms say when to retry)'),
          '502': json(
            { $ref: '#/components/schemas/Error' },
            'UPSTREAM_ERROR (an upstream 5xx after retries, or an answer that breaks its protocol, such as a body that is not JSON) or PAGINATION_LOOP',
          ),
          '504': json(
            { $ref: '#/components/schemas/Error' },
            'UPSTREAM_TIMEOUT: the upstream did not answer, or the call would pass its deadline (error.deadline says what it waited for)',
          ),
        },
      },
    },
    '/api/v1/connectors/sources/{id}/sync': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        summary: 'Ask for a sync pass of the synchronized copy now',
        security: BEARER,
        requestBody: { required: false, content: { 'application/json': { schema: embeddedBodySchema('hosted-sync-request') as Schema } } },
        responses: { '202': json(SYNC_STATUS, 'The pass is due; the status as it is now'), ...errors },
      },
      get: { summary: 'Sync status: running, next pass, state per entity', security: BEARER, responses: { '200': json(SYNC_STATUS, 'The status'), ...errors } },
    },
  };
}

/** Routes without a token. */
function publicPaths(): Operations {
  return {
    '/v1/connector-types': { get: { summary: 'Connector types, entities, actions and params', responses: { '200': json({ type: 'object' }, 'The types') } } },
    '/v1/connector-types/{type}/openapi.json': {
      get: {
        summary: 'This document for one connector type: its execute requests and answers only',
        parameters: [{ name: 'type', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': json({ type: 'object' }, 'An OpenAPI 3.1 document'),
          '404': json({ $ref: '#/components/schemas/Error' }, 'NOT_FOUND: no connector type of that name'),
        },
      },
    },
    '/healthz': { get: { summary: 'Liveness', responses: { '200': json({ type: 'object' }, 'ok') } } },
    '/metrics': { get: { summary: 'Prometheus metrics', responses: { '200': { description: 'Prometheus text' } } } },
  };
}

/** The documents built so far, per type ('' for all), their server set per request: the manifests are fixed once loaded. */
const documents = new Map<string, OpenAPIV3_1.Document>();

function buildDocument(types: ConnectorTypeDescription[], one: boolean): OpenAPIV3_1.Document {
  const title = one ? `connector-engine hosted API: ${types[0]?.type ?? ''}` : 'connector-engine hosted API';
  const document = {
    openapi: '3.1.0',
    info: { title, version: '1.0.0', description: 'Run named actions on entities of third-party APIs through stored connectors.' },
    servers: [],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: errorBody, Connector: CONNECTOR_SCHEMA, ...configSchemas(types), ...executeComponents(types), ...WEBHOOK_COMPONENTS },
    },
    paths: { ...connectorPaths(types), ...executePaths(), ...webhookPaths(), ...publicPaths() },
  };
  // openapi-types mixes its 3.0 and 3.1 schema types inside request bodies; the shape is 3.1.
  return openObjects(document) as unknown as OpenAPIV3_1.Document;
}

/** The described types a document covers: all ('') or the one named (case-insensitively, as findManifest matches). */
function typesFor(key: string): ConnectorTypeDescription[] {
  const all = connectorTypes();
  if (key === '') return all;
  const types = all.filter((described) => described.type === key);
  if (types.length > 0) return types;
  const known = all.map((described) => described.type).join(', ');
  throw new NotFoundError(`unknown connector type "${key.slice(0, 100)}"; known types: ${known}`, {
    details: [{ path: '/type', message: `must be one of ${known}` }],
  });
}

/**
 * The OpenAPI 3.1 document of the hosted API, generated from the manifests and body schemas: of
 * every connector type, or of one (`type`; an unknown one is NOT_FOUND).
 */
export function openApiDocument(serverUrl: string, type?: string): OpenAPIV3_1.Document {
  const key = type === undefined ? '' : type.toLowerCase();
  let document = documents.get(key);
  if (!document) {
    document = buildDocument(typesFor(key), type !== undefined);
    documents.set(key, document);
  }
  return { ...document, servers: [{ url: serverUrl }] };
}

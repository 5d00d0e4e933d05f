import type { OpenAPIV3_1 } from 'openapi-types';
import { embeddedBodySchema } from './body-schemas.js';
import type { ConnectorTypeDescription } from './connector-types.js';

type Schema = OpenAPIV3_1.SchemaObject;

const NEED: Schema = {
  type: 'object',
  required: ['setting', 'needed_by', 'message'],
  properties: {
    setting: { type: 'string', description: 'The config setting.' },
    needed_by: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      description: 'Entity -> the actions of it that need the setting.',
    },
    find_with: {
      type: 'object',
      description: 'The action whose records hold the values, and the record field that holds one; its value is what the setting takes.',
      properties: { entity: { type: 'string' }, action: { type: 'string' }, field: { type: 'string' } },
    },
    message: { type: 'string', description: 'The same in words.' },
  },
};

/** A connector as every connector route answers it (never its credentials). */
export const CONNECTOR_SCHEMA: Schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    external_user_id: { type: 'string' },
    connector_type: { type: 'string' },
    name: { type: ['string', 'null'] },
    config: { type: 'object', description: 'The settings in force, defaults applied.' },
    auth_scheme: { type: 'string', description: 'The auth scheme the credentials matched.' },
    auth: { type: 'object', description: 'state (active or needs_reauth), since, reason (what the upstream said).' },
    missing_config: {
      type: 'array',
      items: NEED,
      description:
        'Settings that some actions need and this config lacks (empty when none): those actions answer INVALID_CONFIG until a PATCH with the whole config adds them.',
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    sync: { type: 'object', description: 'running, next_sync_at, interval_ms.' },
  },
};

/** Each type's config schema, named ConnectorConfig.<type>, straight from its manifest. */
export function configSchemas(types: ConnectorTypeDescription[]): Record<string, Schema> {
  return Object.fromEntries(types.map((type) => [`ConnectorConfig.${type.type}`, { title: `${type.type} config`, ...type.config } as Schema]));
}

function configText(types: ConnectorTypeDescription[]): string {
  return types
    .map((type) => {
      const settings = Object.keys((type.config.properties ?? {}) as Record<string, unknown>);
      const needs = type.config_needs.map((need) => `; ${need.message}`).join('');
      return `${type.type}: ${settings.length > 0 ? settings.join(', ') : 'none'}${needs}`;
    })
    .join('. ');
}

/**
 * A create or update body as the OpenAPI document shows it: the published JSON Schema, with
 * `config` pointing at every type's config schema and saying which settings some entities need.
 */
export function connectorBody(name: 'hosted-connector-create' | 'hosted-connector-update', types: ConnectorTypeDescription[]): Schema {
  const schema = embeddedBodySchema(name) as Schema;
  const properties = schema.properties as Record<string, Schema>;
  const config = properties.config as Schema;
  const anyOf = types.map((type) => ({ $ref: `#/components/schemas/ConnectorConfig.${type.type}` }));
  return {
    ...schema,
    properties: { ...properties, config: { ...config, description: `${config.description} Settings by type: ${configText(types)}.`, anyOf } },
  };
}

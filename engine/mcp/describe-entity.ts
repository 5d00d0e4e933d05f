import { UnknownEntityError } from '../errors.js';
import type { EntitySpec, JsonSchema } from '../manifest/index.js';
import type { McpConnector } from './mcp-connector.js';
import { schemaProperties } from './schema-parts.js';
import { actionToolName } from './tool-names.js';

/** The actions an entity's tools offer: the manifest's, and `search` where the connector has a copy. */
export function offeredActions(connector: McpConnector, spec: EntitySpec): string[] {
  return [...Object.keys(spec.actions), ...(connector.searchable && spec.sync ? ['search'] : [])];
}

/** The entity's name and spec, or UNKNOWN_ENTITY naming the ones that exist. */
function namedEntity(connector: McpConnector, entity: unknown): [string, EntitySpec] {
  const found = Object.entries(connector.manifest.entities).find(([name]) => name === entity);
  if (found) return found;
  const entities = connector.manifest.entities;
  const known = Object.keys(entities).join(', ');
  throw new UnknownEntityError(`${connector.manifest.type} has no entity ${JSON.stringify(entity)}; entities: ${known}`, {
    details: [{ path: '/entity', message: `must be one of ${known}` }],
  });
}

/** One line per entity: what it is, when to use it, and its tools. */
export function entityList(connector: McpConnector): Record<string, unknown> {
  return {
    connector: connector.title,
    type: connector.manifest.type,
    entities: Object.entries(connector.manifest.entities).map(([name, spec]) => ({
      entity: name,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.agent?.when_to_use ? { when_to_use: spec.agent.when_to_use } : {}),
      tools: offeredActions(connector, spec).map((action) => actionToolName(connector.prefix, name, action)),
    })),
  };
}

/** The record's top-level fields with their types and descriptions, from the record schema. */
function recordFields(record: JsonSchema): Record<string, { type: unknown; description?: string }> {
  const props = schemaProperties(record);
  return Object.fromEntries(
    Object.entries(props).map(([field, schema]) => [
      field,
      { type: schema.type ?? (schema.enum ? 'enum' : 'any'), ...(typeof schema.description === 'string' ? { description: schema.description } : {}) },
    ]),
  );
}

/**
 * Everything an agent needs to call an entity well: its actions with their tools, params and
 * rules, its record fields, and (with a copy) the fields search filters and sorts on.
 */
export function describeEntity(connector: McpConnector, named: unknown, inputSchemas: Map<string, unknown>): Record<string, unknown> {
  const [entity, spec] = namedEntity(connector, named);
  const actions = Object.fromEntries(
    offeredActions(connector, spec).map((action) => {
      const tool = actionToolName(connector.prefix, entity, action);
      const rules = (spec.actions[action]?.rules ?? []).map((rule) => `${rule.name}: ${rule.message}`);
      return [
        action,
        {
          tool,
          ...(spec.actions[action]?.description ? { description: spec.actions[action]?.description } : {}),
          input_schema: inputSchemas.get(tool),
          ...(rules.length ? { rules } : {}),
        },
      ];
    }),
  );
  const searchable =
    connector.searchable && spec.sync
      ? { searchable_fields: spec.sync.searchable, ...(spec.sync.value_types ? { value_types: spec.sync.value_types } : {}) }
      : {};
  return {
    entity,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.agent ? { agent_hints: spec.agent } : {}),
    actions,
    record_fields: recordFields(spec.record),
    ...searchable,
  };
}

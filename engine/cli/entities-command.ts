import { findManifest, type ActionSpec } from '../manifest/index.js';
import type { ConnectorSource } from './connector-source.js';
import { SEARCH_ACTION_DESCRIPTION, searchParamsSchema } from '../sync/index.js';

/** One action as `entities` describes it. */
export interface ActionDescription {
  description?: string;
  params: Record<string, { type?: unknown; required: boolean; description?: string }>;
  rules: string[];
  /** `search` only: the paths compared and sorted by value (the sync plan's value_types). */
  value_types?: Record<string, string>;
  /** `search` only: more value types are read from the upstream at every pass (sync plan discover_fields). */
  discovers_value_types?: true;
}

/** Describes a connector type's entities, actions and params straight from its manifest. */
export function describeEntities(source: ConnectorSource): Record<string, Record<string, ActionDescription>> {
  const { manifest } = typeof source === 'string' ? findManifest(source) : source;
  const out: Record<string, Record<string, ActionDescription>> = {};
  for (const [entity, spec] of Object.entries(manifest.entities)) {
    out[entity] = {};
    const search = searchParamsSchema(spec);
    const actions: Array<[string, Pick<ActionSpec, 'description' | 'params' | 'rules'>]> = Object.entries(spec.actions);
    if (search) actions.push(['search', { description: SEARCH_ACTION_DESCRIPTION, params: search }]);
    for (const [name, action] of actions) {
      const props = (action.params?.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[]; description?: string }>;
      const required = new Set((action.params?.required as string[] | undefined) ?? []);
      out[entity][name] = {
        ...(action.description ? { description: action.description } : {}),
        params: Object.fromEntries(
          Object.entries(props).map(([param, schema]) => [
            param,
            {
              type: schema.type ?? (schema.enum ? 'enum' : 'any'),
              required: required.has(param),
              ...(schema.description ? { description: schema.description } : {}),
            },
          ]),
        ),
        rules: (action.rules ?? []).map((rule) => `${rule.name}: ${rule.message}`),
        ...(name === 'search' && spec.sync?.value_types ? { value_types: { ...spec.sync.value_types } } : {}),
        ...(name === 'search' && spec.sync?.discover_fields ? { discovers_value_types: true as const } : {}),
      };
    }
  }
  return out;
}

/** A plain-text rendering for people at a terminal. */
export function entitiesText(source: ConnectorSource): string {
  const lines: string[] = [];
  for (const [entity, actions] of Object.entries(describeEntities(source))) {
    lines.push(entity);
    for (const [name, action] of Object.entries(actions)) {
      lines.push(`  ${name}${action.description ? ` - ${action.description}` : ''}`);
      for (const [param, info] of Object.entries(action.params)) {
        lines.push(
          `    ${info.required ? '*' : ' '} ${param} (${Array.isArray(info.type) ? info.type.join('|') : String(info.type)})${info.description ? `: ${info.description}` : ''}`,
        );
      }
      for (const rule of action.rules) lines.push(`    rule ${rule}`);
      for (const [path, type] of Object.entries(action.value_types ?? {})) lines.push(`    value type ${path}: ${type}`);
      if (action.discovers_value_types) lines.push('    value types of more fields are read from the upstream at every sync pass (see the sync state)');
    }
  }
  return lines.join('\n');
}

import { configNeeds, shippedManifests, type ConfigNeed, type CredentialsCheckSpec, type Manifest } from '../manifest/index.js';
import { pagingOf, type PagedOrder } from '../runtime/index.js';
import { SEARCH_ACTION_DESCRIPTION, searchParamsSchema } from '../sync/index.js';

/** One connector type as GET /v1/connector-types describes it, straight from its manifest. */
export interface ConnectorTypeDescription {
  type: string;
  name: string;
  version: string;
  docs_url?: string;
  config: Record<string, unknown>;
  auth_schemes: Array<{ name: string; description?: string; credentials: Record<string, unknown> }>;
  /** The read that create and credential PATCH run to check credentials. */
  check: CredentialsCheckSpec;
  /** Config settings some actions need (their `required_config`), which ones, and how to find a value. */
  config_needs: ConfigNeed[];
  entities: Record<
    string,
    {
      description?: string;
      actions: Record<
        string,
        {
          description?: string;
          params: Record<string, unknown>;
          rules: string[];
          pagination_param: string | null;
          pagination_keep_params: string[] | null;
          paged_order?: PagedOrder;
          required_config: string[];
          value_types?: Record<string, string>;
          discovers_value_types?: true;
        }
      >;
    }
  >;
}

function describe(manifest: Manifest): ConnectorTypeDescription {
  const entities: ConnectorTypeDescription['entities'] = {};
  for (const [entity, spec] of Object.entries(manifest.entities)) {
    const actions: ConnectorTypeDescription['entities'][string]['actions'] = {};
    for (const [name, action] of Object.entries(spec.actions)) {
      actions[name] = {
        ...(action.description ? { description: action.description } : {}),
        // No params in the manifest: the engine takes none (runtime/params.ts).
        params: action.params ?? { type: 'object', additionalProperties: false, properties: {} },
        rules: (action.rules ?? []).map((rule) => `${rule.name}: ${rule.message}`),
        // How a client follows pages itself; keyset paging also names the one order it pages in.
        ...pagingOf(action.pagination).describe(),
        required_config: action.request.required_config ?? [],
      };
    }
    const search = searchParamsSchema(spec);
    if (search) {
      // The sync plan's typed paths: search compares and sorts them by value (issue 12).
      const valueTypes = spec.sync?.value_types ? { value_types: { ...spec.sync.value_types } } : {};
      // Types the upstream account defines (custom fields) are read at every pass and shown with the sync state.
      const discovers = spec.sync?.discover_fields ? { discovers_value_types: true as const } : {};
      actions.search = {
        description: SEARCH_ACTION_DESCRIPTION,
        params: search,
        rules: [],
        pagination_param: 'cursor',
        pagination_keep_params: null,
        required_config: [],
        ...valueTypes,
        ...discovers,
      };
    }
    entities[entity] = { ...(spec.description ? { description: spec.description } : {}), actions };
  }
  return {
    type: manifest.type,
    name: manifest.name,
    version: manifest.version,
    ...(manifest.docs_url ? { docs_url: manifest.docs_url } : {}),
    config: manifest.config,
    auth_schemes: manifest.auth.map((scheme) => ({
      name: scheme.name,
      ...(scheme.description ? { description: scheme.description } : {}),
      credentials: scheme.credentials,
    })),
    check: manifest.check,
    config_needs: configNeeds(manifest),
    entities,
  };
}

/** Every shipped connector type, described from the manifests (nothing written twice). */
export function connectorTypes(): ConnectorTypeDescription[] {
  return [...shippedManifests().values()].map(({ manifest }) => describe(manifest));
}

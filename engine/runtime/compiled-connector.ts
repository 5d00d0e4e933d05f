import { lookupHint, type LoadedManifest, type Manifest, type ActionSpec } from '../manifest/index.js';
import { createParamsAjv, type Ajv } from '../manifest/index.js';
import { compileTemplate, type CompiledTemplate } from '../template/index.js';
import { compileRequest, type CompiledRequest } from './build-request.js';
import { compileFile, type CompiledFile } from './download.js';
import { compileExtract, type PageExtractor } from './extract.js';
import { pagingOf, type Paging } from './paging/index.js';
import { compileParams, type ParamsValidator } from './params.js';

/** Everything about one action that can be prepared before the first call. */
export interface CompiledAction {
  entity: string;
  name: string;
  spec: ActionSpec;
  label: string;
  validateParams: ParamsValidator;
  request: CompiledRequest;
  /** How its answers are read (records, meta, paging, field map), compiled once. */
  extract: PageExtractor;
  paging: Paging;
  file?: CompiledFile;
}

/** A manifest with its templates and schemas compiled, shared by every connection of its type. */
export interface CompiledConnector {
  manifest: Manifest;
  file: string;
  ajv: Ajv;
  baseUrl: CompiledTemplate;
  headers: Array<[string, CompiledTemplate]>;
  actions: Map<string, Map<string, CompiledAction>>;
  /** Per entity with `sync.discover_fields`: its discovery request, compiled as a one-page list action. */
  discoveries: Map<string, CompiledAction>;
}

/**
 * A sync plan's discovery request as an action (no params, its definitions as records, one
 * page), so it is sent by the same code as every action: auth, base URL, hosts, limits, retries.
 */
function compileDiscovery(manifest: Manifest, entity: string, ajv: Ajv): CompiledAction | undefined {
  const discover = manifest.entities[entity]?.sync?.discover_fields;
  if (!discover) return undefined;
  const spec: ActionSpec = { request: discover.request, response: { records: discover.items }, pagination: { type: 'none' } };
  const label = `${manifest.type} ${entity} discover_fields`;
  return compileAction(manifest, entity, 'discover_fields', spec, ajv, label);
}

/** Compiles one action: its params check, request templates, answer reading and file step. */
function compileAction(manifest: Manifest, entity: string, name: string, spec: ActionSpec, ajv: Ajv, label: string): CompiledAction {
  return {
    entity,
    name,
    spec,
    label,
    validateParams: compileParams(spec, ajv, label),
    request: compileRequest(spec, (setting) => lookupHint(manifest, setting)),
    extract: compileExtract(spec, manifest.name),
    paging: pagingOf(spec.pagination),
    ...(spec.file ? { file: compileFile(spec.file) } : {}),
  };
}

const cache = new WeakMap<LoadedManifest, CompiledConnector>();

/** Compiles a loaded manifest once (templates, params validators), then serves it from a cache. */
export function compileConnector(loaded: LoadedManifest): CompiledConnector {
  const hit = cache.get(loaded);
  if (hit) return hit;
  const { manifest } = loaded;
  const ajv = createParamsAjv();
  const actions = new Map<string, Map<string, CompiledAction>>();
  for (const [entity, spec] of Object.entries(manifest.entities)) {
    const byName = new Map<string, CompiledAction>();
    for (const [name, action] of Object.entries(spec.actions)) {
      byName.set(name, compileAction(manifest, entity, name, action, ajv, `${manifest.type} ${entity} ${name}`));
    }
    actions.set(entity, byName);
  }
  const discoveries = new Map<string, CompiledAction>();
  for (const entity of Object.keys(manifest.entities)) {
    const discovery = compileDiscovery(manifest, entity, ajv);
    if (discovery) discoveries.set(entity, discovery);
  }
  const compiled: CompiledConnector = {
    manifest,
    file: loaded.file,
    ajv,
    baseUrl: compileTemplate(manifest.base_url),
    headers: Object.entries(manifest.http.headers ?? {}).map(([k, v]) => [k.toLowerCase(), compileTemplate(v)]),
    actions,
    discoveries,
  };
  cache.set(loaded, compiled);
  return compiled;
}

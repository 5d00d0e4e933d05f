import { isErrorCode } from '../errors.js';
import { createStrictAjv, manifestSchema, type Ajv } from './schema-validator.js';
import { templateUsage } from '../template/index.js';
import { checkAccess } from './access-semantics.js';
import { checkAgentSurface } from './agent-semantics.js';
import { checkAuthorization } from './authorization-semantics.js';
import { checkHosts } from './host-checks.js';
import { planReads } from './plan-reads.js';
import type { ActionSpec, AuthScheme, JsonSchema, Manifest, PaginationSpec, SyncPlan, SyncRead, TemplateTree } from './types.js';

type PathPart = string | number;

/** One problem found after the JSON Schema pass, located by its path in the manifest data. */
export interface SemanticProblem {
  path: PathPart[];
  message: string;
}

type Roots = { params?: Set<string>; config: Set<string>; credentials?: Set<string> };

function propertyNames(schema: unknown): Set<string> {
  const props = (schema as JsonSchema | undefined)?.properties;
  return new Set(props && typeof props === 'object' ? Object.keys(props) : []);
}

function requiredNames(schema: unknown): string[] {
  const required = (schema as JsonSchema | undefined)?.required;
  return Array.isArray(required) ? (required as string[]) : [];
}

class Checker {
  readonly problems: SemanticProblem[] = [];
  private readonly configNames: Set<string>;
  private readonly allCredentialNames: Set<string>;
  private readonly ajv: Ajv = createStrictAjv();

  constructor(private readonly manifest: Manifest) {
    this.configNames = propertyNames(manifest.config);
    this.allCredentialNames = new Set(manifest.auth.flatMap((scheme) => [...propertyNames(scheme.credentials)]));
  }

  private report(path: PathPart[], message: string): void {
    this.problems.push({ path, message });
  }

  /** Checks that every variable a template reads is declared where its root says. */
  template(source: unknown, path: PathPart[], roots: Roots): string[][] {
    if (typeof source !== 'string') return [];
    const usage = templateUsage(source);
    for (const problem of usage.problems) this.report(path, problem);
    for (const parts of usage.variables) {
      const [root, name] = parts;
      const declared = root === 'params' || root === 'config' || root === 'credentials' ? roots[root] : undefined;
      if (!declared) {
        this.report(path, `template variable "${parts.join('.')}" is not available here (allowed roots: ${Object.keys(roots).join(', ')})`);
      } else if (name === undefined) {
        if (root !== 'params') this.report(path, `template variable "${root}" must name a field, e.g. ${root}.<name>`);
      } else if (!declared.has(name)) {
        this.report(path, `template variable "${parts.join('.')}" is not declared in the ${root} schema`);
      }
    }
    return usage.variables;
  }

  private templates(tree: TemplateTree | undefined, path: PathPart[], roots: Roots): void {
    if (typeof tree === 'string') this.template(tree, path, roots);
    else if (Array.isArray(tree)) tree.forEach((item, i) => this.templates(item, [...path, i], roots));
    else if (tree && typeof tree === 'object') {
      for (const [key, value] of Object.entries(tree)) this.templates(value, [...path, key], roots);
    }
  }

  run(): SemanticProblem[] {
    const config = { config: this.configNames };
    this.template(this.manifest.base_url, ['base_url'], config);
    this.templates(this.manifest.http.headers, ['http', 'headers'], config);
    this.manifest.auth.forEach((scheme, i) => this.authScheme(scheme, ['auth', i]));
    this.manifest.http.error_map?.forEach((entry, i) => {
      if (!isErrorCode(entry.code)) this.report(['http', 'error_map', i, 'code'], `"${entry.code}" is not an engine error code`);
    });
    const names = new Set<string>();
    this.manifest.auth.forEach((scheme, i) => {
      if (names.has(scheme.name)) this.report(['auth', i, 'name'], `auth scheme "${scheme.name}" is declared twice`);
      names.add(scheme.name);
    });
    this.schemaFields(this.manifest.config, ['config']);
    for (const [setting, field] of Object.entries(this.manifest.config_from_credentials ?? {})) {
      if (!this.configNames.has(setting)) this.report(['config_from_credentials', setting], `"${setting}" is not declared in the config schema`);
      if (!this.allCredentialNames.has(field))
        this.report(['config_from_credentials', setting], `credential field "${field}" is not declared by any auth scheme`);
    }
    for (const [entityName, entity] of Object.entries(this.manifest.entities)) {
      this.compiles(entity.record, ['entities', entityName, 'record']);
      const recordFields = propertyNames(entity.record);
      for (const [actionName, action] of Object.entries(entity.actions)) {
        this.action(action, actionName, recordFields, ['entities', entityName, 'actions', actionName]);
      }
      if (entity.sync) this.syncPlan(entityName, entity.sync);
    }
    this.problems.push(...checkHosts(this.manifest));
    this.problems.push(...checkAccess(this.manifest));
    this.problems.push(...checkAgentSurface(this.manifest));
    return this.problems;
  }

  /**
   * A sync plan must be runnable as written: every read names a list-like action whose params
   * schema accepts the plan's params, templates only use names bound above them, and computed
   * fields are searchable ones. Otherwise the first pass would fail at run time.
   */
  private syncPlan(entityName: string, plan: SyncPlan): void {
    const path: PathPart[] = ['entities', entityName, 'sync'];
    planReads(plan).forEach((read, index) => {
      const readPath: PathPart[] = Array.isArray(plan.read) ? [...path, 'read', index] : [...path, 'read'];
      const bound = new Set<string>();
      (read.for_each ?? []).forEach((partition, level) => {
        this.syncRead(partition, partition.entity, [...readPath, 'for_each', level], bound);
        if (bound.has(partition.as)) this.report([...readPath, 'for_each', level, 'as'], `"${partition.as}" is bound twice`);
        bound.add(partition.as);
      });
      const target = read.entity ?? entityName;
      this.syncRead(read, target, readPath, bound);
      if (plan.incremental) {
        const merged = { ...read.params, ...plan.incremental.params };
        this.syncTemplates(plan.incremental.params, [...path, 'incremental', 'params'], new Set([...bound, 'since']));
        const action = this.manifest.entities[target]?.actions[read.action];
        if (action) this.syncParams(merged, action.params, [...path, 'incremental', 'params']);
      }
    });
    if (plan.children) this.syncRead(plan.children, plan.children.entity, [...path, 'children'], new Set([plan.children.as]));
    for (const name of Object.keys(plan.fields ?? {})) {
      if (!Object.hasOwn(plan.searchable, name)) this.report([...path, 'fields', name], `"${name}" is not a searchable field of ${entityName}`);
    }
    for (const [typedPath, valueType] of Object.entries(plan.value_types ?? {})) {
      const problem = valueTypePathProblem(typedPath, valueType, plan.searchable);
      if (problem) this.report([...path, 'value_types', typedPath], problem);
    }
    (plan.sortable ?? []).forEach((sortPath, i) => {
      const problem = sortablePathProblem(sortPath, plan.searchable);
      if (problem) this.report([...path, 'sortable', i], problem);
    });
    if (plan.discover_fields) this.discoverFields(entityName, plan, [...path, 'discover_fields']);
  }

  /**
   * A discovery must be sendable before any read (its templates read config only, and it is a
   * read), its fields must land in a searchable object field, and every read of the plan must
   * take the joined names in `read_param`; otherwise every pass would fail at its first request.
   */
  private discoverFields(entityName: string, plan: SyncPlan, path: PathPart[]): void {
    const discover = plan.discover_fields!;
    const roots = { config: this.configNames };
    const request = discover.request;
    this.template(request.path, [...path, 'request', 'path'], roots);
    this.templates(request.query, [...path, 'request', 'query'], roots);
    this.templates(request.headers, [...path, 'request', 'headers'], roots);
    this.templates(request.body, [...path, 'request', 'body'], roots);
    if (request.method !== 'GET' && request.read_only !== true) {
      this.report([...path, 'request', 'method'], `discovery must be a read: a ${request.method} needs read_only: true`);
    }
    const under = plan.searchable[discover.under];
    if (under !== 'object') {
      const why = under === undefined ? `is not a searchable field of ${entityName}` : `is a ${under} field`;
      this.report([...path, 'under'], `"${discover.under}" ${why}; discovered fields sit in a searchable object field`);
    }
    planReads(plan).forEach((read, index) => {
      const readPath: PathPart[] = Array.isArray(plan.read) ? [...path.slice(0, -1), 'read', index] : [...path.slice(0, -1), 'read'];
      const target = read.entity ?? entityName;
      const action = this.manifest.entities[target]?.actions[read.action];
      if (!action) return;
      if (!propertyNames(action.params).has(discover.read_param)) {
        this.report([...path, 'read_param'], `"${discover.read_param}" is not a param of ${target} ${read.action} (read by ${readPath.join('.')})`);
      } else if (Object.hasOwn(read.params ?? {}, discover.read_param)) {
        this.report([...readPath, 'params', discover.read_param], `discover_fields sets "${discover.read_param}" on every read; the read must leave it out`);
      } else {
        this.syncParams({ ...read.params, [discover.read_param]: 'name' }, action.params, [...path, 'read_param']);
      }
    });
  }

  private syncRead(read: SyncRead, entity: string, path: PathPart[], bound: Set<string>): void {
    const action = this.manifest.entities[entity]?.actions[read.action];
    if (!this.manifest.entities[entity]) {
      this.report([...path, 'entity'], `sync reads entity "${entity}", which this manifest does not declare`);
    } else if (action?.response.records === undefined) {
      this.report([...path, 'action'], `sync reads "${read.action}", which is not a list-like action of ${entity}`);
    } else {
      this.syncParams(read.params ?? {}, action.params, [...path, 'params']);
    }
    this.syncTemplates(read.params ?? {}, [...path, 'params'], bound);
  }

  /** Template params may only read partition records bound above them (and `since`, where allowed). */
  private syncTemplates(params: Record<string, unknown>, path: PathPart[], bound: Set<string>): void {
    for (const [name, value] of Object.entries(params)) {
      if (typeof value !== 'string') continue;
      const usage = templateUsage(value);
      for (const problem of usage.problems) this.report([...path, name], problem);
      for (const variable of usage.variables) {
        if (!bound.has(variable[0]!)) {
          const known = bound.size > 0 ? [...bound].join(', ') : 'none';
          this.report([...path, name], `template reads "${variable.join('.')}", but only these names are bound here: ${known}`);
        }
      }
    }
  }

  private authScheme(scheme: AuthScheme, path: PathPart[]): void {
    const roots = { config: this.configNames, credentials: propertyNames(scheme.credentials) };
    this.schemaFields(scheme.credentials, [...path, 'credentials']);
    this.templates(scheme.sign as unknown as TemplateTree, [...path, 'sign'], roots);
    if (scheme.base_url_from && !roots.credentials.has(scheme.base_url_from.field)) {
      this.report([...path, 'base_url_from', 'field'], `base_url_from field "${scheme.base_url_from.field}" is not declared in the credentials schema`);
    }
    this.problems.push(...checkAuthorization(scheme, path, this.configNames, (source, at, templateRoots) => this.template(source, at, templateRoots)));
    if (!scheme.oauth2) return;
    const oauth = scheme.oauth2;
    this.template(oauth.token_url, [...path, 'oauth2', 'token_url'], { config: this.configNames });
    this.templates(oauth.body, [...path, 'oauth2', 'body'], roots);
    this.templates(oauth.headers, [...path, 'oauth2', 'headers'], roots);
    this.templates(oauth.client_auth as unknown as TemplateTree, [...path, 'oauth2', 'client_auth'], roots);
    for (const field of ['access_token', 'refresh_token', 'expires_at', ...Object.keys(oauth.response.keep ?? {})]) {
      if (field === 'refresh_token' && !oauth.response.refresh_token) continue;
      if (field === 'expires_at' && !oauth.response.expires_in) continue;
      if (!roots.credentials.has(field)) {
        this.report([...path, 'credentials'], `oauth2 stores "${field}" in the credentials, so the credentials schema must declare it`);
      }
    }
  }

  /**
   * An author's JSON Schema must compile under ajv's strict mode: an unknown keyword is almost
   * always a typo or a YAML flow-mapping comma that split a description in two.
   */
  compiles(schema: unknown, path: PathPart[]): void {
    try {
      this.ajv.compile(schema as object);
    } catch (error) {
      this.report(path, `schema does not compile: ${(error as Error).message}`);
    }
  }

  /** A sync plan's params must pass the action's own params schema, so a pass cannot fail on them. */
  private syncParams(params: Record<string, unknown>, schema: JsonSchema | undefined, path: PathPart[]): void {
    if (!schema) return;
    try {
      const validate = this.ajv.compile(schema);
      if (!validate(params)) {
        for (const error of validate.errors ?? []) {
          // A template's value is only known during the pass; its own check happens then.
          const name = error.instancePath.split('/')[1];
          if (name !== undefined && typeof params[name] === 'string' && (params[name] as string).includes('{{')) continue;
          this.report(path, `sync params ${error.instancePath || '/'} ${error.message ?? 'are invalid'}`);
        }
      }
    } catch {
      // A schema that does not compile is reported by compiles() already.
    }
  }

  /** Every declared field needs a description and every required name must be declared. */
  private schemaFields(schema: JsonSchema | undefined, path: PathPart[]): void {
    if (!schema) return;
    this.compiles(schema, path);
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, prop] of Object.entries(props)) {
      if (typeof prop?.description !== 'string' || prop.description === '') {
        this.report([...path, 'properties', name], `"${name}" needs a description (the schema is the user's reference)`);
      }
    }
    requiredNames(schema).forEach((name, i) => {
      if (!Object.hasOwn(props, name)) this.report([...path, 'required', i], `required "${name}" is not declared in properties`);
    });
  }

  private action(action: ActionSpec, name: string, recordFields: Set<string>, path: PathPart[]): void {
    const params = propertyNames(action.params);
    const required = new Set(requiredNames(action.params));
    this.schemaFields(action.params, [...path, 'params']);
    const roots = { params, config: this.configNames, credentials: this.allCredentialNames };
    const request = action.request;
    for (const parts of this.template(request.path, [...path, 'request', 'path'], roots)) {
      if (parts[0] === 'params' && parts[1] !== undefined && params.has(parts[1]) && !required.has(parts[1])) {
        this.report([...path, 'request', 'path'], `path variable "${parts.join('.')}" must be a required param (a path cannot be built without it)`);
      }
    }
    for (const name of request.required_config ?? []) {
      if (!this.configNames.has(name)) this.report([...path, 'request', 'required_config'], `required_config "${name}" is not declared in the config schema`);
    }
    this.templates(request.query, [...path, 'request', 'query'], roots);
    this.templates(request.headers, [...path, 'request', 'headers'], roots);
    this.templates(request.body, [...path, 'request', 'body'], roots);
    this.rules(action, params, path);
    this.responseShape(action, name, path);
    this.file(action, name, roots, path);
    this.pagination(action, params, path);
    for (const field of Object.keys(action.fields ?? {})) {
      if (!recordFields.has(field)) this.report([...path, 'fields', field], `mapped field "${field}" is not in the entity's record schema`);
    }
  }

  private file(action: ActionSpec, name: string, roots: Roots, path: PathPart[]): void {
    if (name === 'download' && (!action.file || action.response.record === undefined)) {
      this.report(path, 'a download action needs `file` (where the file URL is) and response.record (the record that names it)');
    }
    if (action.file && name !== 'download') this.report([...path, 'file'], 'only a download action can have `file`');
    this.templates(action.file?.headers, [...path, 'file', 'headers'], { params: roots.params ?? new Set(), config: roots.config });
  }

  private rules(action: ActionSpec, params: Set<string>, path: PathPart[]): void {
    action.rules?.forEach((rule, i) => {
      const rulePath = [...path, 'rules', i];
      if (rule.field !== undefined && !params.has(rule.field)) this.report([...rulePath, 'field'], `rule field "${rule.field}" is not a declared param`);
      if ('schema' in rule) {
        this.compiles(rule.schema, [...rulePath, 'schema']);
        for (const name of collectRequired(rule.schema)) {
          if (!params.has(name)) this.report([...rulePath, 'schema'], `rule "${rule.name}" names "${name}", which is not a declared param`);
        }
      } else {
        const head = rule.count.path.split('.')[0] ?? '';
        if (!params.has(head)) this.report([...rulePath, 'count', 'path'], `rule "${rule.name}" counts "${head}", which is not a declared param`);
      }
    });
  }

  private responseShape(action: ActionSpec, name: string, path: PathPart[]): void {
    const { records, record } = action.response;
    if ((records === undefined) === (record === undefined)) {
      this.report([...path, 'response'], 'response needs exactly one of "records" (a list) or "record" (one record)');
    } else if (name === 'get' && record === undefined) {
      this.report([...path, 'response'], 'a get action returns one record: use response.record');
    } else if ((name === 'list' || name === 'api_search') && records === undefined) {
      this.report([...path, 'response'], `a ${name} action returns records: use response.records`);
    }
  }

  private pagination(action: ActionSpec, params: Set<string>, path: PathPart[]): void {
    const pagination = action.pagination;
    if (action.response.records !== undefined && !pagination) {
      this.report([...path], 'a list-like action needs a pagination (use {type: none} when one response holds everything)');
    }
    if (action.response.record !== undefined && pagination && pagination.type !== 'none') {
      this.report([...path, 'pagination'], 'an action returning one record cannot paginate');
    }
    if (!pagination) return;
    for (const { where, name, kind } of paramNames(pagination)) {
      const at = [...path, 'pagination', ...where];
      if (!params.has(name))
        this.report(at, `${where[0] === 'param' ? 'pagination param ' : where[0] === 'keep_params' ? 'keep_params ' : ''}"${name}" is not a declared param`);
      else if (kind === 'integer' && !typedInteger(action, name))
        this.report(at, `"${name}" must be typed integer: meta.next_cursor holds a number and goes back in it`);
    }
  }
}

function collectRequired(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(collectRequired);
  if (!schema || typeof schema !== 'object') return [];
  const own = requiredNames(schema);
  const nested = Object.entries(schema as Record<string, unknown>)
    .filter(([key]) => key !== 'properties' && key !== 'required')
    .flatMap(([, value]) => collectRequired(value));
  const props = (schema as JsonSchema).properties;
  const keys = props && typeof props === 'object' ? Object.keys(props) : [];
  return [...own, ...nested, ...keys];
}

/**
 * The checks JSON Schema cannot express: template variables are declared, referenced params
 * exist, mapped fields exist in the record schema, every list has a pagination story, and the
 * host lists cover the URLs the manifest spells out.
 */
export function checkSemantics(manifest: Manifest): SemanticProblem[] {
  return new Checker(manifest).run();
}

/**
 * Why a `value_types` path cannot be typed, or null: its top name must be a searchable field, a
 * nested path must sit under an object field, and never run through an array field (a search
 * compares one value per record there, which an array cannot give).
 */
function valueTypePathProblem(typedPath: string, valueType: string, searchable: Record<string, string>): string | null {
  const [top = '', ...sub] = typedPath.split('.');
  if (!Object.hasOwn(searchable, top)) return `"${top}" is not a searchable field; searchable fields are: ${Object.keys(searchable).join(', ')}`;
  const type = searchable[top];
  if (type === 'array') return `"${top}" is an array field: value types apply to one value, not through an array`;
  if (sub.length > 0 && type !== 'object') return `"${top}" is a ${type} field and has no sub-fields; a nested path needs an object field`;
  if (sub.length === 0 && (type === 'object' || type === 'boolean'))
    return `"${top}" is a ${type} field: only a string, integer or number value can be typed ${valueType}`;
  return null;
}

/**
 * Why a `sortable` path cannot be sorted by, or null: it must name one value per record, as
 * `search` sorts (engine/search/parse-sort.ts): a top-level scalar field, or a path inside an
 * object field; never an array field or a whole object.
 */
function sortablePathProblem(sortPath: string, searchable: Record<string, string>): string | null {
  const [top = '', ...sub] = sortPath.split('.');
  if (!Object.hasOwn(searchable, top)) return `"${top}" is not a searchable field; searchable fields are: ${Object.keys(searchable).join(', ')}`;
  const type = searchable[top];
  if (type === 'array') return `"${top}" is an array field: a sort needs one value per record`;
  if (sub.length > 0 && type !== 'object') return `"${top}" is a ${type} field and has no sub-fields; a nested path needs an object field`;
  if (sub.length === 0 && type === 'object') return `"${top}" is an object field: sort by a path inside it, such as "${top}.<name>"`;
  return null;
}

interface NamedParam {
  where: PathPart[];
  name: string;
  kind: string;
}

/**
 * The params a pagination spec names, found through the schema's `x-param` annotations of its
 * strategy (nested objects included). Why: a new strategy declares its param-naming properties in
 * the schema alone, and this check covers them.
 */
function paramNames(pagination: PaginationSpec): NamedParam[] {
  const variants = ((manifestSchema().$defs as Record<string, JsonSchema>).pagination?.oneOf ?? []) as JsonSchema[];
  const variant = variants.find((v) => (v.properties as Record<string, JsonSchema> | undefined)?.type?.const === pagination.type);
  return variant ? annotatedParams(variant, pagination, []) : [];
}

function annotatedParams(schema: JsonSchema, value: unknown, where: PathPart[]): NamedParam[] {
  if (!value || typeof value !== 'object') return [];
  const found: NamedParam[] = [];
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const own = (value as Record<string, unknown>)[key];
    const kind = sub['x-param'];
    if (typeof kind === 'string' && typeof own === 'string') found.push({ where: [...where, key], name: own, kind });
    else if (typeof kind === 'string' && Array.isArray(own))
      found.push(...own.filter((n): n is string => typeof n === 'string').map((name) => ({ where: [...where, key], name, kind })));
    else if (sub.properties) found.push(...annotatedParams(sub, own, [...where, key]));
  }
  return found;
}

function typedInteger(action: ActionSpec, name: string): boolean {
  const type = ((action.params?.properties ?? {}) as Record<string, JsonSchema>)[name]?.type;
  return (Array.isArray(type) ? type : [type]).some((t) => t === 'integer');
}

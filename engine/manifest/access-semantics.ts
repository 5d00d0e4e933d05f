import { createStrictAjv } from './schema-validator.js';
import type { ActionSpec, JsonSchema, Manifest } from './types.js';

type PathPart = string | number;

/** One problem, located by its path in the manifest data (as semantics.ts reports them). */
export interface AccessProblem {
  path: PathPart[];
  message: string;
}

function recordFields(manifest: Manifest, entity: string): Set<string> {
  const props = (manifest.entities[entity]?.record as JsonSchema | undefined)?.properties;
  return new Set(props && typeof props === 'object' ? Object.keys(props) : []);
}

function configSchema(manifest: Manifest, setting: string): JsonSchema | undefined {
  return ((manifest.config.properties ?? {}) as Record<string, JsonSchema>)[setting];
}

/**
 * Finds the action an entry names, reporting an unknown entity or action with the names that
 * exist, so that a typo in `check` or `config_lookup` fails at load instead of at create time.
 */
function namedAction(manifest: Manifest, entity: string, action: string, path: PathPart[], problems: AccessProblem[]): ActionSpec | undefined {
  const spec = manifest.entities[entity];
  if (!spec) {
    problems.push({
      path: [...path, 'entity'],
      message: `names entity "${entity}", which this manifest does not declare; entities: ${Object.keys(manifest.entities).join(', ')}`,
    });
    return undefined;
  }
  const found = spec.actions[action];
  if (!found)
    problems.push({
      path: [...path, 'action'],
      message: `names action "${action}", which ${entity} does not have; actions: ${Object.keys(spec.actions).join(', ')}`,
    });
  return found;
}

/**
 * The credentials check must run with the credentials alone, before any setting beyond the
 * defaults is known: a read (GET, or a POST marked read_only), not a download, needing no
 * required_config, with params its own schema accepts.
 */
function checkCredentialsCheck(manifest: Manifest, problems: AccessProblem[]): void {
  const { check } = manifest;
  // A manifest without one already failed the schema, which names the missing key.
  if (!check) return;
  const action = namedAction(manifest, check.entity, check.action, ['check'], problems);
  if (!action) return;
  if (action.file) problems.push({ path: ['check', 'action'], message: 'the check must read records, not download a file' });
  // Only the write verbs: a method the schema refuses is reported there once.
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(action.request.method) && action.request.read_only !== true) {
    problems.push({
      path: ['check', 'action'],
      message: `the check must be a read: ${check.entity} ${check.action} is a ${action.request.method} not marked read_only`,
    });
  }
  const needs = action.request.required_config ?? [];
  if (needs.length > 0)
    problems.push({
      path: ['check', 'action'],
      message: `the check runs with the credentials alone, but ${check.entity} ${check.action} needs config ${needs.join(', ')}`,
    });
  if (!action.params) return;
  try {
    const validate = createStrictAjv().compile(action.params);
    if (validate(check.params ?? {})) return;
    for (const error of validate.errors ?? [])
      problems.push({ path: ['check', 'params'], message: `check params ${error.instancePath || '/'} ${error.message ?? 'are invalid'}` });
  } catch {
    // A params schema that does not compile is reported where it is declared.
  }
}

/** A lookup names a declared setting and a list action (that does not need it) whose records hold it. */
function checkConfigLookups(manifest: Manifest, problems: AccessProblem[]): void {
  for (const [setting, lookup] of Object.entries(manifest.config_lookup ?? {})) {
    const path = ['config_lookup', setting];
    if (!configSchema(manifest, setting)) problems.push({ path, message: `"${setting}" is not declared in the config schema` });
    const action = namedAction(manifest, lookup.entity, lookup.action, path, problems);
    if (!action) continue;
    if (action.response.records === undefined)
      problems.push({ path: [...path, 'action'], message: `${lookup.entity} ${lookup.action} returns one record; a lookup lists the values` });
    if ((action.request.required_config ?? []).includes(setting))
      problems.push({ path: [...path, 'action'], message: `${lookup.entity} ${lookup.action} needs "${setting}" itself, so it cannot find it` });
    if (!recordFields(manifest, lookup.entity).has(lookup.field))
      problems.push({ path: [...path, 'field'], message: `field "${lookup.field}" is not in the record schema of ${lookup.entity}` });
  }
}

/** Exclusion rules read a field of the entity's records and are lifted only by a boolean setting. */
function checkExcludeRules(manifest: Manifest, problems: AccessProblem[]): void {
  for (const [entity, spec] of Object.entries(manifest.entities)) {
    const fields = recordFields(manifest, entity);
    for (const [name, action] of Object.entries(spec.actions)) {
      action.exclude_records?.forEach((rule, index) => {
        const path = ['entities', entity, 'actions', name, 'exclude_records', index];
        if (action.file) problems.push({ path, message: 'a download streams a file; exclude records from the actions that list them' });
        const head = rule.field.split('.')[0] ?? '';
        if (!fields.has(head)) problems.push({ path: [...path, 'field'], message: `"${head}" is not in the record schema of ${entity}` });
        if (rule.unless_config === undefined) return;
        const setting = configSchema(manifest, rule.unless_config);
        if (!setting) problems.push({ path: [...path, 'unless_config'], message: `"${rule.unless_config}" is not declared in the config schema` });
        else if (setting.type !== 'boolean')
          problems.push({ path: [...path, 'unless_config'], message: `"${rule.unless_config}" must be a boolean setting (type: boolean)` });
      });
    }
  }
}

/**
 * Load-time checks of what a connector needs to reach its data: the credentials check, the
 * config lookups, and the record exclusions, so none of them can fail first at call time.
 */
export function checkAccess(manifest: Manifest): AccessProblem[] {
  const problems: AccessProblem[] = [];
  checkCredentialsCheck(manifest, problems);
  checkConfigLookups(manifest, problems);
  checkExcludeRules(manifest, problems);
  return problems;
}

/**
 * The execute body and answer of an OpenAPI document, generated from the manifests of the types it
 * covers, shaped for generators: every valid request matches exactly one variant. An
 * entity/action pair is one variant however many types offer it (its params the union of theirs:
 * a connector id does not say its type), and variants nest by entity then action, each level with
 * a discriminator.
 */
import { findManifest, type EntitySpec } from '../manifest/index.js';
import { bodySchema } from './body-schemas.js';
import type { ConnectorTypeDescription } from './connector-types.js';
import { hoistDefs } from './openapi-defs.js';
import { actionResultSchema, searchResultSchema } from './openapi-results.js';

type Schema = Record<string, unknown>;

/** Component names: a request and its answer, per entity/action and in all. */
export const EXECUTE_REQUEST = 'ExecuteRequest';
export const EXECUTE_RESULT = 'ExecuteResult';

function ref(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}

/** One type's offer of an entity/action: its params, and whether it answers records or a file. */
interface Offer {
  type: string;
  description: string;
  params: string;
  required: boolean;
  result?: string;
}

type ActionDescription = ConnectorTypeDescription['entities'][string]['actions'][string];

/** What an action answers as JSON; `search` is no manifest action (it answers hits from the copy), a download answers bytes. */
function answerSchema(spec: EntitySpec, action: string, recordRef: string): Schema | undefined {
  const declared = spec.actions[action];
  if (!declared) return searchResultSchema(spec);
  return declared.file ? undefined : actionResultSchema(declared, recordRef);
}

/** One action's params (their $defs beside them) and answer, named `<type>.<entity>.<action>...`, and its offer. */
function actionComponents(
  type: string,
  entity: string,
  spec: EntitySpec,
  action: string,
  info: ActionDescription,
): { schemas: Record<string, Schema>; offer: Offer } {
  const name = `${type}.${entity}.${action}`;
  const hoisted = hoistDefs(info.params, name);
  const result = answerSchema(spec, action, `#/components/schemas/${type}.${entity}.Record`);
  // Cross-field rules are checked after the params schema and are not part of it: the text says them.
  const description = [info.description ?? '', ...info.rules.map((rule) => `Rule ${rule}.`)].join(' ').trim();
  const required = Array.isArray(info.params.required) && info.params.required.length > 0;
  return {
    schemas: { ...hoisted.components, [`${name}.Params`]: hoisted.schema, ...(result ? { [`${name}.Result`]: result } : {}) },
    offer: { type, description, params: `${name}.Params`, required, ...(result ? { result: `${name}.Result` } : {}) },
  };
}

/** Records, params and answers of one type; each action's offer is added to `offers` under "<entity> <action>". */
function typeComponents(type: ConnectorTypeDescription, offers: Map<string, Offer[]>): Record<string, Schema> {
  const { manifest } = findManifest(type.type);
  const schemas: Record<string, Schema> = {};
  for (const [entity, described] of Object.entries(type.entities)) {
    const spec = manifest.entities[entity] as EntitySpec;
    schemas[`${type.type}.${entity}.Record`] = { title: `${type.type} ${entity} record`, ...spec.record };
    for (const [action, info] of Object.entries(described.actions)) {
      const made = actionComponents(type.type, entity, spec, action, info);
      Object.assign(schemas, made.schemas);
      offers.set(`${entity} ${action}`, [...(offers.get(`${entity} ${action}`) ?? []), made.offer]);
    }
  }
  return schemas;
}

function oneOrAny(names: string[]): Schema {
  return names.length === 1 ? ref(names[0] as string) : { anyOf: names.map(ref) };
}

/** The one variant of an entity/action: params optional unless every type offering it needs some. */
function variant(entity: string, action: string, offers: Offer[], timeout: Schema): Schema {
  const described = offers.map((offer) => (offers.length > 1 ? `${offer.type}: ${offer.description}` : offer.description));
  const required = offers.every((offer) => offer.required) ? ['entity', 'action', 'params'] : ['entity', 'action'];
  return {
    title: `${entity} ${action}`,
    description: `${described.join(' ')} Connector types: ${offers.map((offer) => offer.type).join(', ')}.`.trim(),
    type: 'object',
    additionalProperties: false,
    required,
    properties: { entity: { const: entity }, action: { const: action }, params: oneOrAny(offers.map((offer) => offer.params)), timeout_ms: timeout },
  };
}

/** `ExecuteRequest` (entities, then their actions, each level with a discriminator) and its variants. */
function requestComponents(offers: Map<string, Offer[]>): Record<string, Schema> {
  const timeout = (bodySchema('hosted-execute-request').properties as Record<string, Schema>).timeout_ms as Schema;
  const schemas: Record<string, Schema> = {};
  const byEntity = new Map<string, Record<string, string>>();
  for (const [key, offered] of offers) {
    const [entity, action] = key.split(' ') as [string, string];
    const name = `${EXECUTE_REQUEST}.${entity}.${action}`;
    schemas[name] = variant(entity, action, offered, timeout);
    byEntity.set(entity, { ...byEntity.get(entity), [action]: `#/components/schemas/${name}` });
  }
  const entities: Record<string, string> = {};
  for (const [entity, mapping] of byEntity) {
    const name = `${EXECUTE_REQUEST}.${entity}`;
    // An object schema naming the entity, as a discriminator's mapping expects, then one of its actions.
    schemas[name] = {
      title: entity,
      type: 'object',
      required: ['entity', 'action'],
      properties: { entity: { const: entity }, action: { enum: Object.keys(mapping) } },
      oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
      discriminator: { propertyName: 'action', mapping },
    };
    entities[entity] = `#/components/schemas/${name}`;
  }
  schemas[EXECUTE_REQUEST] = { oneOf: Object.values(entities).map(($ref) => ({ $ref })), discriminator: { propertyName: 'entity', mapping: entities } };
  return schemas;
}

/** `ExecuteResult.<entity>.<action>` (the answer of every type offering it) and `ExecuteResult`, any of them. */
function resultComponents(offers: Map<string, Offer[]>): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const [key, offered] of offers) {
    const results = offered.flatMap((offer) => (offer.result ? [offer.result] : []));
    if (results.length > 0) schemas[`${EXECUTE_RESULT}.${key.replace(' ', '.')}`] = oneOrAny(results);
  }
  return { ...schemas, [EXECUTE_RESULT]: { anyOf: Object.keys(schemas).map(ref) } };
}

/**
 * Every component the execute route needs for these types: `ExecuteRequest` for its body,
 * `ExecuteResult` for its JSON answer, and the per-type records, params and answers they name.
 */
export function executeComponents(types: ConnectorTypeDescription[]): Record<string, Schema> {
  const offers = new Map<string, Offer[]>();
  const perType = types.map((type) => typeComponents(type, offers));
  return Object.assign({}, ...perType, requestComponents(offers), resultComponents(offers)) as Record<string, Schema>;
}

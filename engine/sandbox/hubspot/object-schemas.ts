/**
 * `GET /crm-object-schemas/v3/schemas[/{objectType}]` and its alias `/crm/v3/schemas[...]`
 * (API-NOTES A1, A3, A4).
 */
import type { FakeRequest } from '../fake-server.js';
import type { ParamMap } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { hubspotError, validationError } from './errors.js';
import { booleanParam, type Parsed } from './read-params.js';
import type { StoredSchema } from './custom-schemas.js';

interface IncludeFlags {
  associations: boolean;
  properties: boolean;
  audit: boolean;
}

function includeFlags(query: ParamMap): Parsed<IncludeFlags> {
  const associations = booleanParam(query, 'includeAssociationDefinitions', true);
  if (!associations.ok) return associations;
  const properties = booleanParam(query, 'includePropertyDefinitions', true);
  if (!properties.ok) return properties;
  const audit = booleanParam(query, 'includeAuditMetadata', true);
  if (!audit.ok) return audit;
  return { ok: true, value: { associations: associations.value, properties: properties.value, audit: audit.value } };
}

/**
 * Renders a schema under the `include*` flags (A3: all default true). Without property or
 * association definitions the arrays are empty (the spec requires them); without audit metadata
 * the created/updated times and user ids are left out.
 */
function renderSchema(schema: StoredSchema, flags: IncludeFlags): Record<string, unknown> {
  const { createdAt, updatedAt, createdByUserId, updatedByUserId, ...rest } = schema;
  const out: Record<string, unknown> = {
    ...rest,
    properties: flags.properties ? schema.properties : [],
    associations: flags.associations ? schema.associations : [],
  };
  if (flags.audit) Object.assign(out, { createdAt, updatedAt, createdByUserId, updatedByUserId });
  return out;
}

/**
 * Lists custom schemas as `{results:[...]}` without paging; `archived=true` returns only the
 * archived ones (spec: "Whether to return only results that have been archived").
 * Why: connectors discover custom object types here.
 */
export function listSchemas(schemas: StoredSchema[], req: FakeRequest): FakeResponse {
  const archived = booleanParam(req.query, 'archived', false);
  if (!archived.ok) return validationError(archived.message, req.requestId);
  const flags = includeFlags(req.query);
  if (!flags.ok) return validationError(flags.message, req.requestId);
  const results = schemas.filter((schema) => schema.archived === archived.value).map((schema) => renderSchema(schema, flags.value));
  return jsonResponse(200, { results });
}

/**
 * One live custom schema by objectTypeId (`2-3508482`), fully-qualified name (`p19936437_car`),
 * or name (`car`). Archived schemas and standard types answer 404 OBJECT_NOT_FOUND [unverified].
 * Why: the schema `get` action.
 */
export function getSchema(schemas: StoredSchema[], req: FakeRequest): FakeResponse {
  const flags = includeFlags(req.query);
  if (!flags.ok) return validationError(flags.message, req.requestId);
  const wanted = (req.params['objectType'] ?? '').toLowerCase();
  const schema = schemas.find(
    (candidate) =>
      !candidate.archived && [candidate.objectTypeId, candidate.fullyQualifiedName, candidate.name, candidate.id].some((key) => key.toLowerCase() === wanted),
  );
  if (!schema) {
    return hubspotError(404, 'OBJECT_NOT_FOUND', `Unable to find object type for ${req.params['objectType'] ?? ''}`, req.requestId);
  }
  return jsonResponse(200, renderSchema(schema, flags.value));
}

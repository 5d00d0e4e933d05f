/**
 * `GET /crm/v3/properties/{objectType}`: the property definitions of an object type, HubSpot's
 * and the portal's own (API-NOTES A4; `Property` of upstream-specs hubspot-crm-schemas-v3).
 */
import type { FakeRequest } from '../fake-server.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import { renderProperty } from './custom-schemas.js';
import { hubspotError, validationError } from './errors.js';
import type { PropertyCatalog } from './property-catalog.js';
import { booleanParam } from './read-params.js';

/** When the fake portal's properties were created (a fixed time, so answers are deterministic). */
const PROPERTIES_CREATED_AT = '2023-01-04T08:00:00.000Z';

/**
 * Lists a type's definitions as `{results:[Property]}` with no paging; `archived=true` lists only
 * archived ones (default false, as the schemas route). The type is named as the object routes
 * accept it (name, type id, fully-qualified name); an unknown one is 404 OBJECT_NOT_FOUND.
 * Why: connectors read the portal's property names and types here.
 */
export function listProperties(catalog: PropertyCatalog, req: FakeRequest): FakeResponse {
  const archived = booleanParam(req.query, 'archived', false);
  if (!archived.ok) return validationError(archived.message, req.requestId);
  const wanted = req.params['objectType'] ?? '';
  const properties = catalog.list(wanted, archived.value);
  if (!properties) return hubspotError(404, 'OBJECT_NOT_FOUND', `Unable to infer object type from: ${wanted}`, req.requestId);
  const results = properties.map((property) =>
    renderProperty(property.def, property.hubspotDefined ? -1 : property.displayOrder, PROPERTIES_CREATED_AT, property.hubspotDefined),
  );
  return jsonResponse(200, { results });
}

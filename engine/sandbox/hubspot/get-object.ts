/**
 * `GET /crm/v3/objects/{objectType}/{objectId}` (API-NOTES A3, A6).
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import { jsonResponse, type FakeResponse } from '../responses.js';
import type { HubspotContext } from './context.js';
import { objectNotFound, validationError } from './errors.js';
import { propertyDef, resolveObjectType } from './object-types.js';
import { readSelection } from './read-params.js';
import { renderRecord } from './render-record.js';

/**
 * Serves one record by id, or by a unique property named in `idProperty` (e.g. `email`).
 * `archived=true` finds only archived records, otherwise only live ones. Unknown ids get a JSON
 * 404 OBJECT_NOT_FOUND (see objectNotFound). A non-unique `idProperty` is a 400 [unverified].
 * Why: the `get` action of every CRM entity.
 */
export function getObject(ctx: HubspotContext, req: FakeRequest): FakeResponse {
  const def = resolveObjectType(req.params['objectType'] ?? '');
  if (!def) return validationError(`Unable to infer object type from: ${req.params['objectType'] ?? ''}`, req.requestId);
  const selection = readSelection(req.query);
  if (!selection.ok) return validationError(selection.message, req.requestId);
  const objectId = req.params['objectId'] ?? '';
  const idProperty = lastParam(req.query, 'idProperty');
  let record;
  if (idProperty === undefined || idProperty === '' || idProperty === 'hs_object_id') {
    record = ctx.data.find(def.name, objectId);
  } else {
    const property = propertyDef(def, idProperty);
    if (!property?.unique) {
      return validationError(`Property ${idProperty} is not a unique identifier property of ${def.name}`, req.requestId);
    }
    record = ctx.data.findByUnique(def.name, idProperty, objectId);
  }
  if (!record || record.archived !== selection.value.archived) return objectNotFound(objectId, req.requestId);
  return jsonResponse(200, renderRecord(ctx.data, def, record, selection.value, true));
}

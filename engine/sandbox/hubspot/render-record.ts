/**
 * Turns stored records into the API's record shapes (API-NOTES A4).
 */
import type { CrmRecord, HistoryEntry, HubspotDataset } from './dataset.js';
import { associationTypeName, resolveObjectType, type ObjectTypeDef } from './object-types.js';

/** What a read asked for. */
export interface RenderOptions {
  /** Undefined: the type's default properties (A4). */
  properties: string[] | undefined;
  propertiesWithHistory: string[];
  /** Requested association types (names, type ids...); unknown ones are ignored (spec). */
  associations: string[];
}

/**
 * The `properties` map: the defaults, or the asked-for properties plus the always-present ones
 * (A4: `createdate`, `hs_object_id` and the last-modified property also appear). Unknown names are
 * ignored (spec). Properties without a value are left out: the real API answers `null` for them,
 * but the spec types values as strings, so the fake omits them (clients must treat absent as null).
 */
export function selectProperties(def: ObjectTypeDef, record: CrmRecord, asked: string[] | undefined): Record<string, string> {
  const names = asked ? new Set([...def.alwaysProperties, ...asked]) : new Set(def.defaultProperties);
  const out: Record<string, string> = {};
  for (const name of [...names].sort()) {
    const value = record.properties[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Histories of the asked properties, newest first. Properties without a stored multi-entry history
 * get one entry: their current value, set when the record was created (or last modified, for the
 * last-modified property).
 */
export function selectHistory(def: ObjectTypeDef, record: CrmRecord, asked: string[]): Record<string, HistoryEntry[]> {
  const out: Record<string, HistoryEntry[]> = {};
  for (const name of asked) {
    const stored = record.history[name];
    if (stored) {
      out[name] = stored.map((entry) => ({ ...entry }));
      continue;
    }
    const value = record.properties[name];
    if (value === undefined) continue;
    const timestamp = name === def.lastModifiedProperty ? record.updatedAt : record.createdAt;
    const source = name === 'hs_object_id' || name === def.lastModifiedProperty || name === def.createdProperty ? { sourceType: 'CALCULATED' } : record.origin;
    out[name] = [{ value, timestamp, ...source }];
  }
  return out;
}

/**
 * A `SimplePublicObjectWithAssociations` (list, get by id) or, without associations, a
 * `SimplePublicObject` (search). Key order follows the spec's examples.
 */
export function renderRecord(
  data: HubspotDataset,
  def: ObjectTypeDef,
  record: CrmRecord,
  options: RenderOptions,
  withAssociations: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: record.id,
    properties: selectProperties(def, record, options.properties),
  };
  if (options.propertiesWithHistory.length > 0) out['propertiesWithHistory'] = selectHistory(def, record, options.propertiesWithHistory);
  out['createdAt'] = record.createdAt;
  out['updatedAt'] = record.updatedAt;
  out['archived'] = record.archived;
  if (record.archivedAt) out['archivedAt'] = record.archivedAt;
  if (withAssociations && options.associations.length > 0) {
    const associations = renderAssociations(data, def, record, options.associations);
    if (Object.keys(associations).length > 0) out['associations'] = associations;
  }
  return out;
}

/**
 * `associations`: per asked type with at least one associated record, `{results:[{id, type}]}`
 * with `type` like `contact_to_company` (A4). Keyed by the target's API name.
 */
function renderAssociations(
  data: HubspotDataset,
  def: ObjectTypeDef,
  record: CrmRecord,
  asked: string[],
): Record<string, { results: Array<{ id: string; type: string }> }> {
  const out: Record<string, { results: Array<{ id: string; type: string }> }> = {};
  for (const name of asked) {
    const target = resolveObjectType(name);
    if (!target || !def.associatesWith.includes(target.name) || out[target.name]) continue;
    const ids = data.associatedIds(def.name, record.id, target.name);
    if (ids.length === 0) continue;
    const type = associationTypeName(def, target);
    out[target.name] = { results: ids.map((id) => ({ id, type })) };
  }
  return out;
}

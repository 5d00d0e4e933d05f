/**
 * The HubSpot fake upstream (the folder's only door).
 */
export { startHubspotFake } from './hubspot-fake.js';
export type { HubspotData, HubspotFake, HubspotFakeOptions, HubspotProperties, HubspotStats } from './hubspot-fake.js';
export type { PropertyDef, PropertyType } from './object-types.js';
export type { CrmRecord, DatasetCounts, HistoryEntry, TypeCounts } from './dataset.js';
export { CAR_FULLY_QUALIFIED_NAME, CAR_OBJECT_TYPE_ID, PORTAL_ID } from './object-types.js';

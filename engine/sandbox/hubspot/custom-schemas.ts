/**
 * The custom object schemas of the fake account (`ObjectSchema`, API-NOTES A4): the live `car`
 * type, whose records are seeded, and one archived type.
 */
import { CAR_FULLY_QUALIFIED_NAME, CAR_OBJECT_TYPE_ID, OBJECT_TYPES, PORTAL_ID, type ObjectTypeDef, type PropertyDef } from './object-types.js';

/** A schema as stored; `properties` are rendered from the object type definition. */
export interface StoredSchema {
  id: string;
  objectTypeId: string;
  fullyQualifiedName: string;
  name: string;
  labels: { singular: string; plural: string };
  description: string;
  primaryDisplayProperty: string;
  secondaryDisplayProperties: string[];
  searchableProperties: string[];
  requiredProperties: string[];
  properties: Array<Record<string, unknown>>;
  associations: Array<{ id: string; fromObjectTypeId: string; toObjectTypeId: string; name: string; createdAt: string; updatedAt: string }>;
  metaType: string;
  archived: boolean;
  restorable: boolean;
  allowsSensitiveProperties: boolean;
  createdAt: string;
  updatedAt: string;
  createdByUserId: number;
  updatedByUserId: number;
}

const SCHEMA_OWNER = 4_117_001;

/**
 * A `Property` as the schemas and properties APIs render it (upstream-specs hubspot-crm-schemas-v3
 * `Property`). On a custom object type every property but the `hs_` ones is the portal's own; on
 * a standard type the caller says which are.
 * Why: the schemas API and `GET /crm/v3/properties/{objectType}` share this shape.
 */
export function renderProperty(
  property: PropertyDef,
  displayOrder: number,
  createdAt: string,
  hubspotDefined = property.name.startsWith('hs_'),
): Record<string, unknown> {
  const archived = property.archivedAt !== undefined;
  return {
    name: property.name,
    label: property.label,
    type: property.type,
    fieldType: property.fieldType,
    groupName: property.groupName,
    description: property.description,
    options: (property.options ?? []).map((value, index) => ({
      label: value.charAt(0).toUpperCase() + value.slice(1),
      value,
      displayOrder: index,
      hidden: false,
    })),
    displayOrder: hubspotDefined ? -1 : displayOrder,
    calculated: false,
    externalOptions: false,
    hasUniqueValue: property.unique === true,
    hidden: property.hidden === true,
    hubspotDefined,
    formField: !hubspotDefined,
    archived,
    ...(archived ? { archivedAt: property.archivedAt } : {}),
    createdAt,
    updatedAt: property.archivedAt ?? createdAt,
    modificationMetadata: { archivable: !hubspotDefined, readOnlyDefinition: hubspotDefined, readOnlyValue: property.name === 'hs_object_id' },
    dataSensitivity: 'non_sensitive',
  };
}

function carSchema(def: ObjectTypeDef): StoredSchema {
  const createdAt = '2023-03-14T09:26:53.589Z';
  const updatedAt = '2024-11-02T16:40:12.031Z';
  return {
    id: CAR_OBJECT_TYPE_ID.slice(2),
    objectTypeId: CAR_OBJECT_TYPE_ID,
    fullyQualifiedName: CAR_FULLY_QUALIFIED_NAME,
    name: 'car',
    labels: { singular: 'Car', plural: 'Cars' },
    description: 'Vehicles sold or serviced, one record per car.',
    primaryDisplayProperty: 'model',
    secondaryDisplayProperties: ['make', 'year'],
    searchableProperties: [...def.searchableProperties],
    requiredProperties: ['make', 'model', 'vin'],
    properties: def.properties.map((property, index) => renderProperty(property, index + 1, createdAt)),
    associations: [
      { id: '105', fromObjectTypeId: CAR_OBJECT_TYPE_ID, toObjectTypeId: '0-1', name: 'car_to_contact', createdAt, updatedAt: createdAt },
      { id: '106', fromObjectTypeId: '0-1', toObjectTypeId: CAR_OBJECT_TYPE_ID, name: 'contact_to_car', createdAt, updatedAt: createdAt },
    ],
    metaType: 'PORTAL_SPECIFIC',
    archived: false,
    restorable: true,
    allowsSensitiveProperties: false,
    createdAt,
    updatedAt,
    createdByUserId: SCHEMA_OWNER,
    updatedByUserId: SCHEMA_OWNER,
  };
}

/** An archived custom type (no records are served for it). */
function boatSchema(): StoredSchema {
  const createdAt = '2023-05-02T11:00:00.000Z';
  const archivedOn = '2024-01-15T08:30:00.000Z';
  const objectTypeId = '2-3508519';
  const boatProperties: PropertyDef[] = [
    { name: 'hull_id', label: 'Hull ID', type: 'string', fieldType: 'text', groupName: 'boat_information', description: '', unique: true },
    { name: 'length_m', label: 'Length (m)', type: 'number', fieldType: 'number', groupName: 'boat_information', description: '' },
  ];
  return {
    id: objectTypeId.slice(2),
    objectTypeId,
    fullyQualifiedName: `p${PORTAL_ID}_boat`,
    name: 'boat',
    labels: { singular: 'Boat', plural: 'Boats' },
    description: 'Retired object type, kept archived.',
    primaryDisplayProperty: 'hull_id',
    secondaryDisplayProperties: [],
    searchableProperties: ['hull_id'],
    requiredProperties: ['hull_id'],
    properties: boatProperties.map((property, index) => renderProperty(property, index + 1, createdAt)),
    associations: [],
    metaType: 'PORTAL_SPECIFIC',
    archived: true,
    restorable: true,
    allowsSensitiveProperties: false,
    createdAt,
    updatedAt: archivedOn,
    createdByUserId: SCHEMA_OWNER,
    updatedByUserId: SCHEMA_OWNER,
  };
}

/**
 * The account's custom schemas: `car` (live) and `boat` (archived).
 * Why: the schemas routes list them and connectors discover custom object types from them.
 */
export function customSchemas(): StoredSchema[] {
  const car = OBJECT_TYPES.find((def) => def.objectTypeId === CAR_OBJECT_TYPE_ID);
  if (!car) throw new Error('car object type missing');
  return [carSchema(car), boatSchema()];
}

/**
 * The HubSpot object types the fake serves, with their properties and per-type defaults
 * (API-NOTES A1, A4, A5).
 */

/** HubSpot property data types (the `type` of a property definition). */
export type PropertyType = 'string' | 'number' | 'datetime' | 'date' | 'enumeration' | 'bool' | 'phone_number';

/** One property of an object type. */
export interface PropertyDef {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: string;
  groupName: string;
  description: string;
  options?: readonly string[];
  /** Usable as `idProperty` on GET by id (A3). */
  unique?: boolean;
  /** A portal's own property on a standard object (`hubspotDefined: false`); never a default property (A4). */
  custom?: boolean;
  /** Hidden in HubSpot's UI (`hidden: true` in the properties API). */
  hidden?: boolean;
  /** Archived definitions are listed only with `archived=true`. */
  archivedAt?: string;
}

/** Everything the fake knows about one object type. */
export interface ObjectTypeDef {
  /** API name used in paths and association keys (`contacts`). */
  name: string;
  /** Word used in association type names (`contact_to_company`). */
  singular: string;
  /** Type id (`0-1`, or `2-<n>` for custom objects). */
  objectTypeId: string;
  /** Every path value that selects this type (A1: names, type ids, fully-qualified names). */
  aliases: readonly string[];
  /** Creation-time property: `createdate`, or `hs_createdate` on custom objects [unverified]. */
  createdProperty: string;
  /** A4: `lastmodifieddate` for contacts, `hs_lastmodifieddate` for other objects. */
  lastModifiedProperty: string;
  /** A4: returned when no `properties` are asked for (list, get and search alike). */
  defaultProperties: readonly string[];
  /** A4: `createdate`, `hs_object_id` and the last-modified property always appear. */
  alwaysProperties: readonly string[];
  /** A5: properties the search `query` looks through. */
  searchableProperties: readonly string[];
  properties: readonly PropertyDef[];
  /** Types this one has associations with. */
  associatesWith: readonly string[];
}

/** Portal id of the fake account; custom object names are `p<portalId>_<name>` (A1). */
export const PORTAL_ID = 19936437;
/** The seeded custom object type (`car`). */
export const CAR_OBJECT_TYPE_ID = '2-3508482';
export const CAR_FULLY_QUALIFIED_NAME = `p${PORTAL_ID}_car`;

const text = (name: string, label: string, groupName: string, extra: Partial<PropertyDef> = {}): PropertyDef => ({
  name,
  label,
  type: 'string',
  fieldType: 'text',
  groupName,
  description: '',
  ...extra,
});
const number = (name: string, label: string, groupName: string): PropertyDef => ({
  name,
  label,
  type: 'number',
  fieldType: 'number',
  groupName,
  description: '',
});
const datetime = (name: string, label: string, groupName: string): PropertyDef => ({
  name,
  label,
  type: 'datetime',
  fieldType: 'date',
  groupName,
  description: '',
});
const enumeration = (name: string, label: string, groupName: string, options: readonly string[]): PropertyDef => ({
  name,
  label,
  type: 'enumeration',
  fieldType: 'select',
  groupName,
  description: '',
  options,
});
const objectId = (groupName: string): PropertyDef => ({
  name: 'hs_object_id',
  label: 'Record ID',
  type: 'number',
  fieldType: 'number',
  groupName,
  description: 'The unique ID for this record. This value is set automatically by HubSpot.',
  unique: true,
});

export const LIFECYCLE_STAGES = ['subscriber', 'lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer'] as const;
export const DEAL_STAGES = [
  'appointmentscheduled',
  'qualifiedtobuy',
  'presentationscheduled',
  'decisionmakerboughtin',
  'contractsent',
  'closedwon',
  'closedlost',
] as const;
export const TICKET_STAGES = ['1', '2', '3', '4'] as const;
export const TICKET_CATEGORIES = ['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY'] as const;
export const TICKET_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const;
export const CAR_COLORS = ['red', 'blue', 'black', 'white', 'silver', 'green'] as const;

const contacts: ObjectTypeDef = {
  name: 'contacts',
  singular: 'contact',
  objectTypeId: '0-1',
  aliases: ['contacts', 'contact', '0-1'],
  createdProperty: 'createdate',
  lastModifiedProperty: 'lastmodifieddate',
  defaultProperties: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
  alwaysProperties: ['createdate', 'hs_object_id', 'lastmodifieddate'],
  // A5 [doc]: the default searchable contact properties include these (the others are never seeded).
  searchableProperties: ['firstname', 'lastname', 'email', 'phone', 'company'],
  properties: [
    text('email', 'Email', 'contactinformation', { unique: true }),
    text('firstname', 'First Name', 'contactinformation'),
    text('lastname', 'Last Name', 'contactinformation'),
    text('phone', 'Phone Number', 'contactinformation'),
    text('company', 'Company Name', 'contactinformation'),
    text('jobtitle', 'Job Title', 'contactinformation'),
    text('city', 'City', 'contactinformation'),
    text('country', 'Country/Region', 'contactinformation'),
    enumeration('lifecyclestage', 'Lifecycle Stage', 'contactinformation', LIFECYCLE_STAGES),
    datetime('createdate', 'Create Date', 'contactinformation'),
    datetime('lastmodifieddate', 'Last Modified Date', 'contactinformation'),
    objectId('contactinformation'),
  ],
  associatesWith: ['companies', 'deals', 'tickets', CAR_FULLY_QUALIFIED_NAME],
};

const companies: ObjectTypeDef = {
  name: 'companies',
  singular: 'company',
  objectTypeId: '0-2',
  aliases: ['companies', 'company', '0-2'],
  createdProperty: 'createdate',
  lastModifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
  alwaysProperties: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  searchableProperties: ['website', 'phone', 'name', 'domain'],
  properties: [
    text('name', 'Company name', 'companyinformation'),
    text('domain', 'Company Domain Name', 'companyinformation'),
    text('website', 'Website URL', 'companyinformation'),
    text('industry', 'Industry', 'companyinformation'),
    text('phone', 'Phone Number', 'companyinformation'),
    text('city', 'City', 'companyinformation'),
    text('country', 'Country/Region', 'companyinformation'),
    number('numberofemployees', 'Number of Employees', 'companyinformation'),
    number('annualrevenue', 'Annual Revenue', 'companyinformation'),
    datetime('createdate', 'Create Date', 'companyinformation'),
    datetime('hs_lastmodifieddate', 'Last Modified Date', 'companyinformation'),
    objectId('companyinformation'),
  ],
  associatesWith: ['contacts', 'deals', 'tickets'],
};

const deals: ObjectTypeDef = {
  name: 'deals',
  singular: 'deal',
  objectTypeId: '0-3',
  aliases: ['deals', 'deal', '0-3'],
  createdProperty: 'createdate',
  lastModifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['amount', 'closedate', 'createdate', 'dealname', 'dealstage', 'hs_lastmodifieddate', 'hs_object_id', 'pipeline'],
  alwaysProperties: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  searchableProperties: ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype'],
  properties: [
    text('dealname', 'Deal Name', 'dealinformation'),
    number('amount', 'Amount', 'dealinformation'),
    datetime('closedate', 'Close Date', 'dealinformation'),
    enumeration('pipeline', 'Pipeline', 'dealinformation', ['default']),
    enumeration('dealstage', 'Deal Stage', 'dealinformation', DEAL_STAGES),
    enumeration('dealtype', 'Deal Type', 'dealinformation', ['newbusiness', 'existingbusiness']),
    text('description', 'Deal Description', 'dealinformation'),
    datetime('createdate', 'Create Date', 'dealinformation'),
    datetime('hs_lastmodifieddate', 'Last Modified Date', 'dealinformation'),
    objectId('dealinformation'),
  ],
  associatesWith: ['contacts', 'companies', 'tickets'],
};

const tickets: ObjectTypeDef = {
  name: 'tickets',
  singular: 'ticket',
  objectTypeId: '0-5',
  aliases: ['tickets', 'ticket', '0-5'],
  createdProperty: 'createdate',
  lastModifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: [
    'content',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_category',
    'hs_ticket_priority',
    'subject',
  ],
  alwaysProperties: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  searchableProperties: ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category', 'hs_ticket_id'],
  properties: [
    text('subject', 'Ticket name', 'ticketinformation'),
    text('content', 'Ticket description', 'ticketinformation', { fieldType: 'textarea' }),
    enumeration('hs_pipeline', 'Pipeline', 'ticketinformation', ['0']),
    enumeration('hs_pipeline_stage', 'Ticket status', 'ticketinformation', TICKET_STAGES),
    enumeration('hs_ticket_category', 'Category', 'ticketinformation', TICKET_CATEGORIES),
    enumeration('hs_ticket_priority', 'Priority', 'ticketinformation', TICKET_PRIORITIES),
    number('hs_ticket_id', 'Ticket ID', 'ticketinformation'),
    datetime('createdate', 'Create date', 'ticketinformation'),
    datetime('hs_lastmodifieddate', 'Last Modified Date', 'ticketinformation'),
    objectId('ticketinformation'),
  ],
  associatesWith: ['contacts', 'companies', 'deals'],
};

const cars: ObjectTypeDef = {
  name: CAR_FULLY_QUALIFIED_NAME,
  singular: 'car',
  objectTypeId: CAR_OBJECT_TYPE_ID,
  aliases: [CAR_FULLY_QUALIFIED_NAME, CAR_OBJECT_TYPE_ID],
  createdProperty: 'hs_createdate',
  lastModifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  alwaysProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  searchableProperties: ['make', 'model', 'vin'],
  properties: [
    text('make', 'Make', 'car_information'),
    text('model', 'Model', 'car_information'),
    number('year', 'Year', 'car_information'),
    text('vin', 'VIN', 'car_information', { unique: true, description: 'Vehicle identification number.' }),
    enumeration('color', 'Color', 'car_information', CAR_COLORS),
    number('price', 'Price', 'car_information'),
    datetime('hs_createdate', 'Object create date/time', 'car_information'),
    datetime('hs_lastmodifieddate', 'Object last modified date/time', 'car_information'),
    objectId('car_information'),
  ],
  associatesWith: ['contacts'],
};

/** All served object types, in seeding order. */
export const OBJECT_TYPES: readonly ObjectTypeDef[] = [contacts, companies, deals, tickets, cars];

/**
 * Resolves a path's `objectType` (name, singular, type id or fully-qualified name; A1).
 * Why: clients address the same type in several ways and all must reach the same records.
 */
export function resolveObjectType(value: string): ObjectTypeDef | undefined {
  const wanted = value.toLowerCase();
  return OBJECT_TYPES.find((def) => def.aliases.includes(wanted));
}

/**
 * The property definition of `name` on `def`.
 * Why: search compares numbers and dates by value, not as text, so it needs the property type.
 */
export function propertyDef(def: ObjectTypeDef, name: string): PropertyDef | undefined {
  return def.properties.find((property) => property.name === name);
}

/**
 * The association type name between two types (`contact_to_company`, A4).
 * Why: association entries carry this `type` and connectors map on it.
 */
export function associationTypeName(from: ObjectTypeDef, to: ObjectTypeDef): string {
  return `${from.singular}_to_${to.singular}`;
}

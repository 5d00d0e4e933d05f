/**
 * The property definitions of one fake portal, per object type: HubSpot's own (the object types'
 * properties) and the portal's custom ones. Each fake holds its own copy, so a test can change a
 * property's type or add one, as a HubSpot admin would, without touching other fakes.
 */
import { CUSTOM_PROPERTIES } from './custom-properties.js';
import { OBJECT_TYPES, resolveObjectType, type ObjectTypeDef, type PropertyDef, type PropertyType } from './object-types.js';

/** A definition with its place in the portal. */
export interface CatalogProperty {
  def: PropertyDef;
  hubspotDefined: boolean;
  displayOrder: number;
}

/** Mutable property definitions keyed by object type name. */
export class PropertyCatalog {
  private readonly byType = new Map<string, CatalogProperty[]>();

  constructor() {
    for (const type of OBJECT_TYPES) {
      // On a custom object type only the `hs_` properties are HubSpot's (as the schemas API says).
      const customType = type.objectTypeId.startsWith('2-');
      const own = type.properties.map((def, index) => ({
        def: { ...def },
        hubspotDefined: customType ? def.name.startsWith('hs_') : true,
        displayOrder: index + 1,
      }));
      const extra = (CUSTOM_PROPERTIES[type.name] ?? []).map((def, index) => ({
        def: { ...def },
        hubspotDefined: false,
        displayOrder: own.length + index + 1,
      }));
      this.byType.set(type.name, [...own, ...extra]);
    }
  }

  /**
   * The definitions of a type (any alias), live ones or archived ones; undefined for an unknown type.
   * Why: the properties route lists them.
   */
  list(typeName: string, archived: boolean): CatalogProperty[] | undefined {
    const type = resolveObjectType(typeName);
    const all = type ? this.byType.get(type.name) : undefined;
    return all?.filter((property) => (property.def.archivedAt !== undefined) === archived);
  }

  /**
   * The type as the portal defines it now: its live property definitions replace the built-in list.
   * Why: search accepts custom properties and compares values by their current types.
   */
  portalView(type: ObjectTypeDef): ObjectTypeDef {
    return { ...type, properties: (this.list(type.name, false) ?? []).map((property) => property.def) };
  }

  /**
   * Changes a property's type (and field type), as an admin editing it in HubSpot would.
   * Why: a sync must pick up a changed type at its next pass.
   */
  setType(typeName: string, name: string, type: PropertyType, fieldType: string = type === 'number' ? 'number' : 'text'): void {
    const property = this.find(typeName, name);
    if (!property) throw new Error(`no property ${name} on ${typeName}`);
    property.def = { ...property.def, type, fieldType };
  }

  /**
   * Adds a custom property definition (hubspotDefined false).
   * Why: a sync must discover properties created after its last pass.
   */
  add(typeName: string, def: PropertyDef): void {
    const list = this.requireType(typeName);
    if (list.some((property) => property.def.name === def.name)) throw new Error(`property ${def.name} already exists on ${typeName}`);
    list.push({ def: { ...def, custom: true }, hubspotDefined: false, displayOrder: list.length + 1 });
  }

  private find(typeName: string, name: string): CatalogProperty | undefined {
    return this.requireType(typeName).find((property) => property.def.name === name);
  }

  private requireType(typeName: string): CatalogProperty[] {
    const type = resolveObjectType(typeName);
    const list = type ? this.byType.get(type.name) : undefined;
    if (!list) throw new Error(`unknown object type ${typeName}`);
    return list;
  }
}

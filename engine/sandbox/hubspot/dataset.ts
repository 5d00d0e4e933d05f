/**
 * The in-memory store of seeded HubSpot records and their associations.
 */
import { OBJECT_TYPES, resolveObjectType, type ObjectTypeDef } from './object-types.js';

/** One entry of a property's history (`ValueWithTimestamp`, A4). */
export interface HistoryEntry {
  value: string;
  timestamp: string;
  sourceType: string;
  sourceId?: string;
  updatedByUserId?: number;
}

/** Where a record's values came from; the source of its single-entry histories. */
export interface RecordOrigin {
  sourceType: string;
  sourceId?: string;
  updatedByUserId?: number;
}

/** A stored CRM record. Property values are always strings (A4). */
export interface CrmRecord {
  id: string;
  numericId: number;
  properties: Record<string, string>;
  /** Multi-entry histories of the properties that changed over time, newest first. */
  history: Record<string, HistoryEntry[]>;
  origin: RecordOrigin;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

/** Counts under every type name and id; the standard types are always present. */
export type DatasetCounts = Record<string, TypeCounts> & Record<'contacts' | 'companies' | 'deals' | 'tickets', TypeCounts>;

interface Collection {
  def: ObjectTypeDef;
  live: CrmRecord[];
  archived: CrmRecord[];
  byId: Map<string, CrmRecord>;
  uniqueIndexes: Map<string, Map<string, CrmRecord>>;
}

/** Active (not archived) and archived record counts of one type. */
export interface TypeCounts {
  active: number;
  archived: number;
}

/**
 * Records by type, ordered by id, plus a symmetric association index.
 * Reads only: the fake serves the read side of the CRM API (A3).
 */
export class HubspotDataset {
  private readonly collections = new Map<string, Collection>();
  /** type -> record id -> associated type -> associated ids. */
  private readonly links = new Map<string, Map<string, Map<string, string[]>>>();

  constructor() {
    for (const def of OBJECT_TYPES) {
      this.collections.set(def.name, { def, live: [], archived: [], byId: new Map(), uniqueIndexes: new Map() });
    }
  }

  /**
   * Adds a record (ids must ascend within a type).
   * Why: list paging walks records in id order with an id cursor.
   */
  add(typeName: string, record: CrmRecord): void {
    const collection = this.collection(typeName);
    const list = record.archived ? collection.archived : collection.live;
    const last = list[list.length - 1];
    if (last && last.numericId >= record.numericId) throw new Error(`ids must ascend in ${typeName}`);
    list.push(record);
    collection.byId.set(record.id, record);
    collection.uniqueIndexes.clear();
  }

  /**
   * Archives a live record or restores an archived one, keeping both lists in id order.
   * Why: in HubSpot a deleted record moves to the archive (list with archived=true); tests use
   * this to make records disappear upstream between two sync passes.
   */
  setArchived(typeName: string, id: string, archived: boolean, at = new Date().toISOString()): void {
    const collection = this.collection(typeName);
    const record = collection.byId.get(id);
    if (!record || record.archived === archived) return;
    const from = archived ? collection.live : collection.archived;
    const to = archived ? collection.archived : collection.live;
    from.splice(from.indexOf(record), 1);
    const position = to.findIndex((other) => other.numericId > record.numericId);
    to.splice(position === -1 ? to.length : position, 0, record);
    record.archived = archived;
    if (archived) record.archivedAt = at;
    else delete record.archivedAt;
    collection.uniqueIndexes.clear();
  }

  /**
   * Sets or clears one property value of a record (live or archived).
   * Why: tests change values upstream between two sync passes, as a user would in the app.
   */
  setProperty(typeName: string, id: string, name: string, value: string | undefined): void {
    const collection = this.collection(typeName);
    const record = collection.byId.get(id);
    if (!record) throw new Error(`no ${typeName} record ${id}`);
    if (value === undefined) delete record.properties[name];
    else record.properties[name] = value;
    collection.uniqueIndexes.clear();
  }

  /**
   * Associates two records both ways.
   * Why: HubSpot associations are symmetric (a contact's company lists the contact).
   */
  associate(fromType: string, fromId: string, toType: string, toId: string): void {
    this.link(fromType, fromId, toType, toId);
    this.link(toType, toId, fromType, fromId);
  }

  /** Live or archived records of a type (any alias: `contacts`, `0-1`...), in id order. Why: list and search read them. */
  records(typeName: string, archived = false): readonly CrmRecord[] {
    const collection = this.collection(typeName);
    return archived ? collection.archived : collection.live;
  }

  /** A record by id, live or archived. Why: GET by id decides 404 itself from `archived`. */
  find(typeName: string, id: string): CrmRecord | undefined {
    return this.collection(typeName).byId.get(id);
  }

  /**
   * A record by the value of a unique property (case-insensitive, as HubSpot treats emails).
   * Why: GET by id supports `idProperty` (A3).
   */
  findByUnique(typeName: string, property: string, value: string): CrmRecord | undefined {
    const collection = this.collection(typeName);
    let index = collection.uniqueIndexes.get(property);
    if (!index) {
      index = new Map();
      for (const record of [...collection.live, ...collection.archived]) {
        const key = record.properties[property];
        if (key !== undefined) index.set(key.toLowerCase(), record);
      }
      collection.uniqueIndexes.set(property, index);
    }
    return index.get(value.toLowerCase());
  }

  /** Ids of records of `toType` associated with a record, ascending. Why: the `associations` parameter. */
  associatedIds(typeName: string, id: string, toType: string): string[] {
    const from = resolveObjectType(typeName)?.name ?? typeName;
    const to = resolveObjectType(toType)?.name ?? toType;
    const ids = this.links.get(from)?.get(id)?.get(to);
    if (!ids) return [];
    return [...ids].sort((a, b) => Number(a) - Number(b));
  }

  /**
   * Record counts keyed by type name and by type id (`contacts` and `0-1`, `p19936437_car` and
   * `2-3508482`). Why: tests compare what a client read with what was seeded, under either key.
   */
  counts(): DatasetCounts {
    const out = {} as DatasetCounts;
    for (const [name, collection] of this.collections) {
      const counts = { active: collection.live.length, archived: collection.archived.length };
      out[name] = counts;
      out[collection.def.objectTypeId] = { ...counts };
    }
    return out;
  }

  private collection(typeName: string): Collection {
    const collection = this.collections.get(resolveObjectType(typeName)?.name ?? typeName);
    if (!collection) throw new Error(`unknown object type ${typeName}`);
    return collection;
  }

  private link(fromType: string, fromId: string, toType: string, toId: string): void {
    let byId = this.links.get(fromType);
    if (!byId) {
      byId = new Map();
      this.links.set(fromType, byId);
    }
    let byType = byId.get(fromId);
    if (!byType) {
      byType = new Map();
      byId.set(fromId, byType);
    }
    const ids = byType.get(toType);
    if (!ids) byType.set(toType, [toId]);
    else if (!ids.includes(toId)) ids.push(toId);
  }
}

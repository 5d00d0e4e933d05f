import { pathReader } from '../http/index.js';
import type { FieldMapping } from '../manifest/index.js';
import type { RecordData } from './record-data.js';

/** Applies an action's field mappings to one record of a freshly parsed answer. */
export type FieldMap = (record: RecordData) => RecordData;

type Transform = (value: unknown) => unknown;

const TRANSFORMS: Record<NonNullable<FieldMapping['transform']>, Transform> = {
  epoch_ms: (value) => {
    const ms = typeof value === 'number' ? value : Date.parse(String(value));
    return Number.isNaN(ms) ? null : ms;
  },
  number: (value) => {
    const n = Number(value);
    return Number.isNaN(n) ? null : n;
  },
  string: (value) => String(value),
  lower: (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  upper: (value) => (typeof value === 'string' ? value.toUpperCase() : value),
};

/** One mapping as a read of the record's value for its field: source, transform and default. */
function compileMapping(name: string, mapping: FieldMapping): (record: RecordData) => unknown {
  const source = mapping.from !== undefined ? pathReader(mapping.from) : (record: RecordData) => record[name];
  const transform = mapping.transform !== undefined ? TRANSFORMS[mapping.transform] : undefined;
  const read = transform
    ? (record: RecordData) => {
        const value = source(record);
        return value === undefined || value === null ? value : transform(value);
      }
    : source;
  if (!('default' in mapping)) return read;
  const fallback = mapping.default;
  return (record) => read(record) ?? fallback;
}

const asIs: FieldMap = (record) => record;

/**
 * Compiles an action's field mappings once at load: each mapping becomes one read (its source
 * path split once, its transform and default chosen once). The mapped record is the parsed one,
 * changed in place: it belongs to this call's answer alone, so copying it would only cost. Every
 * mapping reads the record as the upstream sent it (all values are read before any is written),
 * and fields no mapping names pass through unchanged. An action without mappings returns the
 * parsed records as they are.
 */
export function compileFieldMap(fields: Record<string, FieldMapping> | undefined): FieldMap {
  const entries = Object.entries(fields ?? {});
  if (entries.length === 0) return asIs;
  const names = entries.map(([name]) => name);
  const reads = entries.map(([name, mapping]) => compileMapping(name, mapping));
  // One scratch array reused by every record: mapping is synchronous, so no two records share it at once.
  const values: unknown[] = new Array<unknown>(reads.length);
  return (record) => {
    for (let i = 0; i < reads.length; i++) values[i] = (reads[i] as (record: RecordData) => unknown)(record);
    for (let i = 0; i < names.length; i++) {
      const value = values[i];
      if (value !== undefined) record[names[i] as string] = value;
      values[i] = undefined;
    }
    return record;
  };
}

/**
 * Query parameters shared by the HubSpot read routes (A3), validated once.
 */
import { lastParam, listParam, type ParamMap } from '../param-map.js';

/** A parsed value, or the message of a 400 VALIDATION_ERROR. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Parses an optional boolean parameter (`true`/`false`, any case).
 * Why: `archived` and the schema `include*` flags are booleans (spec); other text is a 400.
 */
export function booleanParam(query: ParamMap, name: string, fallback: boolean): Parsed<boolean> {
  const raw = lastParam(query, name);
  if (raw === undefined || raw === '') return { ok: true, value: fallback };
  const lower = raw.toLowerCase();
  if (lower === 'true') return { ok: true, value: true };
  if (lower === 'false') return { ok: true, value: false };
  return { ok: false, message: `Invalid value for query parameter ${name}: expected a boolean, got '${raw}'` };
}

/**
 * Parses an optional integer parameter.
 * Why: `limit` is an int32 (spec); non-numbers are a 400 rather than silently defaulted.
 */
export function integerParam(query: ParamMap, name: string, fallback: number): Parsed<number> {
  const raw = lastParam(query, name);
  if (raw === undefined || raw === '') return { ok: true, value: fallback };
  if (!/^-?\d{1,9}$/.test(raw.trim())) {
    return { ok: false, message: `Invalid value for query parameter ${name}: expected an integer, got '${raw}'` };
  }
  return { ok: true, value: Number(raw.trim()) };
}

/** The property/association selection of a read request. */
export interface ReadSelection {
  /** Undefined when the client did not choose properties (defaults apply, A4). */
  properties: string[] | undefined;
  propertiesWithHistory: string[];
  associations: string[];
  archived: boolean;
}

/**
 * Parses `properties`, `propertiesWithHistory`, `associations` and `archived` (A3).
 * Why: list and get by id accept the same selection parameters.
 */
export function readSelection(query: ParamMap): Parsed<ReadSelection> {
  const archived = booleanParam(query, 'archived', false);
  if (!archived.ok) return archived;
  const properties = listParam(query, 'properties');
  return {
    ok: true,
    value: {
      properties: properties && properties.length > 0 ? properties : undefined,
      propertiesWithHistory: listParam(query, 'propertiesWithHistory') ?? [],
      associations: listParam(query, 'associations') ?? [],
      archived: archived.value,
    },
  };
}

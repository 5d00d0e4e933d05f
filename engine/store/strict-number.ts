import type Database from 'better-sqlite3';
import { SQLITE_INSTANT_FUNCTION, strictInstantOf } from './strict-instant.js';

/**
 * The strict decimal rule for number-typed fields (issue 12 §1): optional sign, 1 to 30 digits,
 * an optional fraction of 1 to 30 digits, an optional exponent of 1 or 2 digits, nothing else.
 * The bounds keep every match inside a double's range with no underflow to 0 (at most about
 * 1e129, at least about 1e-129), so PostgreSQL's `::float8` never raises on a matching string
 * and SQLite, PostgreSQL and JavaScript read the same double. The same source text is the
 * PostgreSQL `~` pattern (its ARE syntax reads it alike).
 */
export const STRICT_NUMBER_SOURCE = '^[+-]?[0-9]{1,30}([.][0-9]{1,30})?([eE][+-]?[0-9]{1,2})?$';

const STRICT_NUMBER = new RegExp(STRICT_NUMBER_SOURCE);

/** Whether a string is a decimal number under the strict rule: " 12 ", "12abc", "0x10" and "" are not. */
export function isStrictNumber(text: string): boolean {
  return STRICT_NUMBER.test(text);
}

/**
 * The numeric value a number-typed field holds: a JSON number as is, a strict decimal string as
 * its number, anything else none (null). Filters and sort keys of all dialects read values so.
 */
export function strictNumberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && isStrictNumber(value)) return Number(value);
  return null;
}

/** The SQLite function name the dialect calls: `search_number(json_type, value)`. */
export const SQLITE_NUMBER_FUNCTION = 'search_number';

/** A JSON value as SQLite hands it to a function: json_type() names it, the value is its SQL form. */
function jsonScalar(type: unknown, value: unknown): unknown {
  if (type === 'integer' || type === 'real') return typeof value === 'bigint' ? Number(value) : value;
  return type === 'text' ? value : null;
}

/**
 * Registers `search_number(type, value)` and `search_instant(type, value)` on a connection that
 * runs searches: SQLite has no regex, and deterministic functions running the same JavaScript
 * rules are equivalent by construction. The type argument tells a JSON `true` (SQL 1) from the
 * number 1.
 */
export function registerSearchFunctions(db: Database.Database): void {
  db.function(SQLITE_NUMBER_FUNCTION, { deterministic: true }, (type: unknown, value: unknown) => strictNumberOf(jsonScalar(type, value)));
  db.function(SQLITE_INSTANT_FUNCTION, { deterministic: true }, (type: unknown, value: unknown) => strictInstantOf(jsonScalar(type, value)));
}

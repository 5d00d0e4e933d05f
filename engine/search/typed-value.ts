import { strictNumberOf } from './strict-number.js';
import type { FieldRef } from './types.js';

/**
 * A filter value for a typed path: for a number path, a number passes, a strict decimal string
 * becomes its number ("50000" -> 50000) and null keeps its meaning; any other value is refused
 * with a message naming the field and the type. Untyped paths pass their value unchanged.
 */
export function typedValue(field: FieldRef, value: unknown): { value: unknown; problem?: string } {
  if (field.valueType !== 'number' || value === null || typeof value === 'number') return { value };
  const number = typeof value === 'string' ? strictNumberOf(value) : null;
  if (number !== null) return { value: number };
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value) : typeof value === 'boolean' ? String(value) : Array.isArray(value) ? 'an array' : 'an object';
  return { value, problem: `${field.path} is a number field: ${shown} is not a number (a JSON number or a decimal string such as "50000" or "88.68")` };
}

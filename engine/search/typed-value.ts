import { strictInstantOf } from '../store/index.js';
import { strictNumberOf } from '../store/index.js';
import type { FieldRef, ValueType } from './types.js';

/** How each value type reads a string, and what its refusal tells the caller to send instead. */
const READINGS: Record<ValueType, { read: (text: string) => number | null; noun: string; example: string }> = {
  number: { read: strictNumberOf, noun: 'a number', example: 'a JSON number or a decimal string such as "50000" or "88.68"' },
  'date-time': {
    read: strictInstantOf,
    noun: 'a date-time',
    example:
      'an ISO 8601 date such as "2024-03-01" or date-time such as "2024-03-01T09:30:00Z" or "2024-03-01T09:30:00-07:00" (no zone means UTC), or epoch milliseconds',
  },
};

/** A value as an error message shows it: strings quoted and cut, other kinds named. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return typeof value === 'boolean' ? String(value) : Array.isArray(value) ? 'an array' : 'an object';
}

/**
 * A filter value for a typed path: a number passes, a string the type reads becomes its number
 * ("50000" -> 50000; on a date-time path "2024-03-01" -> its epoch ms) and null keeps its meaning;
 * any other value is refused with a message naming the field and the type. Untyped paths pass
 * their value unchanged.
 */
export function typedValue(field: FieldRef, value: unknown): { value: unknown; problem?: string } {
  if (!field.valueType || value === null || typeof value === 'number') return { value };
  const reading = READINGS[field.valueType];
  const read = typeof value === 'string' ? reading.read(value) : null;
  if (read !== null) return { value: read };
  return { value, problem: `${field.path} is ${reading.noun} field: ${shown(value)} is not ${reading.noun} (${reading.example})` };
}

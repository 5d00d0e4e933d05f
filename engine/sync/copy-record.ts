import { readPath } from '../http/index.js';
import type { SyncPlan } from '../manifest/index.js';
import type { RecordData } from '../runtime/index.js';

/**
 * The record as the copy keeps it: computed fields first (`fields`, e.g. associated ids plucked
 * from `associations.companies.results`), then only the searchable fields. Keeping only those
 * is what SPEC.md's search result shows (`hits[].data`), and keeps the text index to them.
 */
export function copyRecord(record: RecordData, plan: SyncPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(plan.searchable)) {
    const mapping = plan.fields?.[name];
    const value = mapping ? computed(record, mapping.from, mapping.pluck, mapping.default) : (record as Record<string, unknown>)[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function computed(record: RecordData, from: string, pluck: string | undefined, fallback: unknown): unknown {
  const value = readPath(record, from);
  if (value === undefined || value === null) return fallback;
  if (pluck === undefined || !Array.isArray(value)) return value;
  return value.map((element) => readPath(element, pluck)).filter((element) => element !== undefined);
}

/** The newer of two modification times: compared as instants when both parse, as text otherwise. */
export function newerCursor(current: string | null, candidate: unknown): string | null {
  if (typeof candidate !== 'string' && typeof candidate !== 'number') return current;
  const text = String(candidate);
  if (current === null) return text;
  const [a, b] = [Date.parse(current), Date.parse(text)];
  const newer = Number.isNaN(a) || Number.isNaN(b) ? text > current : b > a;
  return newer ? text : current;
}

/** The older of two modification times (`current` when they cannot be compared as instants). */
export function olderCursor(current: string, candidate: string): string {
  const [a, b] = [Date.parse(current), Date.parse(candidate)];
  if (Number.isNaN(a) || Number.isNaN(b)) return current;
  return b < a ? candidate : current;
}

/**
 * Abridges a sandbox answer for a reference page: the first record or two, long strings cut,
 * long arrays and objects shortened, each cut marked where it is, and the sandbox's ports (which
 * change from run to run) replaced by `<port>`.
 */

/**
 * How much of an answer a page shows: two records, or one when a record alone fills
 * `recordLines` lines of JSON.
 */
export const ABRIDGE = { records: 2, recordLines: 40, stringLength: 80, arrayItems: 3, objectFields: 20 } as const;

/** An abridged answer and what was left out, in words (empty when nothing was). */
export interface Abridged {
  value: unknown;
  cuts: string[];
}

interface Cuts {
  strings: boolean;
  arrays: boolean;
  objects: boolean;
}

function cutString(text: string, cuts: Cuts): string {
  if (text.length <= ABRIDGE.stringLength) return text;
  cuts.strings = true;
  return `${text.slice(0, ABRIDGE.stringLength)}… (abridged from ${text.length} characters)`;
}

function cutArray(value: unknown[], cuts: Cuts): unknown[] {
  const kept = value.slice(0, ABRIDGE.arrayItems).map((item) => cutValue(item, cuts));
  if (value.length <= ABRIDGE.arrayItems) return kept;
  cuts.arrays = true;
  return [...kept, `… (abridged: ${value.length - ABRIDGE.arrayItems} more items)`];
}

function cutObject(value: object, cuts: Cuts): Record<string, unknown> {
  const entries = Object.entries(value);
  const kept = Object.fromEntries(entries.slice(0, ABRIDGE.objectFields).map(([key, item]) => [key, cutValue(item, cuts)]));
  if (entries.length <= ABRIDGE.objectFields) return kept;
  cuts.objects = true;
  return { ...kept, '…': `(abridged: ${entries.length - ABRIDGE.objectFields} more fields)` };
}

function cutValue(value: unknown, cuts: Cuts): unknown {
  if (typeof value === 'string') return cutString(value, cuts);
  if (Array.isArray(value)) return cutArray(value, cuts);
  if (value !== null && typeof value === 'object') return cutObject(value, cuts);
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every sandbox origin in every string by the same origin with `<port>`. */
export function withoutPorts(value: unknown, origins: string[]): unknown {
  if (typeof value === 'string')
    return origins.reduce((text, origin) => text.replace(new RegExp(`${escapeRegExp(origin)}(?!\\d)`, 'g'), origin.replace(/:\d+$/, ':<port>')), value);
  if (Array.isArray(value)) return value.map((item) => withoutPorts(item, origins));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutPorts(item, origins)]));
  return value;
}

/** How many records to show: two, unless the first alone is already long. */
function recordsShown(data: unknown[]): number {
  const first = cutValue(data[0], { strings: false, arrays: false, objects: false });
  return JSON.stringify(first, null, 2).split('\n').length > ABRIDGE.recordLines ? 1 : ABRIDGE.records;
}

/** The answer as a page shows it: `data` cut to its first records, then every value abridged. */
export function abridgeAnswer(answer: { data: unknown; meta: unknown }): Abridged {
  const cuts: Cuts = { strings: false, arrays: false, objects: false };
  const notes: string[] = [];
  let data = answer.data;
  if (Array.isArray(data) && data.length > 1) {
    const shown = Math.min(recordsShown(data), data.length);
    if (shown < data.length) notes.push(shown === 1 ? `the first of ${data.length} records` : `the first ${shown} of ${data.length} records`);
    data = data.slice(0, shown);
  }
  const value = { data: cutValue(data, cuts), meta: cutValue(answer.meta, cuts) };
  if (cuts.strings) notes.push(`strings over ${ABRIDGE.stringLength} characters cut`);
  if (cuts.arrays) notes.push(`arrays cut to ${ABRIDGE.arrayItems} items`);
  if (cuts.objects) notes.push(`objects cut to ${ABRIDGE.objectFields} fields`);
  return { value, cuts: notes };
}

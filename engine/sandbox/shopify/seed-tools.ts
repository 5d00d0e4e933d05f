/**
 * Small helpers the Shopify seed uses: ascending ids and times, weighted picks, handles.
 */
import type { Prng } from '../prng.js';

/**
 * Hands out ascending ids with random gaps from `base`.
 * Why: Shopify ids are large integers that grow with creation time (B.6 fixtures: 450789469,
 * 1069920479), and the fake's lists sort by id (B.3), so each collection's ids must ascend in
 * creation order; the gaps keep clients from guessing ids by counting.
 */
export class IdSequence {
  private last: number;

  constructor(
    base: number,
    private readonly rng: Prng,
    private readonly maxGap = 9_000,
  ) {
    this.last = base;
  }

  next(): number {
    this.last += this.rng.int(1, this.maxGap);
    if (!Number.isSafeInteger(this.last)) throw new RangeError('id sequence left the safe integer range');
    return this.last;
  }
}

/**
 * `count` ascending instants spread over [startMs, endMs), one per equal slot with jitter.
 * Why: records are created in id order, so created_at must ascend with the id.
 */
export function ascendingTimes(rng: Prng, count: number, startMs: number, endMs: number): number[] {
  const slot = (endMs - startMs) / Math.max(1, count);
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) times.push(Math.floor(startMs + slot * i + rng.next() * slot * 0.9));
  return times;
}

/**
 * Picks a value by relative weight.
 * Why: statuses follow store-like distributions (most orders paid, a few refunded).
 */
export function weighted<T>(rng: Prng, entries: ReadonlyArray<readonly [T, number]>): T {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = rng.next() * total;
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries[entries.length - 1]![0];
}

/**
 * Strips accents (`Zoë` -> `Zoe`, `Ø` -> `O`, `ł` -> `l`) and drops what is not ASCII.
 * Why: handles and e-mail local parts are ASCII even when names are not.
 */
export function asciiFold(text: string): string {
  return text
    .replace(/[Øø]/g, (c) => (c === 'Ø' ? 'O' : 'o'))
    .replace(/[Łł]/g, (c) => (c === 'Ł' ? 'L' : 'l'))
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '');
}

/**
 * A Shopify handle: lower-case ASCII words joined by `-` (`Crème Brûlée Set` -> `creme-brulee-set`).
 * Why: products and collections are addressed by unique handles (the `handle` filter).
 */
export function handleize(text: string): string {
  return asciiFold(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Returns `handle`, or `handle-2`, `handle-3`... when already taken; records it as taken. */
export function uniqueHandle(handle: string, taken: Set<string>): string {
  let candidate = handle || 'item';
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${handle}-${n}`;
  taken.add(candidate);
  return candidate;
}

/** Index of the first element of ascending `values` that is greater than `value`. */
export function upperBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((values[mid] ?? 0) <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}

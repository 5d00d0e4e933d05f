/**
 * Small seeded pseudo-random generator (mulberry32) for the fakes' data.
 *
 * The sandbox must serve the same data for the same `--seed` on every machine (DESIGN.md §8:
 * "deterministic seeded data"), so the fakes never use Math.random for anything a test can see.
 */

/** A deterministic random source; every method advances the same stream. */
export interface Prng {
  /** Next float in [0, 1). */
  next(): number;
  /** Next integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** `length` lowercase hexadecimal digits. */
  hex(length: number): string;
  /** A UUID-shaped string (version 4 layout), handy for ids and secrets that must look real. */
  uuid(): string;
}

/**
 * Creates a generator whose whole stream is fixed by `seed`.
 * Why: every fake derives records, ids and token values from it, so two sandboxes started with
 * the same seed are interchangeable in tests and benchmarks.
 */
export function createPrng(seed: number): Prng {
  let state = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const hex = (length: number): string => {
    let out = '';
    for (let i = 0; i < length; i += 1) out += int(0, 15).toString(16);
    return out;
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty array');
      return items[int(0, items.length - 1)] as T;
    },
    hex,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(0, 3)]}${hex(3)}-${hex(12)}`,
  };
}

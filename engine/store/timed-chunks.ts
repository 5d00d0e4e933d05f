import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How a run splits its items: each chunk is sized to cost about `budgetMs`, at most `maxItems` items. */
export interface ChunkBudget {
  budgetMs: number;
  maxItems: number;
}

/**
 * Records serialized at a time on the event loop's thread (JSON.stringify): about 100 records
 * cost 1-2 ms, where a whole 500-record batch held the loop for 5-11 ms (measured on the
 * sandbox's CRM deals).
 */
export const SERIALIZE_SLICE = 100;

/** `items` in consecutive slices of at most `size`. */
export function* slices<T>(items: readonly T[], size: number): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** The first chunk's size, before there is a measured pace to size from. */
const FIRST_CHUNK_ITEMS = 4;

/** The size that would have cost `budget.budgetMs` at the last chunk's pace: at least 1, at most double the last. */
function nextSize(lastSize: number, tookMs: number, budget: ChunkBudget): number {
  const fit = tookMs > 0 ? Math.floor((budget.budgetMs * lastSize) / tookMs) : budget.maxItems;
  return Math.max(1, Math.min(budget.maxItems, fit, lastSize * 2));
}

/**
 * Runs `work` over `items` chunk by chunk, synchronously, calling `before` ahead of each chunk
 * (a write thread waits there while the store's thread wants the lock). Returns the sum of what
 * `work` returned. The size adapts to the measured cost, since a record's cost varies tenfold
 * with its text (index rows) and with SQLite's own merges.
 */
export function runTimedChunks<T>(items: readonly T[], budget: ChunkBudget, work: (chunk: readonly T[]) => number | void, before: () => void): number {
  let total = 0;
  let size = FIRST_CHUNK_ITEMS;
  for (let start = 0; start < items.length;) {
    before();
    const step = timedChunk(items, start, size, budget, work);
    [total, size, start] = [total + step.written, step.nextSize, start + step.taken];
  }
  return total;
}

/** Runs `work` on the chunk of `size` items at `start` and sizes the next chunk from its time. */
function timedChunk<T>(
  items: readonly T[],
  start: number,
  size: number,
  budget: ChunkBudget,
  work: (chunk: readonly T[]) => number | void,
): { written: number; taken: number; nextSize: number } {
  const chunk = items.slice(start, start + size);
  const began = performance.now();
  const written = work(chunk) ?? 0;
  return { written, taken: chunk.length, nextSize: nextSize(chunk.length, performance.now() - began, budget) };
}

/**
 * Like runTimedChunks on the event loop's own thread: between chunks it yields with setImmediate,
 * so the I/O that became ready meanwhile (requests, their upstream answers) runs before the next
 * chunk. One chunk holds the loop for about `budget.budgetMs`.
 */
export async function runYieldingChunks<T>(items: readonly T[], budget: ChunkBudget, work: (chunk: readonly T[]) => number | void): Promise<number> {
  let total = 0;
  let size = FIRST_CHUNK_ITEMS;
  for (let start = 0; start < items.length;) {
    if (start > 0) await nextTurn();
    const step = timedChunk(items, start, size, budget, work);
    [total, size, start] = [total + step.written, step.nextSize, start + step.taken];
  }
  return total;
}

import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InternalError } from '../errors.js';

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

/** What a chunk's work did: how many of the offered items it took (it may stop early), and what it counts (rows written or removed). */
export interface ChunkDone {
  taken: number;
  count: number;
}

/** The first chunk's size, before there is a measured pace to size from. */
const FIRST_CHUNK_ITEMS = 4;

/**
 * Sizes chunks to cost about `budget.budgetMs` from the pace measured so far. Why one that lasts
 * across runs: a record's cost varies tenfold with its text (index rows) and with SQLite's own
 * merges, but a run is often a single batch, and restarting at FIRST_CHUNK_ITEMS each time would
 * make most transactions tiny (FTS5 and the WAL pay per commit).
 */
export class ChunkSizer {
  private size = FIRST_CHUNK_ITEMS;

  constructor(private readonly budget: ChunkBudget) {}

  /** How many items to offer the next chunk. */
  next(): number {
    return this.size;
  }

  /**
   * Learns from a chunk that took `taken` of `offered` items in `tookMs`: the next size is what
   * would have cost the budget at that pace, at least 1, at most double the offer and maxItems.
   * A chunk cut short (the store's thread wanted the lock) does not shrink the next one by itself.
   */
  measured(offered: number, taken: number, tookMs: number): void {
    const fit = tookMs > 0 && taken > 0 ? Math.floor((this.budget.budgetMs * taken) / tookMs) : this.budget.maxItems;
    this.size = Math.max(1, Math.min(this.budget.maxItems, fit, offered * 2));
  }
}

/**
 * Runs `work` over `items` chunk by chunk, synchronously, calling `before` ahead of each chunk
 * (a write thread waits there while the store's thread wants the lock). Returns the sum of the
 * chunks' counts. `work` takes at least one item and may take fewer than offered; the rest go to
 * the next chunk.
 */
export function runTimedChunks<T>(items: readonly T[], sizer: ChunkSizer, work: (chunk: readonly T[]) => ChunkDone, before: () => void): number {
  let total = 0;
  for (let start = 0; start < items.length;) {
    before();
    const done = timedChunk(items, start, sizer, work);
    [total, start] = [total + done.count, start + done.taken];
  }
  return total;
}

/** Runs `work` on the next chunk at `start` and tells the sizer how long it took. */
function timedChunk<T>(items: readonly T[], start: number, sizer: ChunkSizer, work: (chunk: readonly T[]) => ChunkDone): ChunkDone {
  const chunk = items.slice(start, start + sizer.next());
  const began = performance.now();
  const done = work(chunk);
  // A chunk that took nothing would be offered again forever.
  if (done.taken < 1 || done.taken > chunk.length) throw new InternalError(`a chunk of ${chunk.length} items reported ${done.taken} taken`);
  sizer.measured(chunk.length, done.taken, performance.now() - began);
  return done;
}

/**
 * Like runTimedChunks on the event loop's own thread: between chunks it yields with setImmediate,
 * so the I/O that became ready meanwhile (requests, their upstream answers) runs before the next
 * chunk. One chunk holds the loop for about the sizer's budget.
 */
export async function runYieldingChunks<T>(items: readonly T[], sizer: ChunkSizer, work: (chunk: readonly T[]) => ChunkDone): Promise<number> {
  let total = 0;
  for (let start = 0; start < items.length;) {
    if (start > 0) await nextTurn();
    const done = timedChunk(items, start, sizer, work);
    [total, start] = [total + done.count, start + done.taken];
  }
  return total;
}

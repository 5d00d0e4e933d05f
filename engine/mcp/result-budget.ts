/**
 * What one tool answer may carry. Why: an agent's context is small and costly, and an upstream
 * page (a CRM takes limit 100, search 10,000) can be far larger; the rest stays one cursor away.
 */
export const MCP_BUDGET = {
  /** Records (or search hits) per answer. */
  records: 50,
  /** UTF-8 bytes of the records' JSON per answer; a single larger record still comes alone. */
  bytes: 64 * 1024,
  /** Bytes of a downloaded file an answer carries; a larger file is cut there. */
  fileBytes: 256 * 1024,
} as const;

/** The items an answer carries from `skip` on, and whether the page holds more after them. */
export interface BudgetSlice<T> {
  taken: T[];
  rest: boolean;
}

/**
 * The first items from `skip` that fit the budget: at least one when any is left, so that every
 * call moves forward however large a record is.
 */
export function takeWithinBudget<T>(items: readonly T[], skip: number): BudgetSlice<T> {
  const taken: T[] = [];
  let bytes = 0;
  for (const item of items.slice(skip)) {
    const size = Buffer.byteLength(JSON.stringify(item) ?? '');
    if (taken.length > 0 && (taken.length >= MCP_BUDGET.records || bytes + size > MCP_BUDGET.bytes)) break;
    taken.push(item);
    bytes += size;
  }
  return { taken, rest: skip + taken.length < items.length };
}

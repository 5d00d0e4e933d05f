/**
 * Deepest nesting of objects and arrays a caller's params or config may have (the hosted API's
 * JSON body limit is the same, see engine/hosted/json-limits.ts). No manifest schema comes close;
 * the bound keeps structuredClone and JSON.stringify, which recurse, far from the stack's end.
 */
export const MAX_VALUE_DEPTH = 64;

/**
 * The JSON pointer of the first object or array nested deeper than `max` inside `value`, or
 * undefined. Walks with its own stack and stops at the limit, so any depth of input is cheap.
 */
export function tooDeepAt(value: unknown, max = MAX_VALUE_DEPTH): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return path || '/';
    for (const [key, child] of Object.entries(current)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: depth + 1, path: `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}` });
    }
  }
  return undefined;
}

import { isStorableText } from '../store/index.js';

/** Escapes one JSON-pointer segment (RFC 6901). */
const segment = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The JSON pointer of a key or string in `value` that the stores cannot keep exactly
 * (U+0000, a lone surrogate: see isStorableText), or undefined. Walks with its own stack, so no
 * depth of input can overflow the call stack.
 */
export function findUnstorableText(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string };
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path || '/';
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: path + segment(i) });
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (!isStorableText(key)) return path + segment(key);
        stack.push({ value: (current as Record<string, unknown>)[key], path: path + segment(key) });
      }
    }
  }
  return undefined;
}

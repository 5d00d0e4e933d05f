/** Paths read so far, split once (they come from manifests: a small set); emptied when full. */
const readers = new Map<string, PathReader>();
const MAX_READERS = 1024;

/**
 * Reads a dot path (`paging.next.after`) from parsed JSON; '' is the value itself. The path is
 * split once and kept: most callers read the same manifest paths on every page.
 */
export function readPath(value: unknown, path: string): unknown {
  let read = readers.get(path);
  if (read === undefined) {
    if (readers.size >= MAX_READERS) readers.clear();
    readers.set(path, (read = pathReader(path)));
  }
  return read(value);
}

/** Reads one compiled dot path from parsed JSON. */
export type PathReader = (value: unknown) => unknown;

const identity: PathReader = (value) => value;

function step(current: unknown, part: string): unknown {
  if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
  return (current as Record<string, unknown>)[part];
}

/**
 * A dot path split once, so a path read for every record or page splits nothing per call. Paths
 * of one and two parts (most manifest paths) get their own code path, without a loop.
 */
export function pathReader(path: string): PathReader {
  if (path === '') return identity;
  const parts = path.split('.');
  if (parts.length === 1) {
    const [only] = parts as [string];
    return (value) => step(value, only);
  }
  if (parts.length === 2) {
    const [first, second] = parts as [string, string];
    return (value) => step(step(value, first), second);
  }
  return (value) => {
    let current = value;
    for (const part of parts) {
      current = step(current, part);
      if (current === undefined) return undefined;
    }
    return current;
  };
}

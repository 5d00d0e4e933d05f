/**
 * Cuts a record down to the given dot paths, keeping their nesting (`assignee.gid` ->
 * `{assignee: {gid}}`); a path through an array keeps that sub-path of each object element.
 * Paths that are absent are simply left out, as a sparse record would be.
 */
export function projectFields(data: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  return projector(paths)(data);
}

/** projectFields for many records of one search: the paths are split once, not once per record. */
export function projector(paths: readonly string[]): (data: Record<string, unknown>) => Record<string, unknown> {
  const split = paths.map((path) => path.split('.'));
  return (data) => {
    const out: Record<string, unknown> = {};
    for (const segments of split) copyPath(data, out, segments, 0);
    return out;
  };
}

/** Copies the path `segments` from `at` on (an index, so no record's walk slices the array). */
function copyPath(from: unknown, into: Record<string, unknown>, segments: readonly string[], at: number): void {
  const head = segments[at];
  if (head === undefined || typeof from !== 'object' || from === null || Array.isArray(from) || !Object.hasOwn(from, head)) return;
  const value = (from as Record<string, unknown>)[head];
  if (at === segments.length - 1) {
    into[head] = value;
    return;
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(into[head]) ? (into[head] as unknown[]) : value.map(() => ({}));
    value.forEach((element, i) => {
      const slot = existing[i];
      if (typeof slot === 'object' && slot !== null && !Array.isArray(slot)) copyPath(element, slot as Record<string, unknown>, segments, at + 1);
    });
    into[head] = existing;
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const existing = into[head];
  const target = typeof existing === 'object' && existing !== null && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
  copyPath(value, target, segments, at + 1);
  into[head] = target;
}

/**
 * Cuts a record down to the given dot paths, keeping their nesting (`assignee.gid` ->
 * `{assignee: {gid}}`); a path through an array keeps that sub-path of each object element.
 * Paths that are absent are simply left out, as a sparse record would be.
 */
export function projectFields(data: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) copyPath(data, out, path.split('.'));
  return out;
}

function copyPath(from: unknown, into: Record<string, unknown>, segments: string[]): void {
  const [head, ...rest] = segments;
  if (head === undefined || typeof from !== 'object' || from === null || Array.isArray(from) || !Object.hasOwn(from, head)) return;
  const value = (from as Record<string, unknown>)[head];
  if (rest.length === 0) {
    into[head] = value;
    return;
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(into[head]) ? (into[head] as unknown[]) : value.map(() => ({}));
    value.forEach((element, i) => {
      const slot = existing[i];
      if (typeof slot === 'object' && slot !== null && !Array.isArray(slot)) copyPath(element, slot as Record<string, unknown>, rest);
    });
    into[head] = existing;
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const existing = into[head];
  const target = typeof existing === 'object' && existing !== null && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
  copyPath(value, target, rest);
  into[head] = target;
}

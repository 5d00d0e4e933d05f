import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

/** A place in a manifest file, as editors and compilers print it. */
export interface SourcePosition {
  line: number;
  col: number;
}

type PathPart = string | number;

function isMergeKey(key: unknown): boolean {
  return isScalar(key) && (key.source === '<<' || typeof key.value === 'symbol');
}

function deref(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

function mapChild(doc: Document, map: unknown, key: string): unknown {
  if (!isMap(map)) return undefined;
  for (const pair of map.items) {
    if (isScalar(pair.key) && String(pair.key.value) === key && !isMergeKey(pair.key)) return pair.value;
  }
  // `<<: *anchor` merges: the value lives in the anchored map (or one of a list of them).
  for (const pair of map.items) {
    if (!isMergeKey(pair.key)) continue;
    const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (const source of sources) {
      const found = mapChild(doc, deref(doc, source), key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Finds the YAML node at a JSON path, following aliases and merge keys, so that a problem found
 * on the plain data can still be reported at the line the author wrote. Falls back to the deepest
 * node that exists.
 */
export function locate(doc: Document, lines: LineCounter, path: readonly PathPart[]): SourcePosition {
  let node: unknown = doc.contents;
  let best: unknown = node;
  for (const part of path) {
    node = deref(doc, node);
    const next = isSeq(node) ? node.items[Number(part)] : mapChild(doc, node, String(part));
    if (next === undefined || next === null) break;
    node = next;
    best = next;
  }
  const range = (best as Node | undefined)?.range;
  const offset = range ? range[0] : 0;
  const pos = lines.linePos(offset);
  return { line: pos.line, col: pos.col };
}

/** Locates the key of a map entry (better than its value for "unknown property" problems). */
export function locateKey(doc: Document, lines: LineCounter, path: readonly PathPart[], key: string): SourcePosition {
  let node: unknown = doc.contents;
  for (const part of path) {
    node = deref(doc, node);
    const next = isSeq(node) ? node.items[Number(part)] : mapChild(doc, node, String(part));
    if (next === undefined) return locate(doc, lines, path);
    node = next;
  }
  node = deref(doc, node);
  if (isMap(node)) {
    for (const pair of node.items) {
      if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) {
        const pos = lines.linePos(pair.key.range[0]);
        return { line: pos.line, col: pos.col };
      }
    }
  }
  return locate(doc, lines, path);
}

/** Splits an ajv instancePath (JSON pointer) into its parts. */
export function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

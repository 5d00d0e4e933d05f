/**
 * `opt_fields`: which fields a response shows (API-NOTES B2).
 */
import { listParam, type ParamMap } from '../param-map.js';

/** One requested field: asked for by itself (`assignee`) and/or through sub-fields (`assignee.name`). */
export interface FieldNode {
  bare: boolean;
  children: Map<string, FieldNode>;
}

/** The parsed `opt_fields` tree; undefined means "no opt_fields: default representation". */
export type FieldSelection = Map<string, FieldNode>;

/**
 * Parses `opt_fields` (comma-separated, repeated parameters allowed) into a tree of dotted paths;
 * blank entries are dropped and an empty list means no selection.
 * Why: B2 [spec]: "comma-separated field paths; dotted paths such as `assignee.name` are allowed".
 */
export function parseOptFields(query: ParamMap): FieldSelection | undefined {
  const fields = listParam(query, 'opt_fields');
  if (!fields || fields.length === 0) return undefined;
  const root: FieldSelection = new Map();
  for (const path of fields) {
    const parts = path.split('.').filter((part) => part.length > 0);
    let level = root;
    parts.forEach((part, index) => {
      let node = level.get(part);
      if (!node) {
        node = { bare: false, children: new Map() };
        level.set(part, node);
      }
      if (index === parts.length - 1) node.bare = true;
      level = node.children;
    });
  }
  return root.size > 0 ? root : undefined;
}

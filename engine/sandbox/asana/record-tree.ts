/**
 * The intermediate form records are rendered through: JSON-like trees whose references to other
 * objects stay symbolic until `opt_fields` decides how much of them to show (API-NOTES B2).
 */
import type { ResourceType } from './model.js';

/**
 * How a reference renders when no sub-field of it is asked for: `compact` is the referenced
 * type's compact record (B2: `{gid, resource_type, name}`, tasks and attachments add
 * `resource_subtype`); `resource` is `{gid, resource_type}` (the spec's AsanaResource, used by
 * `created_by`, `dependencies` and `dependents`).
 */
export type RefStyle = 'compact' | 'resource';

/** A reference to another stored object. */
export class Ref {
  constructor(
    readonly type: ResourceType,
    readonly gid: string,
    readonly style: RefStyle = 'compact',
  ) {}
}

/** A record value before rendering. */
export type Tree = string | number | boolean | null | Ref | Tree[] | TreeObject;

/** An object inside a record (e.g. a membership `{project, section}`). */
export interface TreeObject {
  [key: string]: Tree;
}

/** True for plain nested objects (not references, not arrays). Why: selection walks into them. */
export function isTreeObject(value: Tree): value is TreeObject {
  return typeof value === 'object' && value !== null && !(value instanceof Ref) && !Array.isArray(value);
}

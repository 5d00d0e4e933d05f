/**
 * Turns stored objects into the JSON Asana sends: compact records by default, full records for
 * single reads, and exactly the `opt_fields` asked for otherwise (API-NOTES B2).
 */
import type { FieldNode, FieldSelection } from './field-selection.js';
import { fullRecord, type RecordContext } from './full-records.js';
import type { ResourceType } from './model.js';
import { isTreeObject, Ref, type Tree, type TreeObject } from './record-tree.js';

/** A JSON value as sent. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * The compact record of an object (B2): `{gid, resource_type, name}`, plus `resource_subtype` for
 * tasks and attachments; `{gid, resource_type}` for `resource`-style references.
 * Why: list endpoints return compact records unless `opt_fields` says otherwise.
 */
export function compactRecord(ctx: RecordContext, ref: Ref): Json {
  const { data } = ctx;
  if (ref.style === 'resource') return { gid: ref.gid, resource_type: ref.type };
  switch (ref.type) {
    case 'task': {
      const task = data.task(ref.gid);
      return { gid: ref.gid, resource_type: 'task', name: task?.name ?? '', resource_subtype: task?.resourceSubtype ?? 'default_task' };
    }
    case 'attachment': {
      const attachment = data.attachment(ref.gid);
      return { gid: ref.gid, resource_type: 'attachment', name: attachment?.name ?? '', resource_subtype: attachment?.host ?? 'asana' };
    }
    default:
      return { gid: ref.gid, resource_type: ref.type, name: nameOf(ctx, ref.type, ref.gid) };
  }
}

function nameOf(ctx: RecordContext, type: ResourceType, gid: string): string {
  const { data } = ctx;
  const named =
    type === 'user'
      ? data.user(gid)
      : type === 'project'
        ? data.project(gid)
        : type === 'workspace'
          ? data.workspace(gid)
          : type === 'team'
            ? data.team(gid)
            : type === 'tag'
              ? data.tag(gid)
              : type === 'section'
                ? data.section(gid)
                : undefined;
  return named?.name ?? '';
}

/**
 * One object as a list item: its compact record, or `gid` plus the selected fields.
 * Why: B2: compact by default; with `opt_fields`, "gid plus the requested fields only".
 */
export function renderListItem(ctx: RecordContext, type: ResourceType, gid: string, selection: FieldSelection | undefined): Json {
  if (!selection) return compactRecord(ctx, new Ref(type, gid));
  return select(ctx, type, gid, selection);
}

/**
 * One object for a single read: its full record, or `gid` plus the selected fields.
 * Why: B3: single reads return the full `*Response` records.
 */
export function renderSingle(ctx: RecordContext, type: ResourceType, gid: string, selection: FieldSelection | undefined): Json {
  if (selection) return select(ctx, type, gid, selection);
  const record = fullRecord(ctx, type, gid);
  return record ? expand(ctx, record) : null;
}

function select(ctx: RecordContext, type: ResourceType, gid: string, selection: FieldSelection): Json {
  const record = fullRecord(ctx, type, gid);
  const out: { [key: string]: Json } = { gid };
  if (!record) return out;
  for (const [field, node] of selection) {
    if (field === 'gid') continue;
    const value = record[field];
    // A field the record does not have (unknown, or conditional and absent) is left out [unverified].
    if (value === undefined) continue;
    out[field] = project(ctx, value, node);
  }
  return out;
}

function project(ctx: RecordContext, value: Tree, node: FieldNode): Json {
  if (Array.isArray(value)) return value.map((item) => project(ctx, item, node));
  if (node.children.size === 0) return expand(ctx, value);
  if (value instanceof Ref) {
    const base = node.bare ? (compactRecord(ctx, value) as { [key: string]: Json }) : {};
    const picked = select(ctx, value.type, value.gid, node.children) as { [key: string]: Json };
    return { ...base, ...picked };
  }
  if (isTreeObject(value)) return pickFrom(ctx, value, node);
  return value;
}

function pickFrom(ctx: RecordContext, value: TreeObject, node: FieldNode): Json {
  const out: { [key: string]: Json } = {};
  if (node.bare) Object.assign(out, expand(ctx, value));
  if (typeof value['gid'] === 'string') out['gid'] = value['gid'];
  for (const [field, child] of node.children) {
    const inner = value[field];
    if (inner === undefined) continue;
    out[field] = project(ctx, inner, child);
  }
  return out;
}

/** Renders a tree with every reference as its compact record. */
function expand(ctx: RecordContext, value: Tree): Json {
  if (value instanceof Ref) return compactRecord(ctx, value);
  if (Array.isArray(value)) return value.map((item) => expand(ctx, item));
  if (isTreeObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, inner] of Object.entries(value)) out[key] = expand(ctx, inner);
    return out;
  }
  return value;
}

/**
 * What a synchronized copy should hold, computed from the upstream without the sync runner:
 * walks an entity's sync plan with the connection's own list reads (`records()`), projects the
 * records the way SPEC.md says `hits[].data` looks (searchable fields only, computed fields from
 * the manifest's `fields`), and evaluates the few filter operators the sync tests use in plain JS.
 */
import type { Connection } from '../../engine/index.js';
import type { Manifest, SyncPlan, SyncPlanRead } from '../../engine/manifest/index.js';
import type { SearchHit, SearchResult } from '../../engine/search/index.js';

export type Rec = Record<string, unknown>;

/** Follows object keys (never array indexes); undefined when a step is missing. */
export function readAt(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Rec)[key];
  }
  return current;
}

/** `{{a.b}}` replaced by the bound value at that path; a template that is only a tag keeps its value's type. */
function render(params: Record<string, unknown> | undefined, bindings: Rec): Rec {
  const out: Rec = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value !== 'string') {
      out[name] = value;
      continue;
    }
    const whole = /^\{\{\s*([\w.]+)\s*\}\}$/.exec(value);
    const rendered = whole ? readAt(bindings, whole[1]!) : value.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => String(readAt(bindings, path) ?? ''));
    if (rendered !== undefined && rendered !== '') out[name] = rendered;
  }
  return out;
}

export function syncPlan(manifest: Manifest, entity: string): SyncPlan {
  const plan = manifest.entities[entity]?.sync;
  if (!plan) throw new Error(`${manifest.type} ${entity} has no sync plan`);
  return plan;
}

/**
 * Every record the upstream lists for the entity, by id (first one seen when a record shows up in
 * two partitions, e.g. a task in two projects), reading the plan's partitions outermost first, and
 * under each record whose `children.when` count is above 0 (or true), its children, recursively.
 */
export async function upstreamRecords(connection: Connection, manifest: Manifest, entity: string): Promise<Map<string, Rec>> {
  const plan = syncPlan(manifest, entity);
  const out = new Map<string, Rec>();
  const discovered = await discoveredParams(connection, entity, plan);
  for (const read of Array.isArray(plan.read) ? plan.read : [plan.read]) await walkRead(connection, entity, plan, read, out, discovered);
  return out;
}

/**
 * What a pass adds to its reads when the plan discovers fields: every definition's name not
 * flagged by `skip_when`, comma-joined, in `read_param` (the definitions as the upstream answers them).
 */
async function discoveredParams(connection: Connection, entity: string, plan: SyncPlan): Promise<Rec> {
  const discover = plan.discover_fields;
  if (!discover) return {};
  const definitions = await connection.discoverFields(entity);
  const names = definitions
    .filter((definition) => !(discover.skip_when ?? []).some((flag) => readAt(definition, flag) === true))
    .map((definition) => String(readAt(definition, discover.name)));
  return names.length > 0 ? { [discover.read_param]: [...new Set(names)].join(',') } : {};
}

async function keep(
  connection: Connection,
  entity: string,
  plan: SyncPlan,
  records: AsyncIterable<Record<string, unknown>>,
  out: Map<string, Rec>,
): Promise<void> {
  for await (const record of records) {
    const id = readAt(record, plan.id);
    if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`${entity} record without an id at ${plan.id}`);
    if (out.has(String(id))) continue;
    out.set(String(id), record as Rec);
    const children = plan.children;
    const count = children ? readAt(record, children.when) : undefined;
    if (children && (count === true || (typeof count === 'number' && count > 0))) {
      await keep(connection, entity, plan, connection.records(children.entity, children.action, render(children.params, { [children.as]: record })), out);
    }
  }
}

async function walkRead(connection: Connection, entity: string, plan: SyncPlan, read: SyncPlanRead, out: Map<string, Rec>, discovered: Rec): Promise<void> {
  const levels = read.for_each ?? [];
  const walk = async (depth: number, bindings: Rec): Promise<void> => {
    const level = levels[depth];
    if (!level) {
      await keep(connection, entity, plan, connection.records(read.entity ?? entity, read.action, { ...render(read.params, bindings), ...discovered }), out);
      return;
    }
    for await (const partition of connection.records(level.entity, level.action, render(level.params, bindings))) {
      await walk(depth + 1, { ...bindings, [level.as]: partition });
    }
  };
  await walk(0, {});
}

/**
 * The record as `hits[].data` should show it: only the searchable fields, computed ones from the
 * manifest's `fields` mapping (`from` path, `pluck` of each element, `default` when absent).
 * JSON round trip: what a store gives back has no undefined values.
 */
export function expectedData(record: Rec, plan: SyncPlan): Rec {
  const out: Rec = {};
  for (const name of Object.keys(plan.searchable)) {
    const mapping = plan.fields?.[name];
    let value: unknown = record[name];
    if (mapping) {
      const from = readAt(record, mapping.from);
      if (from === undefined || from === null) value = mapping.default;
      else if (mapping.pluck && Array.isArray(from)) value = from.map((element) => readAt(element, mapping.pluck!)).filter((v) => v !== undefined);
      else value = from;
    }
    if (value !== undefined) out[name] = value;
  }
  return JSON.parse(JSON.stringify(out)) as Rec;
}

/** A copy of `data` without the given top-level fields (values that change per read, e.g. signed URLs). */
export function without(data: Rec, volatile: readonly string[]): Rec {
  const out = { ...data };
  for (const name of volatile) delete out[name];
  return out;
}

/** The filter subset the sync tests evaluate in JS. */
export type Filter =
  | { eq: Record<string, unknown> }
  | { in: Record<string, unknown[]> }
  | { gte: Record<string, number> }
  | { keyword: Record<string, string> }
  | { like: Record<string, string> }
  | { and: Filter[] }
  | { or: Filter[] }
  | { not: Filter };

/** The values a comparison on `path` looks at: each element's for an array field, else the one value. */
export function candidates(data: Rec, path: string, plan: SyncPlan): unknown[] {
  const [top, ...rest] = path.split('.');
  const value = data[top!];
  if (plan.searchable[top!] === 'array') {
    if (!Array.isArray(value)) return [];
    return value.map((element) => (rest.length === 0 ? element : readAt(element, rest.join('.'))));
  }
  return [rest.length === 0 ? value : readAt(value, rest.join('.'))];
}

const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** Words split at ASCII punctuation and whitespace (non-ASCII letters are word characters), ASCII-folded. */
export const words = (text: string) =>
  fold(text)
    .split(/[\s!-/:-@[-`{-~]+/)
    .filter(Boolean);

function one<T>(node: Record<string, T>): [string, T] {
  const entries = Object.entries(node);
  if (entries.length !== 1) throw new Error('one field per comparison');
  return entries[0]!;
}

/** Whether the projected record matches the filter (DESIGN.md §7 semantics for these operators). */
export function matches(filter: Filter, data: Rec, plan: SyncPlan): boolean {
  if ('and' in filter) return filter.and.every((f) => matches(f, data, plan));
  if ('or' in filter) return filter.or.some((f) => matches(f, data, plan));
  if ('not' in filter) return !matches(filter.not, data, plan);
  if ('eq' in filter) {
    const [path, value] = one(filter.eq);
    return candidates(data, path, plan).some((v) => v === value);
  }
  if ('in' in filter) {
    const [path, values] = one(filter.in);
    return candidates(data, path, plan).some((v) => values.includes(v));
  }
  if ('gte' in filter) {
    const [path, value] = one(filter.gte);
    return candidates(data, path, plan).some((v) => typeof v === 'number' && v >= value);
  }
  if ('keyword' in filter) {
    const [path, query] = one(filter.keyword);
    const wanted = words(query);
    return candidates(data, path, plan).some((v) => typeof v === 'string' && words(v).some((w) => wanted.includes(w)));
  }
  if ('like' in filter) {
    const [path, pattern] = one(filter.like);
    const source = fold(pattern)
      .split('%')
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*');
    const regex = new RegExp(`^${source}$`, 'u');
    return candidates(data, path, plan).some((v) => typeof v === 'string' && regex.test(fold(v)));
  }
  throw new Error(`operator not evaluated here: ${JSON.stringify(filter)}`);
}

/**
 * Every hit of a search, following next_cursor page by page. Throws when an id comes back twice
 * or the pages do not end (the cursor must make progress).
 */
export async function searchAll(search: (params: Rec) => Promise<SearchResult>, params: Rec, maxPages = 200): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const result: SearchResult = await search({ ...params, ...(cursor ? { cursor } : {}) });
    for (const hit of result.hits) {
      if (seen.has(hit.id)) throw new Error(`id ${hit.id} came back twice while paging`);
      seen.add(hit.id);
      hits.push(hit);
    }
    if (!result.next_cursor) return hits;
    cursor = result.next_cursor;
  }
  throw new Error(`search did not end after ${maxPages} pages`);
}

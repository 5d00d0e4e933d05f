import { EngineError } from '../errors.js';
import { readPath } from '../http/index.js';
import { planReads, type SyncPartition, type SyncPlan, type SyncRead } from '../manifest/index.js';
import type { CallOptions, Connection, RecordData } from '../runtime/index.js';
import { compileTemplate, type TemplateContext } from '../template/index.js';

/**
 * How a pass's reads go out: as sync traffic, which yields the rate limit to interactive calls
 * beyond its share, and with a page deadline long enough for a background read (nobody waits on
 * it) to ride out the longest Retry-After a manifest honours (60 s) behind a queue of interactive
 * calls, yet still end.
 */
export const SYNC_READS = { traffic: 'sync', deadlineMs: 5 * 60_000 } as const;

/** Names bound while a plan is read: partition records by their `as`, and `since`. */
type Bindings = Record<string, unknown>;

/** Where a pass is in its partitions, for progress reports and error messages. */
export type PartitionTrail = readonly { as: string; id: unknown }[];

/**
 * Renders a plan's params: string values are templates over the bound names (`{{workspace.gid}}`),
 * other values pass as they are. Templates are compiled per call; a pass renders each level once
 * per partition record, which is cheap next to the request it feeds.
 */
export function renderSyncParams(params: Record<string, unknown> | undefined, bindings: Bindings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    const rendered = typeof value === 'string' && value.includes('{{') ? compileTemplate(value).value(bindings as TemplateContext) : value;
    if (rendered !== undefined && rendered !== '') out[name] = rendered;
  }
  return out;
}

/** The connection and the call options of a pass's reads (SYNC_READS with the pass's stop signal). */
interface Reader {
  connection: Connection;
  reads: CallOptions;
}

async function* readLevel(
  { connection, reads }: Reader,
  owner: string,
  read: SyncRead,
  levels: readonly SyncPartition[],
  bindings: Bindings,
  extra: Record<string, unknown>,
  fixed: Record<string, unknown>,
): AsyncGenerator<RecordData> {
  const [level, ...rest] = levels;
  if (!level) {
    const params = { ...renderSyncParams(read.params, bindings), ...renderSyncParams(extra, bindings), ...fixed };
    yield* connection.records(read.entity ?? owner, read.action, params, reads);
    return;
  }
  for await (const partition of connection.records(level.entity, level.action, renderSyncParams(level.params, bindings), reads)) {
    yield* readLevel({ connection, reads }, owner, read, rest, { ...bindings, [level.as]: partition }, extra, fixed);
  }
}

/** Whether a parent's `when` value says it has children: a count above 0, or true. */
function hasChildren(record: RecordData, when: string): boolean {
  const value = readPath(record, when);
  return value === true || (typeof value === 'number' && value > 0);
}

/**
 * The records, each followed by its children (and theirs, depth first), each parent's read once:
 * a record reached twice (a task in two projects) does not have its children read twice.
 */
async function* withChildren(reader: Reader, plan: SyncPlan, records: AsyncIterable<RecordData>, expanded: Set<string>): AsyncGenerator<RecordData> {
  const children = plan.children;
  for await (const record of records) {
    yield record;
    if (!children || !hasChildren(record, children.when)) continue;
    const id = String(readPath(record, plan.id));
    if (expanded.has(id)) continue;
    expanded.add(id);
    const params = renderSyncParams(children.params, { [children.as]: record });
    yield* withChildren(reader, plan, reader.connection.records(children.entity, children.action, params, reader.reads), expanded);
  }
}

/**
 * Every record a pass of `plan` reads, partition by partition (outermost first), with the
 * children of each (the plan's `children`), one page per level in memory at a time.
 * `incremental` adds the plan's incremental params, with `since` bound, to the plan's reads;
 * `fixed` params (the discovered field names) are added to them as they are, never as templates.
 * `signal` cancels the read in flight (the pass stops): it fails with CANCELLED.
 */
export async function* readPlan(
  connection: Connection,
  entity: string,
  plan: SyncPlan,
  since?: string,
  fixed: Record<string, unknown> = {},
  signal?: AbortSignal,
): AsyncGenerator<RecordData> {
  if (since !== undefined && !plan.incremental) throw new EngineError('INTERNAL', `${entity} has no incremental sync plan`);
  const extra = since !== undefined ? plan.incremental!.params : {};
  const expanded = new Set<string>();
  const reader: Reader = { connection, reads: signal ? { ...SYNC_READS, signal } : SYNC_READS };
  for (const read of planReads(plan)) {
    const records = readLevel(reader, entity, read, read.for_each ?? [], since !== undefined ? { since } : {}, extra, fixed);
    yield* withChildren(reader, plan, records, expanded);
  }
}

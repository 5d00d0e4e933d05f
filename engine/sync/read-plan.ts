import { EngineError } from '../errors.js';
import { planReads, type SyncPartition, type SyncPlan, type SyncRead } from '../manifest/index.js';
import type { Connection, RecordData } from '../runtime/index.js';
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

async function* readLevel(
  connection: Connection,
  owner: string,
  read: SyncRead,
  levels: readonly SyncPartition[],
  bindings: Bindings,
  extra: Record<string, unknown>,
): AsyncGenerator<RecordData> {
  const [level, ...rest] = levels;
  if (!level) {
    const params = { ...renderSyncParams(read.params, bindings), ...renderSyncParams(extra, bindings) };
    yield* connection.records(read.entity ?? owner, read.action, params, SYNC_READS);
    return;
  }
  for await (const partition of connection.records(level.entity, level.action, renderSyncParams(level.params, bindings), SYNC_READS)) {
    yield* readLevel(connection, owner, read, rest, { ...bindings, [level.as]: partition }, extra);
  }
}

/**
 * Every record a pass of `plan` reads, partition by partition (outermost first), one page in
 * memory at a time. `incremental` adds the plan's incremental params with `since` bound.
 */
export async function* readPlan(connection: Connection, entity: string, plan: SyncPlan, since?: string): AsyncGenerator<RecordData> {
  if (since !== undefined && !plan.incremental) throw new EngineError('INTERNAL', `${entity} has no incremental sync plan`);
  const extra = since !== undefined ? plan.incremental!.params : {};
  for (const read of planReads(plan)) {
    yield* readLevel(connection, entity, read, read.for_each ?? [], since !== undefined ? { since } : {}, extra);
  }
}

import { UpstreamError, UriTooLongError } from '../errors.js';
import { readPath } from '../http/index.js';
import type { SyncDiscoverFields, SyncValueType } from '../manifest/index.js';
import type { Connection } from '../runtime/index.js';
import type { ValueTypes } from '../search/index.js';
import { SYNC_READS } from './read-plan.js';

/** The joined names a pass sends when the manifest names no bound (see max_read_param_length). */
export const DEFAULT_MAX_READ_PARAM_LENGTH = 12_000;

/** What a pass learns from the upstream before its reads. */
export interface DiscoveredFields {
  /** The param every read gets: `{<read_param>: "a,b,c"}` (empty when nothing was discovered). */
  readParams: Record<string, string>;
  /** `<under>.<name>` -> value type, for the definitions whose upstream type `types` maps. */
  valueTypes: ValueTypes;
}

/** Whether a definition carries a true skip flag (hidden, archived...). */
function skipped(definition: unknown, flags: readonly string[]): boolean {
  return flags.some((flag) => readPath(definition, flag) === true);
}

/**
 * Reads an entity's field definitions from the upstream (through the connection, so with auth,
 * limits and retries) and turns them into the read param and the value types of the pass.
 * Why: an upstream account defines its own fields (custom properties); a list returns them only
 * when asked by name, and their types decide how search compares them. `signal` cancels the
 * read (the pass stops).
 */
export async function discoverFields(connection: Connection, entity: string, discover: SyncDiscoverFields, signal?: AbortSignal): Promise<DiscoveredFields> {
  const definitions = await connection.discoverFields(entity, signal ? { ...SYNC_READS, signal } : SYNC_READS);
  const names: string[] = [];
  const valueTypes: Record<string, SyncValueType> = {};
  for (const definition of definitions) {
    if (skipped(definition, discover.skip_when ?? [])) continue;
    const name = readPath(definition, discover.name);
    if (typeof name !== 'string' || name === '') {
      throw new UpstreamError(`${connection.type} ${entity}: a field definition has no name at "${discover.name}"`);
    }
    if (names.includes(name)) continue;
    names.push(name);
    const upstreamType = readPath(definition, discover.type);
    if (typeof upstreamType === 'string' && Object.hasOwn(discover.types, upstreamType))
      valueTypes[`${discover.under}.${name}`] = discover.types[upstreamType]!;
  }
  return { readParams: names.length > 0 ? { [discover.read_param]: joinedNames(connection.type, entity, discover, names) } : {}, valueTypes };
}

/**
 * The names comma-joined, or URI_TOO_LONG when they exceed the manifest's bound: the pass is
 * refused rather than split, since a record read in parts would be written from its last part only.
 */
function joinedNames(type: string, entity: string, discover: SyncDiscoverFields, names: string[]): string {
  const joined = names.join(',');
  const max = discover.max_read_param_length ?? DEFAULT_MAX_READ_PARAM_LENGTH;
  if (joined.length > max) {
    throw new UriTooLongError(
      `${type} ${entity}: the ${names.length} discovered field names join to ${joined.length} characters in "${discover.read_param}", over the ${max} a read may send (max_read_param_length); hide or archive unused fields upstream`,
      { details: [{ path: `/sync/discover_fields/read_param`, message: `must be at most ${max} characters, got ${joined.length}` }] },
    );
  }
  return joined;
}

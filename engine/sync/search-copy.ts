import { SearchNotReadyError, UnknownEntityError, UnsupportedActionError } from '../errors.js';
import type { Manifest } from '../manifest/index.js';
import { defaultSortable, parseSearchParams, searchRecords, type SearchResult } from '../search/index.js';
import type { ValueTypes } from '../search/index.js';
import { connectorNotFound, type Store, type SyncState, type Tenant } from '../store/index.js';

/** Where a `search` runs: one connector's copy in a store, shaped by its manifest's sync plans. */
export interface SearchTarget {
  store: Store;
  manifest: Manifest;
  connectorId: string;
  /** Hosted mode: the caller's tenant; the copy is read only when the connector is the tenant's. */
  tenant?: Tenant;
}

/** The state SEARCH_NOT_READY carries: never run yet, or running, or failed before any success. */
function notReady(entity: string, state: SyncState | undefined): SearchNotReadyError {
  const sync = state
    ? { entity, status: state.status, records: state.records, started_at: state.started_at, last_success_at: null, last_error: state.last_error }
    : { entity, status: 'pending', records: 0, started_at: null, last_success_at: null, last_error: null };
  const why =
    state?.status === 'failed' ? `its last sync failed (${state.last_error})` : state ? 'its first sync is still running' : 'it has not been synchronized yet';
  return new SearchNotReadyError(`search on ${entity} reads the synchronized copy, and ${why}; retry once a sync has succeeded`, { sync });
}

/**
 * The value types a search compares by: those the entity's last successful pass discovered from
 * the upstream, with the manifest's own winning where both type a path. Read per query, so a type
 * changed upstream takes effect with the next pass, without copying anything again.
 */
function effectiveValueTypes(declared: ValueTypes | undefined, state: SyncState | undefined): ValueTypes {
  return { ...state?.value_types, ...declared };
}

/**
 * The `search` action: validates params against the entity's searchable fields (every problem at
 * once), refuses with SEARCH_NOT_READY until one pass of the entity has succeeded (an empty
 * answer would be a lie), then runs the query on the store's copy.
 */
export async function searchCopy(target: SearchTarget, entity: string, params: unknown): Promise<SearchResult> {
  const { manifest, store, connectorId, tenant } = target;
  const spec = manifest.entities[entity];
  if (!spec) {
    const known = Object.keys(manifest.entities);
    throw new UnknownEntityError(`${manifest.type} has no entity "${entity}"; entities: ${known.join(', ')}`, {
      details: [{ path: '/entity', message: `must be one of ${known.join(', ')}` }],
    });
  }
  if (!spec.sync) {
    const known = Object.keys(spec.actions);
    throw new UnsupportedActionError(`${manifest.type} ${entity} does not support "search"; actions: ${known.join(', ')}`, {
      details: [{ path: '/action', message: `must be one of ${known.join(', ')}` }],
    });
  }
  const states = tenant ? await store.tenantSyncStates(tenant, connectorId) : await store.syncStates(connectorId);
  if (!states) throw connectorNotFound();
  const state = states.find((s) => s.entity === entity);
  const sortable = spec.sync.sortable ?? defaultSortable(spec.sync.searchable, spec.sync.value_types);
  const request = parseSearchParams(params ?? {}, spec.sync.searchable, effectiveValueTypes(spec.sync.value_types, state), sortable);
  if (!state?.last_success_at) throw notReady(entity, state);
  return searchRecords(store, { connectorId, entity }, request, tenant);
}

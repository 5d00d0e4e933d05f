/**
 * The typed view of a shipped connector: `execute`, `records` and `download` of a connection (in
 * process or hosted) typed per entity and action from the generated `ShippedConnectors` map. Only
 * types: at run time the object is the same Connection or HostedConnection, which checks every
 * call against the manifest all the same (JavaScript callers and values from outside get the
 * engine's typed errors).
 */
import type { HostedCallOptions, HostedConnection } from '../client/index.js';
import type { CallOptions, Connection, DownloadStream } from '../runtime/index.js';
import type { ShippedConnectors } from './connector-types.generated.js';
import type { SearchParams, TypedSearchResult } from './search-params.js';

/** A connector type the package ships (connectors/*.yaml), as its manifest spells it. */
export type ShippedType = keyof ShippedConnectors;

type Entities<T extends ShippedType> = ShippedConnectors[T];

/** The entities of a connector type. */
export type EntityName<T extends ShippedType> = keyof Entities<T> & string;

/** The actions of an entity (`search` where the entity has a synchronized copy). */
export type ActionName<T extends ShippedType, E extends EntityName<T>> = keyof Entities<T>[E] & string;

/** The generated description of one action: its kind, params, record, meta (or searchable fields and hit). */
export type ActionSpecOf<T extends ShippedType, E extends EntityName<T>, A extends string> = A extends keyof Entities<T>[E] ? Entities<T>[E][A] : never;

/** What an action takes: its params object, or the search grammar over the entity's searchable fields. */
export type ActionParams<S> = S extends { kind: 'search'; fields: infer F } ? SearchParams<F> : S extends { params: infer P } ? P : never;

/**
 * The same fields as a plain object type: unlike the generated interfaces it reads as an object
 * with string keys, so a typed result still passes where an untyped one (ListResult, SearchResult) is taken.
 */
type Plain<M> = { [K in keyof M]: M[K] };

/** What an action returns: a page of records, one record, a file stream, or search hits. */
export type ActionResult<S> = S extends { kind: 'records'; record: infer R; meta: infer M }
  ? { data: R[]; meta: Plain<M> }
  : S extends { kind: 'record'; record: infer R; meta: infer M }
    ? { data: R; meta: Plain<M> }
    : S extends { kind: 'download' }
      ? DownloadStream
      : S extends { kind: 'search'; hit: infer H }
        ? TypedSearchResult<Plain<H>>
        : never;

/** An object with no params in it. */
type NoParams = Record<never, never>;

/** Params may be left out exactly when the action requires none (the engine reads a missing params object as `{}`). */
export type CallArgs<P, O> = NoParams extends P ? [params?: P, options?: O] : [params: P, options?: O];

/** The list-like actions of an entity: those `records()` reads page by page. */
export type ListActionName<T extends ShippedType, E extends EntityName<T>> = {
  [A in ActionName<T, E>]: ActionSpecOf<T, E, A> extends { kind: 'records' } ? A : never;
}[ActionName<T, E>];

/** The entities with at least one list-like action. */
export type ListEntityName<T extends ShippedType> = { [E in EntityName<T>]: [ListActionName<T, E>] extends [never] ? never : E }[EntityName<T>];

/** The entities with a `download` action. */
export type DownloadEntityName<T extends ShippedType> = { [E in EntityName<T>]: 'download' extends ActionName<T, E> ? E : never }[EntityName<T>];

/** `execute` and `records`, typed for one connector type; `O` is the call options of the mode. */
export interface TypedCalls<T extends ShippedType, O> {
  /**
   * Runs one action: a page `{ data: Record[], meta }`, one record `{ data: Record, meta }`, a
   * `DownloadStream`, or search hits, as the action's kind says.
   */
  execute<E extends EntityName<T>, A extends ActionName<T, E>>(
    entity: E,
    action: A,
    ...args: CallArgs<ActionParams<ActionSpecOf<T, E, A>>, O>
  ): Promise<ActionResult<ActionSpecOf<T, E, A>>>;
  /** Every record of a list-like action, page by page. */
  records<E extends ListEntityName<T>, A extends ListActionName<T, E>>(
    entity: E,
    action: A,
    ...args: CallArgs<ActionParams<ActionSpecOf<T, E, A>>, O>
  ): AsyncGenerator<ActionSpecOf<T, E, A> extends { record: infer R } ? R : never>;
}

/** `download`, offered only by connector types with a downloadable entity, and only for those entities. */
export type TypedDownload<T extends ShippedType, O> = [DownloadEntityName<T>] extends [never]
  ? unknown
  : {
      /** Streams a file, the same as execute(entity, 'download', params, options). */
      download<E extends DownloadEntityName<T>>(entity: E, ...args: CallArgs<ActionParams<ActionSpecOf<T, E, 'download'>>, O>): Promise<DownloadStream>;
    };

type TypedMembers = 'execute' | 'records' | 'download';

/** A connection to a shipped connector in this process, typed per entity and action. */
export type TypedConnection<T extends ShippedType> = Omit<Connection, TypedMembers> & TypedCalls<T, CallOptions> & TypedDownload<T, CallOptions>;

/** A connection to a shipped connector through the hosted service, typed as the in-process one. */
export type TypedHostedConnection<T extends ShippedType> = Omit<HostedConnection, TypedMembers> &
  TypedCalls<T, HostedCallOptions> &
  TypedDownload<T, HostedCallOptions>;

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/**
 * The shipped type a `connect` argument names (case-insensitively, as findManifest reads it), or
 * never for a `string`, a union of names or an unknown name: those connect untyped.
 */
export type ShippedTypeOf<T extends string> = string extends T
  ? never
  : true extends IsUnion<T>
    ? never
    : Lowercase<T> extends ShippedType
      ? Lowercase<T>
      : never;

/** What `connect(type, { credentials })` returns: typed for a shipped type named literally, else the untyped Connection. */
export type ConnectionOf<T extends string> = [ShippedTypeOf<T>] extends [never] ? Connection : TypedConnection<ShippedTypeOf<T> & ShippedType>;

/** What `connect(type, { hosted })` returns: typed for a shipped type named literally, else the untyped HostedConnection. */
export type HostedConnectionOf<T extends string> = [ShippedTypeOf<T>] extends [never]
  ? HostedConnection
  : TypedHostedConnection<ShippedTypeOf<T> & ShippedType>;

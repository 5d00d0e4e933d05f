/**
 * The typed TypeScript API of the shipped connectors: what each entity's actions take and return,
 * generated from connectors/*.yaml, and the views of a connection typed by it. Types only.
 * This file is the folder's only door.
 */
export type * from './connector-types.generated.js';
export type { SearchFilter, SearchParams, SearchPath, SearchScalar, TypedSearchHit, TypedSearchResult } from './search-params.js';
export type {
  ActionName,
  ActionParams,
  ActionResult,
  ActionSpecOf,
  ConnectionOf,
  DownloadEntityName,
  EntityName,
  HostedConnectionOf,
  ListActionName,
  ListEntityName,
  ShippedType,
  ShippedTypeOf,
  TypedConnection,
  TypedHostedConnection,
} from './typed-connection.js';

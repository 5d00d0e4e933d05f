import { KeptPerOwner } from './kept-per-owner.js';
import { indexPath } from './field-path.js';
import { scoringNodes } from './scoring-nodes.js';
import type { AbsentGrams } from './sql-dialect.js';
import type { SearchRequest, SearchScope } from './types.js';

/** Most requests whose absent grams are kept per connection: a few hundred small maps. */
const KEPT = 256;

const known = new KeptPerOwner<{ absent: AbsentGrams; version: string }>(KEPT);

/** What the absent grams of a request depend on: the scope and each scoring fuzzy node's path and text. */
function keyOf(scope: SearchScope, request: SearchRequest): string {
  const fuzzy = scoringNodes(request.filter).filter((node) => node.op === 'fuzzy');
  return JSON.stringify([scope.connectorId, scope.entity, fuzzy.map((node) => [indexPath(node.field), node.text])]);
}

/**
 * The absent grams the last presence probe of this request found on this SQLite connection
 * (gram-presence.ts) at this very `version` of the data (sqlite-data-version.ts), or undefined:
 * nothing was written since, so the grams are absent still. PostgreSQL keeps them per pool at one
 * version, as a guess its level statement checks (run-levels.ts).
 */
export function knownAbsent(db: object, scope: SearchScope, request: SearchRequest, version: string): AbsentGrams | undefined {
  const entry = known.get(db, keyOf(scope, request));
  return entry && entry.version === version ? entry.absent : undefined;
}

/** Keeps what a presence probe found at `version` (the oldest out first when full). */
export function rememberAbsent(db: object, scope: SearchScope, request: SearchRequest, absent: AbsentGrams, version: string): void {
  known.set(db, keyOf(scope, request), { absent, version });
}

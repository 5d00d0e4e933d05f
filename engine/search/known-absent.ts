import { indexPath } from './field-path.js';
import { scoringNodes } from './scoring-nodes.js';
import type { AbsentGrams } from './sql-dialect.js';
import type { SearchRequest, SearchScope } from './types.js';

/** Most requests whose absent grams are kept per pool: a few hundred small maps. */
const KEPT = 256;

const known = new WeakMap<object, Map<string, { absent: AbsentGrams; version: string | undefined }>>();

/** What the absent grams of a request depend on: the scope and each scoring fuzzy node's path and text. */
function keyOf(scope: SearchScope, request: SearchRequest): string {
  const fuzzy = scoringNodes(request.filter).filter((node) => node.op === 'fuzzy');
  return JSON.stringify([scope.connectorId, scope.entity, fuzzy.map((node) => [indexPath(node.field), node.text])]);
}

/**
 * The absent grams the last presence probe of this request found on this connection or pool
 * (gram-presence.ts), or undefined. With a `version` (SQLite: sqliteDataVersion), only what was
 * found at that very version of the data: nothing was written since, so the grams are absent
 * still. Without one (a PostgreSQL pool), only a guess: a write since may have added one of them,
 * so a read that uses it checks, in its own snapshot, that they are absent still
 * (pg-absence-guard.ts).
 */
export function knownAbsent(db: object, scope: SearchScope, request: SearchRequest, version?: string): AbsentGrams | undefined {
  const entry = known.get(db)?.get(keyOf(scope, request));
  return entry && entry.version === version ? entry.absent : undefined;
}

/** Keeps what a presence probe found at `version` (the oldest out first when full), or forgets it (undefined: its guard failed). */
export function rememberAbsent(db: object, scope: SearchScope, request: SearchRequest, absent: AbsentGrams | undefined, version?: string): void {
  let kept = known.get(db);
  if (!kept) known.set(db, (kept = new Map()));
  const key = keyOf(scope, request);
  kept.delete(key);
  if (absent === undefined) return;
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, { absent, version });
}

import { andNodes } from './and-nodes.js';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { planSearch } from './search-plan.js';
import { keptKeysFor, keptValuesFor } from './sort-keys.js';
import { valueKeysServe, valueKeyTarget, type ValueKeyTarget } from './value-key-target.js';
import type { SortKeyTarget } from './sort-key-target.js';
import { SqlParams } from './sql-params.js';
import { postgresDialect } from './postgres-dialect.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { keyRangeWhere, keysTable } from './key-range-sql.js';
import { requiredPrefix, scoringPrefix } from './like-prefix.js';
import type { Bound, KeyRange } from './key-range.js';
import { RANGE_VALUES_MOST, rangeGuard, rangeValues, type RangeRead } from './range-values.js';
import { guessedRangeRead, rememberRangeRead } from './range-guess.js';
import type { SearchDialect, SearchRequest, SearchScope } from './types.js';
import { preparedStatement } from './sqlite-statements.js';

type Database = BetterSqlite3.Database | pg.Pool | pg.PoolClient | pg.Client;

const RANGE_OPS = new Set(['gt', 'gte', 'lt', 'lte']);

/**
 * How many keys a range may hold to be read from the keys: past this the id-ordered scan fills a
 * page within limit × total / this rows (a few thousand at most at 100,000 records), while the
 * keys plan sorts every key of the range by id. Either way a page costs a few thousand index
 * entries or rows; the probe that decides reads at most this many index entries.
 */
export const rangeKeysLimit = (limit: number) => Math.max(5_000, 50 * (limit + 1));

/**
 * The range on one path that a request's hits must all be in: the `gt`/`gte`/`lt`/`lte` nodes
 * joined to the root by `and` alone, on the first sortable single-valued path that has one, with
 * a number (any path) or a string (an untyped path). Undefined when there is none.
 */
export function requiredRange(request: SearchRequest): Omit<KeyRange, 'pathId'> | undefined {
  const nodes = andNodes(request.filter);
  let found: Omit<KeyRange, 'pathId'> | undefined;
  for (const node of nodes) {
    if (!RANGE_OPS.has(node.op) || !('value' in node) || !request.sortable?.has(node.field.path) || node.field.elements) continue;
    const { field, value } = node;
    const rank = typeof value === 'number' ? 0 : typeof value === 'string' && !field.valueType ? 1 : undefined;
    if (rank === undefined || value === null || typeof value === 'boolean' || (found && (found.field.path !== field.path || found.rank !== rank))) continue;
    found ??= { field, rank };
    const bound = { value, inclusive: node.op === 'gte' || node.op === 'lte' };
    if (node.op.startsWith('g')) found.lower = tighter(found.lower, bound, 1);
    else found.upper = tighter(found.upper, bound, -1);
  }
  return found;
}

/**
 * The narrower of two bounds on the same side (`sign` 1 for lower bounds, -1 for upper ones).
 * Where JavaScript's string order differs from the databases' byte order (astral characters),
 * the bound kept is the wider one: the keys then hold a few more candidates, never fewer.
 */
function tighter(old: Bound | undefined, bound: Bound, sign: 1 | -1): Bound {
  if (!old) return bound;
  if (old.value === bound.value) return old.inclusive ? bound : old;
  return (bound.value > old.value ? sign : -sign) > 0 ? bound : old;
}

/** How many keys the range holds, counted up to `most` (one index range walk, no record read). */
async function countKeys(db: Database, dialect: SearchDialect, range: KeyRange, most: number): Promise<number> {
  const params = new SqlParams();
  const d = dialect === 'sqlite' ? sqliteDialect : postgresDialect;
  const text = `SELECT count(*) AS n FROM (SELECT 1 FROM ${keysTable(range)} AS s WHERE ${keyRangeWhere(range, { d, params })} LIMIT ${params.add(most)}) AS c`;
  const { sql, params: values } = params.finish(text, dialect);
  if (dialect === 'sqlite') return Number((preparedStatement(db as BetterSqlite3.Database, sql).get(...values) as { n: number }).n);
  return Number((await (db as pg.Pool).query<{ n: string }>(sql, values)).rows[0]?.n);
}

/**
 * The values a request's hits must hold on a path, one per such node: an `eq` or an `in` joined to
 * the root by `and` alone, of numbers (any path) or strings (an untyped path), at most `most`
 * distinct, no null; on a sortable single-valued path (its sort keys) or a path inside an object or
 * through an array (its value keys, value-key-target.ts; one value there, as a record may hold
 * several). Each value's keys are then one walk in id order (range-values.ts): an index plan whose
 * cost is values × a page, where PostgreSQL otherwise picks between walking the records in id
 * order and fetching every containment match, by an estimate drawn from its ANALYZE sample (an `in`
 * of five 1% values was read either way, 2.5 or 12 ms at 100,000), and every match sorted by id.
 */
export function requiredValues(request: SearchRequest, most: number): Array<Omit<KeyRange, 'pathId'>> {
  const nodes = andNodes(request.filter);
  const found: Array<Omit<KeyRange, 'pathId'>> = [];
  for (const node of nodes) {
    const listed = node.op === 'in' ? node.values : node.op === 'eq' ? [node.value] : undefined;
    if (!listed || !('field' in node)) continue;
    const { field } = node;
    const keys = request.sortable?.has(field.path) && !field.elements ? 'sort' : valueKeysServe(field) ? 'value' : undefined;
    const values = [...new Set(listed)];
    if (!keys || values.length > (keys === 'value' ? 1 : most)) continue;
    const rank = values.every((value) => typeof value === 'number')
      ? 0
      : values.every((value) => typeof value === 'string') && !field.valueType
        ? 1
        : undefined;
    if (rank !== undefined) found.push({ field, rank, values: values as (string | number)[], keys });
  }
  return found;
}

/** The kept keys a required range or values would read: a path's sort keys or its value keys. */
type KeptTarget = { kind: 'sort'; target: SortKeyTarget } | { kind: 'value'; target: ValueKeyTarget };

/** What an id-ordered request could read from kept keys: the required values or range, the keys, and whether a search may start them. */
interface RangeTarget {
  required: Omit<KeyRange, 'pathId'>;
  kept: KeptTarget;
  start: boolean;
}

/**
 * The required values, range and `like` prefix of an id-ordered keyed request, each with the kept
 * keys that would serve it, in the order they are tried: values first (a few walks), then the
 * range, then the prefix (like-prefix.ts, on a path's value keys). A `levels` request's scoring
 * `like` prefix (like-prefix.ts scoringPrefix), for the levels where that `like` matches, on SQLite
 * only: PostgreSQL's walk of such a level in id order costs about what the keys do, and the probe
 * is one more statement (the deep nest of scripts/bench-search.ts at 100,000 records, interleaved
 * runs under load: SQLite 14.4 against 8.6 ms at p50 with the keys, PostgreSQL 12.0 against 17.4). `start`:
 * whether a search may start keeping those keys: a range may, as a sort does, and an equality or a
 * prefix on a path only value keys serve; an equality on a sortable path only uses sort keys a sort or a range
 * started, so the commonest filter adds no key writes of its own.
 */
function rangeTargets(dialect: SearchDialect, scope: SearchScope, request: SearchRequest, valuesMost: number): RangeTarget[] {
  if (request.sort.length > 0) return [];
  const kind = planSearch(request).kind;
  if (kind === 'levels') {
    const prefix = dialect === 'sqlite' ? scoringPrefix(request) : undefined;
    return prefix ? [{ required: prefix, kept: { kind: 'value', target: valueKeyTarget(scope, prefix.field) }, start: true }] : [];
  }
  if (kind !== 'keyed') return [];
  const range = requiredRange(request);
  const prefix = requiredPrefix(request);
  const targets = [...(valuesMost > 0 ? requiredValues(request, valuesMost) : []), ...(range ? [range] : []), ...(prefix ? [prefix] : [])];
  return targets.map((required) => {
    const kept: KeptTarget =
      required.keys === 'value'
        ? { kind: 'value', target: valueKeyTarget(scope, required.field) }
        : { kind: 'sort', target: { ...scope, path: required.field.path, valueType: required.field.valueType ?? '' } };
    return { required, kept, start: required.values === undefined || kept.kind === 'value' };
  });
}

/** The registered id of the kept keys a target names, started on first use with `ensure`. */
const keptFor = (db: Database, dialect: SearchDialect, kept: KeptTarget, ensure: boolean) =>
  kept.kind === 'sort' ? keptKeysFor(db, dialect, kept.target, ensure) : keptValuesFor(db, dialect, kept.target, ensure);

/** The first target whose keys are kept (started on first use with `ensure` where a target may be), with their registered id. */
async function firstKept(
  db: Database,
  dialect: SearchDialect,
  targets: readonly RangeTarget[],
  ensure: boolean,
): Promise<{ target: RangeTarget; pathId: number } | undefined> {
  for (const target of targets) {
    const pathId = await keptFor(db, dialect, target.kept, ensure && target.start);
    if (pathId !== undefined) return { target, pathId };
  }
  return undefined;
}

/**
 * Starts keeping the keys a request's range or values would read, on a connection that may write,
 * for a search that then runs on a read-only one (search-records.ts), as it does for a sort.
 */
export async function startRangeKeys(db: Database, dialect: SearchDialect, scope: SearchScope, request: SearchRequest): Promise<void> {
  await firstKept(db, dialect, rangeTargets(dialect, scope, request, RANGE_VALUES_MOST), true);
}

/**
 * How an id-ordered request reads a required range (keyRangeFor): the range to read from kept keys
 * (undefined: in id order), and on PostgreSQL, when that is the guess of the range's last probe on
 * this connection or pool (range-guess.ts), the guard a statement shaped by it checks in its own
 * snapshot (range-values.ts rangeGuard; postgres-guarded.ts) and the probe to run when it fails.
 */
export interface KeyRangeRead {
  range: KeyRange | undefined;
  guess?: { guard: (params: SqlParams) => string; probe: () => Promise<KeyRange | undefined> };
}

/** The range as a probe's answer has it read: with its values, as it is, or not from its keys. */
const rangeOf = (range: KeyRange, read: RangeRead): KeyRange | undefined =>
  typeof read === 'object' ? { ...range, values: read.values } : read === 'keys' ? range : undefined;

/**
 * The range an id-ordered request reads from the kept keys instead of scanning records in id
 * order, or undefined. Chosen per request by a bounded probe (fewer than rangeKeysLimit keys in
 * the range): both plans return the same rows in the same order, so cursors stay valid whichever
 * one a page takes. A range over a few distinct values (RANGE_VALUES_MOST) is read value by value
 * whatever its size, and so are the values of a required `eq` or `in` (requiredValues) when the
 * path's keys are kept. With `ensure` a range starts the path's keys on first use, as for a sort.
 * PostgreSQL takes the range's last probe on the connection or pool as a guess (KeyRangeRead.guess):
 * the probe is a statement of its own, a round trip and a plan (0.4 to 1 ms of a 4 to 6 ms range
 * search at 100,000 records, scripts/bench-search.ts), where its check inside the read costs the
 * walk alone.
 */
export async function keyRangeFor(
  db: Database,
  dialect: SearchDialect,
  scope: SearchScope,
  request: SearchRequest,
  ensure: boolean,
  most = rangeKeysLimit(request.limit),
  valuesMost = RANGE_VALUES_MOST,
): Promise<KeyRangeRead> {
  const found = await firstKept(db, dialect, rangeTargets(dialect, scope, request, valuesMost), ensure);
  if (!found) return { range: undefined };
  const range = { ...found.target.required, pathId: found.pathId };
  if (range.values) return { range };
  if (valuesMost > 0) {
    const probe = async () => {
      const { values, keys } = await rangeValues(db, dialect, range, valuesMost, most);
      const read: RangeRead = values.length <= valuesMost ? { values } : (keys as number) < most ? 'keys' : 'scan';
      if (dialect === 'postgres') rememberRangeRead(db, range, valuesMost, most, read);
      return rangeOf(range, read);
    };
    const guessed = dialect === 'postgres' ? guessedRangeRead(db, range, valuesMost, most) : undefined;
    if (!guessed) return { range: await probe() };
    return { range: rangeOf(range, guessed), guess: { guard: (params) => rangeGuard(range, guessed, valuesMost, most, params), probe } };
  }
  return { range: (await countKeys(db, dialect, range, most)) < most ? range : undefined };
}

/**
 * Query and path parameters of the Asana routes, validated once (API-NOTES B2, B3, B6).
 * Messages follow Asana's `<name>: <problem>` pattern; the exact wordings beyond B3/B6's quoted
 * ones are [unverified].
 */
import { lastParam, type ParamMap } from '../param-map.js';
import type { FakeResponse } from '../responses.js';
import type { AsanaDataset } from './dataset.js';
import { badRequest, missingInput, notALong, unknownObject } from './errors.js';
import type { AsanaProject, AsanaSection, AsanaTag, AsanaTask, AsanaTeam, AsanaUser, AsanaWorkspace } from './model.js';

/** A parsed value, or the error response to send. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; response: FakeResponse };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(response: FakeResponse): Parsed<T> => ({ ok: false, response });

/** A query parameter's value, undefined when absent or empty. */
export function queryValue(query: ParamMap, name: string): string | undefined {
  const value = lastParam(query, name);
  return value === undefined || value === '' ? undefined : value;
}

/**
 * An optional boolean (`true`/`false`). Why: `archived`, `completed`, `sort_ascending`, `is_subtask`
 * are booleans in the spec; anything else is a 400.
 */
export function booleanParam(query: ParamMap, name: string): Parsed<boolean | undefined> {
  const raw = queryValue(query, name);
  if (raw === undefined) return ok(undefined);
  if (raw === 'true') return ok(true);
  if (raw === 'false') return ok(false);
  return fail(badRequest(`${name}: Not a boolean: ${raw}`));
}

/** An optional ISO 8601 date-time, as epoch milliseconds. Why: `modified_since`, `created_at.after`... */
export function dateTimeParam(query: ParamMap, name: string): Parsed<number | undefined> {
  const raw = queryValue(query, name);
  if (raw === undefined) return ok(undefined);
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) || Number.isNaN(Date.parse(raw))) {
    return fail(badRequest(`${name}: Not a valid date-time: ${raw}`));
  }
  return ok(Date.parse(raw));
}

/** An optional ISO 8601 date (`YYYY-MM-DD`). Why: `due_on.before/after` compare calendar dates. */
export function dateParam(query: ParamMap, name: string): Parsed<string | undefined> {
  const raw = queryValue(query, name);
  if (raw === undefined) return ok(undefined);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(raw))) return fail(badRequest(`${name}: Not a valid date: ${raw}`));
  return ok(raw);
}

/**
 * `completed_since`: a date-time, or `now` meaning "incomplete tasks only" (B3, B8).
 * Returns the cut-off in epoch ms (`Infinity` for `now`), or undefined when absent.
 */
export function completedSinceParam(query: ParamMap): Parsed<number | undefined> {
  const raw = queryValue(query, 'completed_since');
  if (raw === 'now') return ok(Number.POSITIVE_INFINITY);
  return dateTimeParam(query, 'completed_since');
}

/**
 * A gid that must be numeric: `Not a Long` (400) otherwise.
 * Why: B6: a malformed parameter is a 400, an unknown object a 404.
 */
export function gidValue(name: string, raw: string): Parsed<string> {
  return /^\d{1,20}$/.test(raw) ? ok(raw) : fail(notALong(name, raw));
}

type Finder<T> = (data: AsanaDataset, gid: string) => T | undefined;

function resolver<T>(find: Finder<T>) {
  return (data: AsanaDataset, name: string, raw: string): Parsed<T> => {
    const gid = gidValue(name, raw);
    if (!gid.ok) return gid;
    const found = find(data, gid.value);
    return found === undefined ? fail(unknownObject(name, gid.value)) : ok(found);
  };
}

/** Finds a workspace by gid (400 malformed, 404 unknown). */
export const resolveWorkspace = resolver<AsanaWorkspace>((data, gid) => data.workspace(gid));
/** Finds a project by gid. */
export const resolveProject = resolver<AsanaProject>((data, gid) => data.project(gid));
/** Finds a section by gid. */
export const resolveSection = resolver<AsanaSection>((data, gid) => data.section(gid));
/** Finds a task by gid. */
export const resolveTask = resolver<AsanaTask>((data, gid) => data.task(gid));
/** Finds a team by gid. */
export const resolveTeam = resolver<AsanaTeam>((data, gid) => data.team(gid));
/** Finds a tag by gid. */
export const resolveTag = resolver<AsanaTag>((data, gid) => data.tag(gid));

/**
 * Finds a user by `me`, email or gid (B3: "`user_gid` may be `me`, an email, or a gid").
 * Why: `/users/{gid}`, `/users/{gid}/teams` and the `assignee` filters accept all three.
 */
export function resolveUser(data: AsanaDataset, name: string, raw: string, meGid: string): Parsed<AsanaUser> {
  if (raw === 'me') return ok(data.user(meGid)!);
  if (raw.includes('@')) {
    const user = data.userByEmail(raw);
    return user ? ok(user) : fail(unknownObject(name, raw));
  }
  const gid = gidValue(name, raw);
  if (!gid.ok) return gid;
  const user = data.user(gid.value);
  return user ? ok(user) : fail(unknownObject(name, gid.value));
}

/** A required query parameter: `<name>: Missing input` (400) when absent. */
export function requiredQuery(query: ParamMap, name: string): Parsed<string> {
  const value = queryValue(query, name);
  return value === undefined ? fail(missingInput(name)) : ok(value);
}

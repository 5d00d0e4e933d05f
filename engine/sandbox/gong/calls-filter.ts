/**
 * The calls filters (API-NOTES C.3, spec `CallsFilter`/`CallsRequestFilterWithOwners`): a date
 * range (from inclusive, to exclusive), a workspace, call ids and, for extensive, host user ids.
 */
import type { FakeRequest } from '../fake-server.js';
import { lastParam } from '../param-map.js';
import type { FakeResponse } from '../responses.js';
import type { GongContext } from './context.js';
import type { CallRecord } from './dataset.js';
import { malformed } from './errors.js';
import { parseDateTime } from './time.js';

/** A validated filter. */
export interface CallsFilter {
  fromMs?: number;
  toMs?: number;
  workspaceId?: string;
  callIds?: ReadonlySet<string>;
  primaryUserIds?: ReadonlySet<string>;
}

/** A filter, or the 400 to answer. */
export type FilterOutcome = { ok: true; filter: CallsFilter } | { ok: false; response: FakeResponse };

/**
 * Reads `fromDateTime`, `toDateTime` and `workspaceId` of `GET /v2/calls`. Both dates are optional
 * although the generated spec marks them required (C.3: "If not provided, list starts with
 * earliest call ... ends with most recent call"). Other query parameters are ignored (C.2:
 * Airbyte's `limit=100` is harmless).
 */
export function filterFromQuery(ctx: GongContext, req: FakeRequest): FilterOutcome {
  return buildFilter(ctx, req, {
    fromDateTime: lastParam(req.query, 'fromDateTime'),
    toDateTime: lastParam(req.query, 'toDateTime'),
    workspaceId: lastParam(req.query, 'workspaceId'),
  });
}

/**
 * Reads the `filter` object of a POST body; `primaryUserIds` only where the operation has it
 * (extensive). Unknown members are ignored, as the JSON binding of the API does [unverified].
 */
export function filterFromBody(ctx: GongContext, req: FakeRequest, filter: unknown, withOwners: boolean): FilterOutcome {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return fail(req, 'filter is required and must be an object');
  const body = filter as Record<string, unknown>;
  for (const name of ['fromDateTime', 'toDateTime', 'workspaceId'] as const) {
    if (body[name] !== undefined && body[name] !== null && typeof body[name] !== 'string') return fail(req, `filter.${name} must be a string`);
  }
  const callIds = idList(body['callIds']);
  if (callIds === 'bad') return fail(req, 'filter.callIds must be an array of numeric call id strings');
  const primaryUserIds = withOwners ? idList(body['primaryUserIds']) : undefined;
  if (primaryUserIds === 'bad') return fail(req, 'filter.primaryUserIds must be an array of numeric user id strings');
  const outcome = buildFilter(ctx, req, {
    fromDateTime: (body['fromDateTime'] as string | null | undefined) ?? undefined,
    toDateTime: (body['toDateTime'] as string | null | undefined) ?? undefined,
    workspaceId: (body['workspaceId'] as string | null | undefined) ?? undefined,
  });
  if (!outcome.ok) return outcome;
  // An empty list is the same as none: "If not supplied, returns all calls between fromDateTime and toDateTime".
  if (callIds && callIds.size > 0) outcome.filter.callIds = callIds;
  if (primaryUserIds && primaryUserIds.size > 0) outcome.filter.primaryUserIds = primaryUserIds;
  return outcome;
}

/**
 * The calls a filter selects, in list order. Dates compare with each call's filter time
 * (scheduled time for web conferences, start time otherwise: C.3).
 * Why: the three calls list routes share one selection.
 */
export function selectCalls(records: readonly CallRecord[], filter: CallsFilter): CallRecord[] {
  return records.filter(
    (record) =>
      (filter.fromMs === undefined || record.timeMs >= filter.fromMs) &&
      (filter.toMs === undefined || record.timeMs < filter.toMs) &&
      (filter.workspaceId === undefined || record.metaData.workspaceId === filter.workspaceId) &&
      (filter.callIds === undefined || filter.callIds.has(record.metaData.id)) &&
      (filter.primaryUserIds === undefined || filter.primaryUserIds.has(record.metaData.primaryUserId)),
  );
}

function buildFilter(
  ctx: GongContext,
  req: FakeRequest,
  raw: { fromDateTime: string | undefined; toDateTime: string | undefined; workspaceId: string | undefined },
): FilterOutcome {
  const filter: { -readonly [K in keyof CallsFilter]: CallsFilter[K] } = {};
  for (const name of ['fromDateTime', 'toDateTime'] as const) {
    const value = raw[name];
    if (value === undefined || value === '') continue;
    const ms = parseDateTime(value);
    if (ms === undefined) {
      return fail(req, `${name} '${value}' is not an ISO-8601 date-time with a time zone, e.g. '2018-02-18T02:30:00-07:00' or '2018-02-18T08:00:00Z'`);
    }
    if (name === 'fromDateTime') filter.fromMs = ms;
    else filter.toMs = ms;
  }
  if (filter.fromMs !== undefined && filter.toMs !== undefined && filter.fromMs > filter.toMs) {
    return fail(req, 'fromDateTime must not be later than toDateTime');
  }
  if (raw.workspaceId !== undefined && raw.workspaceId !== '') {
    // An unknown workspace is a client error, not an empty result [unverified].
    if (!ctx.data.workspaces.some((workspace) => workspace.id === raw.workspaceId)) return fail(req, `Workspace '${raw.workspaceId}' was not found`);
    filter.workspaceId = raw.workspaceId;
  }
  return { ok: true, filter };
}

function idList(value: unknown): Set<string> | undefined | 'bad' {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && /^\d{1,20}$/.test(item))) return 'bad';
  return new Set(value as string[]);
}

function fail(req: FakeRequest, reason: string): FilterOutcome {
  return { ok: false, response: malformed(req, reason) };
}

import type { SqlParams } from './sql-params.js';
import { EPOCH_MS_SOURCE, ISO_INSTANT_SOURCE } from './strict-instant.js';

/** The leap-year rule of daysInMonth() (strict-instant.ts) in SQL, over integer columns of `p`. */
const DAYS_IN_MONTH =
  'CASE WHEN p.mo = 2 THEN (CASE WHEN (p.y % 4 = 0 AND p.y % 100 <> 0) OR p.y % 400 = 0 THEN 29 ELSE 28 END) WHEN p.mo IN (4, 6, 9, 11) THEN 30 ELSE 31 END';

/** daysFromCivil() (strict-instant.ts) step by step: every operand is non-negative, so integer `/` floors as Math.floor does. */
const YEAR = '(p.y - (CASE WHEN p.mo <= 2 THEN 1 ELSE 0 END))';
const YEAR_OF_ERA = `(${YEAR} - (${YEAR} / 400) * 400)`;
const DAY_OF_YEAR = '((153 * ((p.mo + 9) % 12) + 2) / 5 + p.d - 1)';
const DAY_OF_ERA = `(${YEAR_OF_ERA} * 365 + ${YEAR_OF_ERA} / 4 - ${YEAR_OF_ERA} / 100 + ${DAY_OF_YEAR})`;
const DAYS = `((${YEAR} / 400)::bigint * 146097 + ${DAY_OF_ERA} - 719468)`;

const VALID = `p.y >= 1 AND p.mo BETWEEN 1 AND 12 AND p.d BETWEEN 1 AND (${DAYS_IN_MONTH}) AND p.h <= 23 AND p.mi <= 59 AND p.s <= 59 AND p.zh <= 23 AND p.zm <= 59`;
const MILLIS = `(${DAYS} * 86400000 + p.h * 3600000 + p.mi * 60000 + p.s * 1000 + p.f - p.sg * (p.zh * 60 + p.zm) * 60000)`;

/**
 * The parts of an ISO match `x.m` as integers (absent parts 0; the fraction cut to milliseconds
 * by rpad, which pads or truncates to 3). Every cast reads a run of ASCII digits the pattern
 * matched, so none can raise.
 */
const PARTS = [
  'x.m[1]::int AS y',
  'x.m[2]::int AS mo',
  'x.m[3]::int AS d',
  "coalesce(x.m[4], '0')::int AS h",
  "coalesce(x.m[5], '0')::int AS mi",
  "coalesce(x.m[6], '0')::int AS s",
  "rpad(coalesce(x.m[7], ''), 3, '0')::int AS f",
  "(CASE x.m[9] WHEN '-' THEN -1 ELSE 1 END) AS sg",
  "coalesce(x.m[10], '0')::int AS zh",
  "coalesce(x.m[11], '0')::int AS zm",
].join(', ');

/**
 * The instant (epoch ms, float8) of a date-time-typed jsonb value `v`, or NULL: the rule of
 * strictInstantOf() in pure SQL arithmetic. No row can raise: PostgreSQL 15 has no
 * pg_input_is_valid, and a cast to timestamptz would raise on "2024-02-30" and read offsets,
 * years and "24:00" its own way. The match runs once per value (OFFSET 0 keeps the planner from
 * repeating it per part).
 */
export function pgInstant(v: string, params: SqlParams): string {
  const text = `(${v} #>> '{}')`;
  const match = `(SELECT regexp_match(${text}, ${params.add(ISO_INSTANT_SOURCE)}::text) AS m OFFSET 0) AS x`;
  const iso = `(SELECT CASE WHEN ${VALID} THEN ${MILLIS}::float8 END FROM (SELECT ${PARTS} FROM ${match} WHERE x.m IS NOT NULL) AS p)`;
  const string = `(CASE WHEN ${text} ~ ${params.add(EPOCH_MS_SOURCE)}::text THEN ${text}::float8 ELSE ${iso} END)`;
  return `(CASE jsonb_typeof(${v}) WHEN 'number' THEN (${v})::float8 WHEN 'string' THEN ${string} END)`;
}

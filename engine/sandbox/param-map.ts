/**
 * Query strings and form bodies as plain maps, the shape the request log promises.
 */

/** Parameter name to value; a name given more than once maps to all its values in order. */
export type ParamMap = Record<string, string | string[]>;

/**
 * Parses `a=1&b=2&b=3` (a query string or an application/x-www-form-urlencoded body).
 * Why: the request log and the fakes' handlers must see repeated parameters (`properties=a&properties=b`)
 * as well as single ones, without each fake re-implementing the decoding.
 */
export function parseParamMap(input: string | URLSearchParams): ParamMap {
  const params = typeof input === 'string' ? new URLSearchParams(input) : input;
  const out: ParamMap = {};
  for (const [name, value] of params) {
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[name] = [seen, value];
  }
  return out;
}

/**
 * The last value of a parameter, or undefined.
 * Why: for scalar parameters a repeated name is a client bug; the fakes take the last value as
 * most HTTP frameworks do, so behaviour stays predictable.
 */
export function lastParam(params: ParamMap, name: string): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) return value[value.length - 1];
  return value;
}

/**
 * All values of a list parameter, accepting both `a,b` and `x=a&x=b` forms, blanks dropped.
 * Why: upstream list parameters (HubSpot `properties`, `associations`) are declared as exploded
 * arrays but real clients send comma-separated values; both must work.
 */
export function listParam(params: ParamMap, name: string): string[] | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  const raw = Array.isArray(value) ? value : [value];
  return raw
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

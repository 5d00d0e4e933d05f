import type { HelperDelegate } from 'handlebars';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function eachString(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? fn(item) : item));
  return value;
}

/** The helpers manifests may call; the validator rejects any other name at load. */
export const TEMPLATE_HELPERS: Record<string, HelperDelegate> = {
  /**
   * JSON text of a value, for bodies that pass params through whole; a template that is only
   * `{{json ...}}` yields the value itself. Nothing (undefined) renders empty, so it is left out.
   */
  json: (value: unknown) => (value === undefined ? '' : JSON.stringify(value)),
  /** Joins an array (default separator ','), since many APIs take comma-separated lists. */
  join: (value: unknown, ...rest: unknown[]) => {
    const separator = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : ',';
    return Array.isArray(value) ? value.join(separator) : isEmpty(value) ? '' : String(value);
  },
  /** Splits a comma-separated string into trimmed items, for APIs that want arrays. */
  split: (value: unknown) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : value,
  /** "true"/"false" (or a boolean) as a boolean, for params that arrive as strings. */
  boolean: (value: unknown) => (value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined),
  /** The first argument that is not empty, for values with fallbacks. */
  default: (...args: unknown[]) => args.slice(0, -1).find((v) => !isEmpty(v)) ?? '',
  /** Looks a value up in the helper's hash: `{{map config.region NA="..." EU="..."}}`. */
  map: (value: unknown, options: { hash?: Record<string, unknown> }) => {
    const hash = options?.hash ?? {};
    return typeof value === 'string' && Object.hasOwn(hash, value) ? hash[value] : '';
  },
  /** Lower-cases a string or each string of an array. */
  lower: (value: unknown) => eachString(value, (s) => s.toLowerCase()),
  /** Upper-cases a string or each string of an array (e.g. enabled -> ENABLED). */
  upper: (value: unknown) => eachString(value, (s) => s.toUpperCase()),
};

/** Block helpers that only choose between branches; any other block is a load error. */
export const BLOCK_HELPERS = new Set(['if', 'unless']);

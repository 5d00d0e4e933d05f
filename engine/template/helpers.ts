import type { HelperDelegate } from 'handlebars';

/** The helpers manifests may call; the validator rejects any other name at load. */
export const TEMPLATE_HELPERS: Record<string, HelperDelegate> = {
  /** JSON text of a value, for bodies that pass params through whole. */
  json: (value: unknown) => JSON.stringify(value ?? null),
  /** Joins an array (default separator ','), since many APIs take comma-separated lists. */
  join: (value: unknown, ...rest: unknown[]) => {
    const separator = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : ',';
    return Array.isArray(value) ? value.join(separator) : value === undefined || value === null ? '' : String(value);
  },
  /** The first argument that is not empty, for config values with fallbacks. */
  default: (...args: unknown[]) => args.slice(0, -1).find((v) => v !== undefined && v !== null && v !== '') ?? '',
  lower: (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value),
  upper: (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value),
};

/** Block helpers that only choose between branches; any other block is a load error. */
export const BLOCK_HELPERS = new Set(['if', 'unless']);

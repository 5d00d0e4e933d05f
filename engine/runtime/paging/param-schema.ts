import type { ActionSpec } from '../../manifest/index.js';

function paramSchema(action: ActionSpec, name: string): { type?: unknown; default?: unknown } | undefined {
  const properties = (action.params?.properties ?? {}) as Record<string, { type?: unknown; default?: unknown } | undefined>;
  return Object.hasOwn(properties, name) ? properties[name] : undefined;
}

/** Whether the action's params schema types `name` as a number (integer or number). */
export function takesNumber(action: ActionSpec, name: string): boolean {
  const type = paramSchema(action, name)?.type;
  const types = Array.isArray(type) ? type : [type];
  return types.includes('integer') || types.includes('number');
}

/**
 * The page size a request asks for: the caller's value, else the param's schema default, else
 * undefined (the upstream's own default, which the engine cannot know). Why: a page shorter than
 * the size asked for is the last, which saves one request per read.
 */
export function pageSizeOf(action: ActionSpec, name: string | undefined, params: Record<string, unknown>): number | undefined {
  if (name === undefined) return undefined;
  const value = params[name] ?? paramSchema(action, name)?.default;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The params of the next page: the current ones with the paging param set to the token. */
export function withToken(current: Record<string, unknown>, param: string, token: unknown): Record<string, unknown> {
  return { ...current, [param]: token };
}

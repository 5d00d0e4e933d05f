import { InvalidParamsError, summarizeDetails, type ErrorDetail } from '../errors.js';
import type { Ajv, ErrorObject, ValidateFunction } from '../manifest/index.js';
import type { ActionSpec, ParamRule } from '../manifest/index.js';
import { MAX_VALUE_DEPTH, tooDeepAt } from './value-depth.js';

/** The params check of one action, compiled once at load. */
export type ParamsValidator = (params: unknown) => Record<string, unknown>;

function detailOf(error: ErrorObject, valid: string[]): ErrorDetail {
  const params = error.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[] };
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
    return { path: `${error.instancePath}/${params.additionalProperty}`, message: `is not a param here; valid params: ${valid.join(', ') || '(none)'}` };
  }
  if (error.keyword === 'required' && params.missingProperty !== undefined) {
    return { path: `${error.instancePath}/${params.missingProperty}`, message: 'is required' };
  }
  if (error.keyword === 'enum' && params.allowedValues) {
    return { path: error.instancePath || '/', message: `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` };
  }
  return { path: error.instancePath || '/', message: error.message ?? 'is invalid' };
}

function countAt(value: unknown, parts: string[]): number {
  if (parts.length === 0) return value === undefined ? 0 : 1;
  const [head, ...rest] = parts as [string, ...string[]];
  if (head === '*') return Array.isArray(value) ? value.reduce((n: number, item) => n + countAt(item, rest), 0) : 0;
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, head)) return 0;
  return countAt((value as Record<string, unknown>)[head], rest);
}

type CompiledRule = (params: Record<string, unknown>) => ErrorDetail | undefined;

function compileRule(rule: ParamRule, ajv: Ajv): CompiledRule {
  const path = rule.field ? `/${rule.field}` : '/';
  const message = `rule ${rule.name}: ${rule.message}`;
  if ('count' in rule) {
    const parts = rule.count.path.split('.');
    return (params) => (countAt(params, parts) > rule.count.max ? { path, message } : undefined);
  }
  const validate = ajv.compile(rule.schema);
  return (params) => (validate(params) ? undefined : { path, message });
}

/** Values shared as they are: immutable, and structuredClone would return them unchanged. */
function isPlainValue(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'symbol');
}

/**
 * The params as the validator may change them (ajv applies defaults and coerces types in place):
 * a fresh top-level object, with only object values cloned, so the caller's objects are never
 * mutated while the usual flat params (numbers, strings) cost no deep copy per call. An explicit
 * `undefined` means "not given" in JavaScript (JSON callers cannot send one), so it is left out.
 */
function ownCopy(params: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined) continue;
    const own = isPlainValue(value) ? value : structuredClone(value);
    // An own "__proto__" (JSON.parse makes one) stays a param: assigning it would set the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: own, enumerable: true, writable: true, configurable: true });
    else copy[key] = own;
  }
  return copy;
}

/**
 * Compiles the params schema and cross-field rules of an action. The validator returns the params
 * with defaults applied, or throws INVALID_PARAMS listing every problem with its path, before any
 * request is made.
 */
export function compileParams(action: ActionSpec, ajv: Ajv, label: string): ParamsValidator {
  const schema = action.params ?? { type: 'object', additionalProperties: false, properties: {} };
  const validate: ValidateFunction = ajv.compile(schema);
  const valid = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const rules = (action.rules ?? []).map((rule) => compileRule(rule, ajv));
  return (input) => {
    const params = input === undefined || input === null ? {} : input;
    if (typeof params !== 'object' || Array.isArray(params)) {
      throw new InvalidParamsError(`params for ${label} must be an object`, { details: [{ path: '/', message: 'must be an object' }] });
    }
    const deep = tooDeepAt(params);
    if (deep !== undefined) {
      throw new InvalidParamsError(`params for ${label} nest deeper than ${MAX_VALUE_DEPTH} levels`, {
        details: [{ path: deep, message: `nests deeper than ${MAX_VALUE_DEPTH} levels` }],
      });
    }
    const copy = ownCopy(params as Record<string, unknown>);
    const details: ErrorDetail[] = [];
    if (!validate(copy)) details.push(...(validate.errors ?? []).map((e) => detailOf(e, valid)));
    for (const rule of rules) {
      const problem = rule(copy);
      if (problem) details.push(problem);
    }
    if (details.length > 0) {
      throw new InvalidParamsError(`invalid params for ${label}: ${summarizeDetails(details)}`, { details });
    }
    return copy;
  };
}

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidParamsError, summarizeDetails, type ErrorDetail } from '../errors.js';
import { createParamsAjv, type ErrorObject, type ValidateFunction } from '../manifest/index.js';

const ajv = createParamsAjv();
/** Compiled checks by schema text: the hosted endpoint builds its tools on every request, and compiling is the costly part. */
const compiled = new Map<string, ValidateFunction>();

function detailOf(error: ErrorObject): ErrorDetail {
  const { additionalProperty, missingProperty, allowedValues }: Record<string, unknown> = error.params;
  if (typeof additionalProperty === 'string') return { path: `${error.instancePath}/${additionalProperty}`, message: 'is not an argument of this tool' };
  if (typeof missingProperty === 'string') return { path: `${error.instancePath}/${missingProperty}`, message: 'is required' };
  if (Array.isArray(allowedValues))
    return { path: error.instancePath || '/', message: `must be one of ${allowedValues.map((v) => JSON.stringify(v)).join(', ')}` };
  return { path: error.instancePath || '/', message: error.message ?? 'is invalid' };
}

/**
 * The argument check of a tool the engine defines itself (entities, describe, sync): its input
 * schema, compiled once. Why: a wrong argument is INVALID_PARAMS naming it, as for any action,
 * never quietly ignored.
 */
export function argsChecker(name: string, schema: Tool['inputSchema']): (args: Record<string, unknown>) => Record<string, unknown> {
  const key = JSON.stringify(schema);
  const validate = compiled.get(key) ?? ajv.compile(schema);
  compiled.set(key, validate);
  return (args) => {
    if (validate(args)) return args;
    const details = (validate.errors ?? []).map(detailOf);
    throw new InvalidParamsError(`arguments of ${name}: ${summarizeDetails(details)}`, { details });
  };
}

import { createParamsAjv, type Ajv, type ValidateFunction } from '../manifest/index.js';

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The validator of a manifest schema (config, credentials), compiled once per schema object.
 * Why: compiling with a fresh ajv costs tens of milliseconds, far more than the token request an
 * authorization makes; a loaded manifest's schemas never change.
 */
export function schemaValidator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    ajv ??= createParamsAjv();
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import * as addFormatsModule from 'ajv-formats';
import { packageRoot } from '../package-root.js';

// ajv and ajv-formats are CommonJS; under NodeNext their default export sits on `.default`.
const Ajv2020 = Ajv2020Module.default.default ?? Ajv2020Module.default;
const addFormats = addFormatsModule.default.default ?? addFormatsModule.default;
type Ajv = InstanceType<typeof Ajv2020>;

let validator: ValidateFunction | undefined;
let manifestSchemaJson: Record<string, unknown> | undefined;

/**
 * Annotation keywords of the manifest schema, read by the load-time checks rather than by ajv:
 * `x-param` marks a property that names an action param (`declared`, or `integer` when the param
 * must also be typed integer); `tsType` is read by the type generator (scripts/manifest-types.ts).
 */
export const MANIFEST_ANNOTATIONS = ['x-param', 'tsType'];

/** The manifest JSON Schema as data, read once per process. */
export function manifestSchema(): Record<string, unknown> {
  manifestSchemaJson ??= JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'manifest.schema.json'), 'utf8')) as Record<string, unknown>;
  return manifestSchemaJson;
}

/** The manifest JSON Schema, compiled once per process. */
export function manifestSchemaValidator(): ValidateFunction {
  if (validator) return validator;
  const schema = manifestSchema();
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, discriminator: true, useDefaults: true });
  ajv.addVocabulary(MANIFEST_ANNOTATIONS);
  addFormats(ajv);
  const compiled = ajv.compile(schema);
  validator = compiled;
  return compiled;
}

/** A new ajv for params, record and credential schemas written by manifest authors. */
export function createParamsAjv(): Ajv {
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false });
  addFormats(ajv);
  return ajv;
}

/** An ajv that refuses unknown keywords, used to check authors' schemas at load. */
export function createStrictAjv(): Ajv {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  return ajv;
}

export type { Ajv, ErrorObject, ValidateFunction };

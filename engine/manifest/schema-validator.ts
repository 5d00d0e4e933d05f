import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import * as addFormatsModule from 'ajv-formats';
import { packageRoot } from '../package-root.js';
import { validate as generatedManifestValidator } from './manifest-validator.generated.js';

// ajv and ajv-formats are CommonJS; under NodeNext their default export sits on `.default`.
const Ajv2020 = Ajv2020Module.default.default ?? Ajv2020Module.default;
const addFormats = addFormatsModule.default.default ?? addFormatsModule.default;
type Ajv = InstanceType<typeof Ajv2020>;

let manifestSchemaJson: Record<string, unknown> | undefined;

/** The manifest JSON Schema as data, read once per process. */
export function manifestSchema(): Record<string, unknown> {
  manifestSchemaJson ??= JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'manifest.schema.json'), 'utf8')) as Record<string, unknown>;
  return manifestSchemaJson;
}

/**
 * The manifest JSON Schema's validator, compiled ahead of time by `npm run generate`
 * (scripts/manifest-validator.ts) with the options and vocabulary it had when compiled at load:
 * compiling the schema took about a third of every CLI command's start. The generated module is
 * untyped ajv standalone code; its function is ajv's ValidateFunction (errors on `.errors`).
 */
export function manifestSchemaValidator(): ValidateFunction {
  return generatedManifestValidator as unknown as ValidateFunction;
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

/**
 * What a user of the service's OpenAPI documents runs on them, in-process: ajv on a component
 * schema, openapi-typescript (as `npx openapi-typescript URL -o api.d.ts` does) and the TypeScript
 * compiler in strict mode.
 */
import { dirname } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const addFormats = addFormatsModule.default;

const validators = new WeakMap<object, (name: string) => ValidateFunction>();

/** Validators of a document's component schemas, by component name (refs resolved inside the document), one set per document. */
export function componentValidators(document: object): (name: string) => ValidateFunction {
  const known = validators.get(document);
  if (known) return known;
  const made = makeValidators(document);
  validators.set(document, made);
  return made;
}

function makeValidators(document: object): (name: string) => ValidateFunction {
  // strict off: OpenAPI's `discriminator` is an annotation to JSON Schema; the oneOf decides.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(document, 'document');
  const compiled = new Map<string, ValidateFunction>();
  return (name) => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `document#/components/schemas/${encodeURIComponent(name)}` });
      compiled.set(name, validate);
    }
    return validate;
  };
}

/** The TypeScript declarations openapi-typescript generates for a document. */
export async function generatedTypes(document: object): Promise<string> {
  return astToString(await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true }));
}

const STRICT: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  // TypeScript's own lib files are not what is tested; every other declaration file is.
  skipDefaultLibCheck: true,
};

function format(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((diagnostic) =>
    ts
      .formatDiagnostic(diagnostic, {
        getCanonicalFileName: (file) => file,
        getCurrentDirectory: () => dirname(diagnostic.file?.fileName ?? '.'),
        getNewLine: () => '\n',
      })
      .trim(),
  );
}

/**
 * Type-checks files as `tsc --strict` does, declaration files included (no skipLibCheck), and
 * returns every diagnostic; an unused `@ts-expect-error` is one.
 */
export function strictDiagnostics(files: string[]): string[] {
  const program = ts.createProgram(files, { ...STRICT, noEmit: true, types: [], skipLibCheck: false });
  return format(ts.getPreEmitDiagnostics(program));
}

/**
 * Compiles a program that runs on Node strictly to JavaScript beside it; returns the diagnostics
 * (none: the .js files are written). Declaration files are checked by strictDiagnostics.
 */
export function compileStrict(files: string[]): string[] {
  const program = ts.createProgram(files, { ...STRICT, types: ['node'], skipLibCheck: true });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) return format(diagnostics);
  return format(program.emit().diagnostics);
}

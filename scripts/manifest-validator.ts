/**
 * Generates engine/manifest/manifest-validator.generated.ts: the manifest JSON Schema compiled by
 * ajv ahead of time (ajv's standalone code), so no process compiles the 62 KB schema at load; that
 * compile took about a third of every CLI command's start. This file imports nothing of the engine,
 * which loads the generated validator: scripts/generate-validator.ts writes it before the rest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as Ajv2020Module from 'ajv/dist/2020.js';
import * as standaloneModule from 'ajv/dist/standalone/index.js';
import * as addFormatsModule from 'ajv-formats';

// ajv and ajv-formats are CommonJS; under NodeNext their default export sits on `.default`.
const Ajv2020 = Ajv2020Module.default.default ?? Ajv2020Module.default;
const { _ } = Ajv2020Module;
const standaloneCode = standaloneModule.default.default ?? standaloneModule.default;
const addFormats = addFormatsModule.default.default ?? addFormatsModule.default;

/** Where the generated validator goes, from the package root. */
export const MANIFEST_VALIDATOR_FILE = join('engine', 'manifest', 'manifest-validator.generated.ts');

/**
 * Annotation keywords of the manifest schema, read by the load-time checks rather than by ajv:
 * `x-param` marks a property that names an action param (`declared`, or `integer` when the param
 * must also be typed integer); `tsType` is read by the type generator (scripts/manifest-types.ts).
 */
const MANIFEST_ANNOTATIONS = ['x-param', 'tsType'];

/**
 * The generated module is ESM, but ajv writes its runtime helpers (string length, deep equality,
 * error class) as `require(...)` calls in the code: a `require` made for the module serves them.
 * Format checks that are functions (date, time, uri...) name `fullFormats`, the set that
 * `addFormats` adds by default; formats that are regular expressions are written inline.
 */
const IMPORTS = [
  "import { createRequire } from 'node:module';",
  "import { fullFormats } from 'ajv-formats/dist/formats.js';",
  '',
  'const require = createRequire(import.meta.url);',
].join('\n');

/** The standalone validator's module text, from schemas/manifest.schema.json. */
export async function manifestValidatorSource(root: string): Promise<string> {
  const schema = JSON.parse(readFileSync(join(root, 'schemas', 'manifest.schema.json'), 'utf8')) as Record<string, unknown>;
  // The options the engine compiled the schema with at load, before this file existed.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    discriminator: true,
    useDefaults: true,
    code: { source: true, esm: true, formats: _`fullFormats` },
  });
  ajv.addVocabulary(MANIFEST_ANNOTATIONS);
  addFormats(ajv);
  const code = standaloneCode(ajv, ajv.compile(schema));
  const banner = [
    '/**',
    ' * GENERATED from schemas/manifest.schema.json by `npm run generate` (scripts/manifest-validator.ts);',
    ' * do not edit. A test fails when this file is stale. It is ajv standalone code: untyped JavaScript.',
    ' */',
    '// @ts-nocheck',
  ].join('\n');
  return `${banner}\n${IMPORTS}\n\n${code}\n`;
}

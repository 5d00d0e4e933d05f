/**
 * Generates engine/manifest/manifest-schema.generated.ts from schemas/manifest.schema.json with
 * json-schema-to-typescript, so the manifest's TypeScript types are never kept by hand: the schema
 * is the single source (`title` names a type, `tsType` names a hand-written one).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

/** Where the generated types live, from the package root. */
export const GENERATED_TYPES_FILE = join('engine', 'manifest', 'manifest-schema.generated.ts');

const BANNER = `/**
 * GENERATED from schemas/manifest.schema.json by \`npm run generate\`; do not edit. A test fails
 * when this file is stale.
 */
import type { JsonSchema, TemplateTree } from './json-values.js';
`;

/** The generated file's text for the schema under `root`. */
export async function manifestTypesSource(root: string): Promise<string> {
  const schema = JSON.parse(readFileSync(join(root, 'schemas', 'manifest.schema.json'), 'utf8')) as JSONSchema;
  const body = await compile(schema, 'ManifestDocument', {
    bannerComment: '',
    additionalProperties: false,
    unreachableDefinitions: false,
    format: true,
    style: { printWidth: 120, singleQuote: true },
    cwd: join(root, 'schemas'),
  });
  return `${BANNER}\n${body}`;
}

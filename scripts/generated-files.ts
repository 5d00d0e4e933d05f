/**
 * Generates TypeScript types from the JSON Schemas in schemas/ with json-schema-to-typescript, so
 * no type of a schema is kept by hand: the manifest's (`title` names a type, `tsType` a
 * hand-written one) and the hosted API's request bodies. The connectors' reference pages
 * (docs/connectors/) are listed here too; scripts/connector-docs makes them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { connectorDocFiles } from './connector-docs/index.js';
import { connectorTypesSource } from './connector-types.js';
import { MANIFEST_VALIDATOR_FILE, manifestValidatorSource } from './manifest-validator.js';

/** One generated file: where it goes, from the package root, and how to make its text. */
export interface GeneratedFile {
  file: string;
  source(root: string): Promise<string>;
}

const OPTIONS = { bannerComment: '', additionalProperties: false, unreachableDefinitions: false, format: true, style: { printWidth: 120, singleQuote: true } };

function banner(from: string, imports = ''): string {
  return `/**\n * GENERATED from ${from} by \`npm run generate\`; do not edit. A test fails when this file is\n * stale.\n */\n${imports}`;
}

function readSchema(root: string, name: string): JSONSchema {
  return JSON.parse(readFileSync(join(root, 'schemas', `${name}.schema.json`), 'utf8')) as JSONSchema;
}

/**
 * An object schema that names no properties is any JSON object: typed so, rather than as `{}`
 * (which TypeScript reads as "anything but null").
 */
function openObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openObjects);
  if (!schema || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, openObjects(value)]));
  const bare = out.type === 'object' && !('properties' in out) && !('additionalProperties' in out) && !('$ref' in out) && !('tsType' in out);
  return bare ? { ...out, tsType: 'Record<string, unknown>' } : out;
}

/** The manifest types (engine/manifest/manifest-schema.generated.ts). */
const MANIFEST_TYPES: GeneratedFile = {
  file: join('engine', 'manifest', 'manifest-schema.generated.ts'),
  async source(root) {
    const body = await compile(readSchema(root, 'manifest'), 'ManifestDocument', { ...OPTIONS, cwd: join(root, 'schemas') });
    return `${banner('schemas/manifest.schema.json', "import type { JsonSchema, TemplateTree } from './json-values.js';\n")}\n${body}`;
  },
};

/** The hosted API's request bodies, each named for what it is (the schemas' titles name routes). */
const BODY_TYPES: Record<string, string> = {
  'hosted-token-request': 'TokenRequestBody',
  'hosted-connector-create': 'ConnectorCreateBody',
  'hosted-connector-update': 'ConnectorUpdateBody',
  'hosted-execute-request': 'ExecuteRequestBody',
  'hosted-sync-request': 'SyncRequestBody',
  'hosted-connect-session': 'ConnectSessionBody',
};

const HOSTED_BODY_TYPES: GeneratedFile = {
  file: join('engine', 'hosted', 'body-types.generated.ts'),
  async source(root) {
    const parts: string[] = [];
    for (const [name, typeName] of Object.entries(BODY_TYPES)) {
      const schema = { ...(openObjects(readSchema(root, name)) as JSONSchema), title: typeName };
      parts.push(await compile(schema, typeName, { ...OPTIONS, cwd: join(root, 'schemas') }));
    }
    return `${banner(`schemas/hosted-*.schema.json`)}\n${parts.join('\n')}`;
  },
};

/** The typed API of the shipped connectors (engine/typed/), from connectors/*.yaml. */
const CONNECTOR_TYPES: GeneratedFile = { file: join('engine', 'typed', 'connector-types.generated.ts'), source: connectorTypesSource };

/** The manifest schema's validator, compiled ahead of time (engine/manifest/schema-validator.ts). */
const MANIFEST_VALIDATOR: GeneratedFile = { file: MANIFEST_VALIDATOR_FILE, source: manifestValidatorSource };

/** Every generated file. */
export const GENERATED_FILES: GeneratedFile[] = [MANIFEST_TYPES, MANIFEST_VALIDATOR, HOSTED_BODY_TYPES, CONNECTOR_TYPES, ...connectorDocFiles()];

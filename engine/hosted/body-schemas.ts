import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** The JSON Schemas of the hosted API bodies, read from schemas/ (the published reference). */
export function bodySchema(
  name:
    | 'hosted-token-request'
    | 'hosted-connector-create'
    | 'hosted-connector-update'
    | 'hosted-execute-request'
    | 'hosted-sync-request'
    | 'hosted-connect-session',
): Record<string, unknown> {
  return JSON.parse(readFileSync(join(packageRoot(), 'schemas', `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

/**
 * A body schema as an OpenAPI document embeds it: without its `$id`, which would make every `$ref`
 * inside it (a config's `#/components/...`) resolve against the schema instead of the document.
 */
export function embeddedBodySchema(name: Parameters<typeof bodySchema>[0]): Record<string, unknown> {
  const { $id: _id, ...schema } = bodySchema(name);
  return schema;
}

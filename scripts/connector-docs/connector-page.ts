/**
 * A connector's reference page (docs/connectors/<type>.md), made from its manifest and the
 * sandbox's answers to its example calls.
 */
import type { Manifest } from '../../engine/manifest/index.js';
import { authSection } from './auth-section.js';
import { configSection } from './config-section.js';
import { entitySection } from './entity-section.js';
import { connectionName } from './example-section.js';
import { anchor, code, fence } from './markdown.js';
import { EXAMPLE_SANDBOX, type ExampleRun } from './run-examples.js';

/** The first line of every generated page: what made it, and that it is not edited by hand. */
export function generatedBanner(from: string): string {
  return `<!-- GENERATED from ${from} by \`npm run generate\`; do not edit. test/generated-files.test.ts fails when this file is stale. -->`;
}

function sandboxSnippet(type: string): string {
  const name = connectionName(type);
  return fence(
    'js',
    [
      "import { connect } from 'connector-engine';",
      "import { startSandbox } from 'connector-engine/sandbox';",
      '',
      `const sandbox = await startSandbox({ records: ${EXAMPLE_SANDBOX.records} });`,
      `const { base_url, credentials, config, allow_origins } = sandbox.upstreams[${JSON.stringify(type).replace(/"/g, "'")}];`,
      `const ${name} = connect('${type}', { credentials, config, baseUrl: base_url, allowOrigins: allow_origins });`,
    ].join('\n'),
  );
}

function intro(manifest: Manifest): string[] {
  const docs = manifest.docs_url ? ` Upstream documentation: ${manifest.docs_url}.` : '';
  return [
    `Connector type ${code(manifest.type)}, manifest version ${manifest.version} (${code(`connectors/${manifest.type}.yaml`)}). Base URL ${code(manifest.base_url)}.${docs}`,
    '',
    `Every example below is a real answer of the sandbox's fake ${manifest.name} (seed ${EXAMPLE_SANDBOX.seed}, ${code(`records: ${EXAMPLE_SANDBOX.records}`)}), reached in the library like this (${code('npx connector-engine sandbox --records ' + EXAMPLE_SANDBOX.records)} serves the same data; its ports and time-dependent tokens differ):`,
    '',
    sandboxSnippet(manifest.type),
  ];
}

function contents(manifest: Manifest): string {
  const entities = Object.keys(manifest.entities).map((entity) => `[${entity}](#${anchor(entity)})`);
  return `Contents: [Auth](#auth) · [Config](#config) · Entities: ${entities.join(' · ')}`;
}

/** The whole page of one connector. */
export function connectorPage(manifest: Manifest, examples: Map<string, ExampleRun>, origins: string[]): string {
  const entities = Object.entries(manifest.entities).map(([entity, spec]) => {
    const example = examples.get(entity);
    if (!example) throw new Error(`${manifest.type} ${entity} has no example answer`);
    return entitySection({ type: manifest.type, entity, spec, example, origins });
  });
  const parts = [
    generatedBanner(`connectors/${manifest.type}.yaml`),
    '',
    `# ${manifest.name} (${code(manifest.type)})`,
    '',
    ...intro(manifest),
    '',
    contents(manifest),
  ];
  parts.push('', authSection(manifest), '', configSection(manifest), '', '## Entities', '', entities.join('\n\n'));
  return `${parts.join('\n')}\n`;
}

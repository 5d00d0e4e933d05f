/** The index of the reference pages (docs/connectors/README.md): one line per connector. */
import type { Manifest } from '../../engine/manifest/index.js';
import { generatedBanner } from './connector-page.js';
import { code } from './markdown.js';
import { EXAMPLE_SANDBOX } from './run-examples.js';

function line(manifest: Manifest): string {
  const entities = Object.keys(manifest.entities);
  const schemes = manifest.auth.map((scheme) => code(scheme.name)).join(', ');
  return `- [${manifest.name}](${manifest.type}.md) (${code(manifest.type)}): ${entities.length} entities (${entities.join(', ')}); auth ${schemes}.`;
}

/** The index page. */
export function indexPage(manifests: Manifest[]): string {
  return [
    generatedBanner('connectors/*.yaml'),
    '',
    '# Connector reference',
    '',
    `One page per connector, generated from its manifest: auth schemes and credential fields, config, and per entity its actions with their params, rules and meta fields, its record fields, its searchable fields, and one example call answered by the sandbox (seed ${EXAMPLE_SANDBOX.seed}, ${code(`records: ${EXAMPLE_SANDBOX.records}`)}). Writing a new connector: [connectors/README.md](../../connectors/README.md).`,
    '',
    ...manifests.map(line),
    '',
  ].join('\n');
}

/**
 * The generated reference pages of the connectors: docs/connectors/<type>.md per manifest and
 * docs/connectors/README.md, listed in scripts/generated-files.ts. One sandbox run answers every
 * example of every page, so the pages are made together and handed out one by one.
 */
import { join } from 'node:path';
import { shippedManifests } from '../../engine/index.js';
import { connectorPage } from './connector-page.js';
import { indexPage } from './index-page.js';
import { runExamples } from './run-examples.js';

export { EXAMPLE_SANDBOX } from './run-examples.js';

/** The folder of the pages, from the package root. */
export const DOCS_DIR = join('docs', 'connectors');

function assertNoSecret(pages: Map<string, string>, secrets: string[]): void {
  for (const [file, text] of pages) {
    if (secrets.some((secret) => secret !== '' && text.includes(secret))) throw new Error(`${file} would show a secret credential value of the sandbox`);
  }
}

/**
 * Every page, by file (from the package root). Why one function: the examples of all pages are
 * answered by one sandbox start, the slow part.
 */
export async function renderConnectorDocs(): Promise<Map<string, string>> {
  const manifests = [...shippedManifests().values()].sort((a, b) => (a.manifest.type < b.manifest.type ? -1 : 1));
  const { runs, origins, secrets } = await runExamples(manifests);
  const pages = new Map<string, string>();
  for (const { manifest } of manifests)
    pages.set(join(DOCS_DIR, `${manifest.type}.md`), connectorPage(manifest, runs.get(manifest.type) ?? new Map(), origins));
  pages.set(join(DOCS_DIR, 'README.md'), indexPage(manifests.map((loaded) => loaded.manifest)));
  assertNoSecret(pages, secrets);
  return pages;
}

let rendered: Promise<Map<string, string>> | undefined;

/** The generated files of the pages, in the shape scripts/generated-files.ts lists. */
export function connectorDocFiles(): Array<{ file: string; source(root: string): Promise<string> }> {
  const types = [...shippedManifests().keys()].sort();
  return [...types.map((type) => join(DOCS_DIR, `${type}.md`)), join(DOCS_DIR, 'README.md')].map((file) => ({
    file,
    async source() {
      rendered ??= renderConnectorDocs();
      const text = (await rendered).get(file);
      if (text === undefined) throw new Error(`no reference page ${file}`);
      return text;
    },
  }));
}

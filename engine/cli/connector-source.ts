import { existsSync } from 'node:fs';
import { InvalidRequestError } from '../errors.js';
import { loadManifestFile, type LoadedManifest } from '../manifest/index.js';

/** What a command runs against: a shipped type's name, or a manifest file an author is writing. */
export type ConnectorSource = string | LoadedManifest;

/**
 * Splits a command's positional words into the connector and the rest. With `--manifest FILE`
 * the file (validated at load, every problem with its file:line:col) takes the type's place, so an
 * author can run the manifest they are writing; without it the first word is a shipped type.
 */
export function connectorSource(words: string[], rest: string[], manifestFile: string | undefined): { source: ConnectorSource; values: string[] } {
  const wanted = rest.length + (manifestFile === undefined ? 1 : 0);
  if (words.length !== wanted) {
    const usage = manifestFile === undefined ? ['<type>', ...rest].join(' ') : `--manifest <file> ${rest.join(' ')}`;
    throw new InvalidRequestError(`expected ${usage}, got ${words.length} argument${words.length === 1 ? '' : 's'}`, {
      details: [{ path: 'arguments', message: `must be ${usage}` }],
    });
  }
  if (manifestFile === undefined) return { source: words[0] as string, values: words.slice(1) };
  if (!existsSync(manifestFile)) {
    throw new InvalidRequestError(`--manifest: no file at ${manifestFile}`, { details: [{ path: '--manifest', message: 'must be a readable manifest file' }] });
  }
  return { source: loadManifestFile(manifestFile), values: words };
}

/** The connector type a source names, for messages. */
export function sourceType(source: ConnectorSource): string {
  return typeof source === 'string' ? source : source.manifest.type;
}

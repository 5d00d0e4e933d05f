import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UnknownConnectorTypeError } from '../errors.js';
import { packageRoot } from '../package-root.js';
import { loadManifestFile } from './load.js';
import type { LoadedManifest } from './types.js';

let cache: Map<string, LoadedManifest> | undefined;
const single = new Map<string, LoadedManifest>();

/** The folder of the shipped connector manifests. */
export function connectorsDir(): string {
  return join(packageRoot(), 'connectors');
}

/** Every shipped manifest, loaded and validated once per process, keyed by lower-case type. */
export function shippedManifests(): Map<string, LoadedManifest> {
  if (cache) return cache;
  const dir = connectorsDir();
  const loaded = new Map<string, LoadedManifest>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const stem = name.slice(0, -'.yaml'.length);
    const manifest = single.get(stem) ?? loadManifestFile(join(dir, name));
    // shippedTypes() names types by file, without parsing: a shipped file must be named after its type.
    if (manifest.manifest.type !== stem)
      throw new Error(`connectors/${name} declares type "${manifest.manifest.type}"; a shipped manifest is named <type>.yaml`);
    loaded.set(stem, manifest);
  }
  cache = loaded;
  return loaded;
}

/**
 * The shipped connector types, from the manifests' file names: a process that only routes types
 * (`connector-engine sync` building its upstream table) need not parse and compile all five
 * manifests, about a second of CPU, to learn their names.
 */
export function shippedTypes(): string[] {
  if (cache) return [...cache.keys()];
  return readdirSync(connectorsDir())
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => f.slice(0, -'.yaml'.length));
}

/** Finds a shipped manifest by connector type, case-insensitively, so users need not match its spelling. */
export function findManifest(type: string): LoadedManifest {
  // Most calls name a type whose manifest is <type>.yaml: load just that one (a CLI call then
  // pays for one manifest, not five).
  const key = typeof type === 'string' ? type.toLowerCase() : '';
  const hit = cache?.get(key) ?? single.get(key);
  if (hit) return hit;
  const file = join(connectorsDir(), `${key}.yaml`);
  if (/^[a-z][a-z0-9-]*$/.test(key) && existsSync(file)) {
    const loaded = loadManifestFile(file);
    if (loaded.manifest.type === key) {
      single.set(key, loaded);
      return loaded;
    }
  }
  const all = shippedManifests();
  const found = typeof type === 'string' ? all.get(type.toLowerCase()) : undefined;
  if (!found) {
    throw new UnknownConnectorTypeError(`unknown connector type "${String(type)}"; known types: ${[...all.keys()].join(', ')}`, {
      details: [{ path: '/connector_type', message: `must be one of ${[...all.keys()].join(', ')}` }],
    });
  }
  return found;
}

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The folder holding the package's package.json, found by walking up from this file, so the
 * same code finds `connectors/` and `schemas/` whether it runs from source or from `dist/`.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'connector-engine') return (cached = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('connector-engine: package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

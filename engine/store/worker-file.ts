import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../package-root.js';

/**
 * Where a compiled worker of this folder is: beside this file when running from `dist/`, or in
 * the package's `dist/` when this file runs from source (tests run after `npm run build`).
 * Undefined when there is no build; the store then does that work on its own thread.
 */
export function storeWorkerFile(name: string): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const candidates = here.endsWith('.js') ? [join(here, '..', name)] : [join(packageRoot(), 'dist', 'engine', 'store', name)];
  return candidates.find((file) => existsSync(file));
}

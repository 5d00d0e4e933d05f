import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-root.js';

/**
 * Where a compiled worker thread's file is: `dist/engine/<folder>/<name>` beside this file when it
 * runs from `dist/`, or in the package's `dist/` when it runs from source (tests run after
 * `npm run build`). Undefined when there is no build; callers then do that work on their own thread.
 */
export function workerFile(folder: string, name: string): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith('.js') ? join(here, '..', folder, name) : join(packageRoot(), 'dist', 'engine', folder, name);
  return existsSync(file) ? file : undefined;
}

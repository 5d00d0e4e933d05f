import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The upstream OpenAPI documents live in ../shared/upstream-specs beside the repository (they are
 * reference data, not project code); SHARED_DIR points elsewhere when needed.
 */
export function upstreamSpec(file: string): string {
  const shared = process.env.SHARED_DIR ?? resolve(fileURLToPath(new URL('../../..', import.meta.url)), 'shared');
  const path = join(shared, 'upstream-specs', file);
  if (!existsSync(path)) throw new Error(`upstream spec ${path} not found (set SHARED_DIR to the shared/ folder)`);
  return path;
}

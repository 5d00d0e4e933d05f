import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ManifestInvalidError } from '../errors.js';
import { connectorsDir, loadManifestFile } from '../manifest/index.js';

/** Result of linting manifest files: the problem lines, ready to print. */
export interface LintReport {
  files: number;
  problems: string[];
}

/**
 * Validates manifest files (default: every shipped connector) and collects every problem as
 * `file:line:col message`, so CI fails with all of them at once.
 */
export function lintManifests(files: string[]): LintReport {
  const targets =
    files.length > 0
      ? files
      : readdirSync(connectorsDir())
          .filter((f) => f.endsWith('.yaml'))
          .sort()
          .map((f) => join(connectorsDir(), f));
  const problems: string[] = [];
  for (const file of targets) {
    try {
      loadManifestFile(file);
    } catch (error) {
      if (error instanceof ManifestInvalidError) problems.push(...(error.details ?? []).map((d) => `${d.path} ${d.message}`));
      else problems.push(`${file}: ${(error as Error).message}`);
    }
  }
  return { files: targets.length, problems };
}

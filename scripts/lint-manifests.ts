/**
 * `npm run lint:manifests`: validates every shipped connector manifest (JSON Schema, then the
 * semantic checks) and fails with each problem as file:line:col, the same as `connector-engine lint`.
 */
import { lintManifests } from '../engine/cli/index.js';

const report = lintManifests(process.argv.slice(2));
for (const problem of report.problems) process.stderr.write(problem + '\n');
process.stdout.write(`${report.files} manifests checked, ${report.problems.length} problems\n`);
process.exitCode = report.problems.length > 0 ? 1 : 0;

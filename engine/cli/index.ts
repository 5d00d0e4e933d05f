export { buildProgram } from './program.js';
export { lintManifests, type LintReport } from './lint-command.js';

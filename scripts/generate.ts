/** `npm run generate`: rewrites every generated file from its schema. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../engine/package-root.js';
import { GENERATED_FILES } from './generated-files.js';

const root = packageRoot();
for (const generated of GENERATED_FILES) {
  writeFileSync(join(root, generated.file), await generated.source(root));
  process.stdout.write(`wrote ${generated.file}\n`);
}

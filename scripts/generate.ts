/** `npm run generate`: rewrites every generated file from its schema. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageRoot } from '../engine/package-root.js';
import { GENERATED_FILES } from './generated-files.js';

const root = packageRoot();
for (const generated of GENERATED_FILES) {
  mkdirSync(dirname(join(root, generated.file)), { recursive: true });
  writeFileSync(join(root, generated.file), await generated.source(root));
  process.stdout.write(`wrote ${generated.file}\n`);
}

/** `npm run generate`: rewrites every generated file (today: the manifest types). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../engine/package-root.js';
import { GENERATED_TYPES_FILE, manifestTypesSource } from './manifest-types.js';

const root = packageRoot();
writeFileSync(join(root, GENERATED_TYPES_FILE), await manifestTypesSource(root));
process.stdout.write(`wrote ${GENERATED_TYPES_FILE}\n`);

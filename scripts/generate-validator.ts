/**
 * First step of `npm run generate`: writes the manifest validator alone, importing nothing of the
 * engine. The engine loads the validator, and the other generators load manifests with it, so the
 * build between this step and scripts/generate.ts gives them the one made from the current schema.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../engine/package-root.js';
import { MANIFEST_VALIDATOR_FILE, manifestValidatorSource } from './manifest-validator.js';

const root = packageRoot();
writeFileSync(join(root, MANIFEST_VALIDATOR_FILE), await manifestValidatorSource(root));
process.stdout.write(`wrote ${MANIFEST_VALIDATOR_FILE}\n`);

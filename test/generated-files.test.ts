/**
 * Generated files are never edited by hand: each is regenerated here from its source and compared,
 * so a schema change without `npm run generate` (or a hand edit of the output) fails the suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../engine/package-root.js';
import { GENERATED_TYPES_FILE, manifestTypesSource } from '../scripts/manifest-types.js';

test(`${GENERATED_TYPES_FILE} is what schemas/manifest.schema.json generates (run npm run generate)`, async () => {
  const root = packageRoot();
  const committed = readFileSync(join(root, GENERATED_TYPES_FILE), 'utf8');
  expect(committed).toBe(await manifestTypesSource(root));
});

test('the generated manifest types name every strategy and sync part the engine reads', () => {
  const text = readFileSync(join(packageRoot(), GENERATED_TYPES_FILE), 'utf8');
  for (const name of ['ManifestDocument', 'ActionSpec', 'PaginationSpec', 'PageNumberPagination', 'OffsetPagination', 'RecordKeyPagination', 'SyncPlan', 'HttpPolicyDocument']) {
    expect(text).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
  }
});

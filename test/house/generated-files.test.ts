/**
 * Generated files are never edited by hand: each is regenerated here from its schema and compared,
 * so a schema change without `npm run generate` (or a hand edit of the output) fails the suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../../engine/package-root.js';
import { GENERATED_FILES } from '../../scripts/generated-files.js';

const root = packageRoot();

test.each(GENERATED_FILES.map((generated) => [generated.file, generated] as const))(
  '%s is what its schema generates (run npm run generate)',
  async (_file, generated) => {
    expect(readFileSync(join(root, generated.file), 'utf8')).toBe(await generated.source(root));
  },
);

test('the generated types name every strategy, sync part and hosted body the engine reads', () => {
  const text = GENERATED_FILES.map((generated) => readFileSync(join(root, generated.file), 'utf8')).join('\n');
  const names = [
    'ManifestDocument',
    'ActionSpec',
    'PaginationSpec',
    'PageNumberPagination',
    'OffsetPagination',
    'RecordKeyPagination',
    'SyncPlan',
    'HttpPolicyDocument',
    'ConnectorCreateBody',
    'ExecuteRequestBody',
  ];
  for (const name of names) expect(text).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, 'm'));
});

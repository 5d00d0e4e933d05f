import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { shippedManifests } from '../../engine/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'sandbox' ? [] : sources(path);
    // Generated files repeat the schema's descriptions, which may name an upstream as an example.
    return path.endsWith('.ts') && !path.endsWith('.generated.ts') ? [path] : [];
  });
}

test('the engine holds no connector-specific code: every connector is YAML only', () => {
  // The sandbox is excluded on purpose: it is the set of fake upstreams, not the engine.
  const names = new Set<string>(['hubspot', 'asana', 'amazon', 'shopify', 'gong']);
  for (const { manifest } of shippedManifests().values()) {
    names.add(manifest.type.toLowerCase());
    names.add(manifest.name.split(' ')[0]!.toLowerCase());
  }
  const pattern = new RegExp([...names].map((n) => n.replace(/[-]/g, '[-_ ]?')).join('|'), 'i');
  const offenders = sources(join(root, 'engine'))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line, i })),
    )
    .filter(({ line }) => pattern.test(line))
    .map(({ file, line, i }) => `${relative(root, file)}:${i + 1}: ${line.trim()}`);
  expect(offenders).toEqual([]);
  expect(sources(join(root, 'engine')).length).toBeGreaterThan(20);
});

/**
 * Issue 14: the README's code compiles under `tsc --strict` as a user's code would. Every
 * JavaScript and TypeScript block of README.md becomes a module of its own in a project that uses
 * the built package (test/support/package-project.ts), and a problem is reported at its README line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../../engine/package-root.js';
import { PackageProject, type Problem } from '../support/package-project.js';

/** One fenced block: the Markdown file it is in, its text, and the line its first line of code is on. */
interface CodeBlock {
  source: string;
  code: string;
  line: number;
}

/** Every ```js / ```ts block of a Markdown text (also javascript, typescript, mjs, mts). */
function codeBlocks(source: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (const match of markdown.matchAll(/^```(?:js|javascript|mjs|ts|typescript|mts)\n([\s\S]*?)^```$/gm)) {
    blocks.push({ source, code: match[1] as string, line: markdown.slice(0, match.index).split('\n').length + 1 });
  }
  return blocks;
}

/** A block that misuses the typed API, compiled beside the README's: the check must be able to fail. */
const MISTAKE = [
  '# Example',
  '',
  '```ts',
  "import { connect } from 'connector-engine';",
  "const hubspot = connect('hubspot', { credentials: { access_token: 'pat' } });",
  "await hubspot.execute('contacts', 'list', { limit: 'ten' });",
  '```',
].join('\n');

/**
 * The OpenAPI client block imports declarations that openapi-typescript generates from a running
 * service; test/hosted/openapi-client.test.ts generates them, compiles that block strictly and runs it.
 */
const COMPILED_ELSEWHERE = '// typed-client.ts';
const readmeBlocks = codeBlocks('README.md', readFileSync(join(packageRoot(), 'README.md'), 'utf8'));
const blocks = [...readmeBlocks.filter((block) => !block.code.startsWith(COMPILED_ELSEWHERE)), ...codeBlocks('mistake.md', MISTAKE)];
let project: PackageProject | undefined;
let problems: string[] = [];

/** A problem at its Markdown line: `<file>:line:column: message`. */
function located(problem: Problem): string {
  const block = blocks[Number(/^block-(\d+)\.mts$/.exec(problem.file)?.[1] ?? NaN)];
  return block
    ? `${block.source}:${block.line + problem.line - 1}:${problem.column}: ${problem.message}`
    : `${problem.file}:${problem.line}: ${problem.message}`;
}

// One project for every block: loading the package's types is most of the time.
beforeAll(() => {
  project = new PackageProject(Object.fromEntries(blocks.map((block, i) => [`block-${i}.mts`, block.code])));
  problems = project.problems().map(located);
});
afterAll(() => project?.remove());

test('every code block of the README compiles under tsc --strict against the built package', () => {
  // The library example, the search example and the hosted client's: a check of nothing passes by construction.
  expect(blocks.filter((block) => block.source === 'README.md').map((block) => block.code.split('\n')[0])).toEqual(
    expect.arrayContaining([
      '// example.mjs — run with `node example.mjs` from this folder',
      '// search-example.mjs — run with `node search-example.mjs` from this folder',
      '// hosted-example.mjs — run with `node hosted-example.mjs` in the same folder',
    ]),
  );
  expect(problems.filter((problem) => !problem.startsWith('mistake.md:'))).toEqual([]);
  expect(readmeBlocks.filter((block) => block.code.startsWith(COMPILED_ELSEWHERE))).toHaveLength(1);
});

test('a block that misuses the typed API fails at its Markdown line', () => {
  expect(problems.filter((problem) => problem.startsWith('mistake.md:'))).toEqual(["mistake.md:6:45: Type 'string' is not assignable to type 'number'."]);
});

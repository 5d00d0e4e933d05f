/**
 * Issue 14: the README's code compiles under `tsc --strict` as a user's code would. Every
 * JavaScript and TypeScript block of README.md becomes a module of its own in a scratch project
 * whose `node_modules/connector-engine` is this package, so `import ... from 'connector-engine'`
 * resolves through package.json "exports" to the built types in dist/ (`npm test` builds first),
 * exactly as in an installed copy. A problem is reported at its README line.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageRoot } from '../engine/package-root.js';

const root = packageRoot();

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

/** A scratch project: one .mts module per block, and this package installed as `connector-engine`. */
function scratchProject(blocks: CodeBlock[]): { dir: string; files: Map<string, CodeBlock> } {
  const dir = mkdtempSync(join(tmpdir(), 'readme-types-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'connector-engine'), 'dir');
  const files = new Map<string, CodeBlock>();
  for (const [i, block] of blocks.entries()) {
    const file = join(dir, `block-${i}.mts`);
    writeFileSync(file, block.code);
    files.set(file, block);
  }
  return { dir, files };
}

/** Removes a scratch project; the package link goes first, so nothing can follow it into the package. */
function removeProject(dir: string): void {
  unlinkSync(join(dir, 'node_modules', 'connector-engine'));
  rmSync(dir, { recursive: true });
}

/** What `tsc --strict` says about the modules, each problem as `<markdown file>:line:column: message`. */
function strictProblems(files: Map<string, CodeBlock>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    // As `tsc --init` sets it: declaration files are used, not checked (checking all of them,
    // @types/node included, takes most of a minute).
    skipLibCheck: true,
  };
  const program = ts.createProgram([...files.keys()], options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!diagnostic.file || diagnostic.start === undefined) return `(no file): ${message}`;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const block = files.get(diagnostic.file.fileName);
    return block ? `${block.source}:${block.line + line}:${character + 1}: ${message}` : `${diagnostic.file.fileName}:${line + 1}: ${message}`;
  });
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

const readmeBlocks = codeBlocks('README.md', readFileSync(join(root, 'README.md'), 'utf8'));
let project: { dir: string; files: Map<string, CodeBlock> } | undefined;
let problems: string[] = [];

// One program for every block: loading the package's types is most of the time.
beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'engine', 'index.d.ts'))) throw new Error('dist/ holds the built types the README is compiled against: run npm run build');
  project = scratchProject([...readmeBlocks, ...codeBlocks('mistake.md', MISTAKE)]);
  problems = strictProblems(project.files);
});
afterAll(() => {
  if (project) removeProject(project.dir);
});

test('every code block of the README compiles under tsc --strict against the built package', () => {
  // The library example, the search example and the hosted client's: a check of nothing passes by construction.
  expect(readmeBlocks.map((block) => block.code.split('\n')[0])).toEqual(
    expect.arrayContaining([
      '// example.mjs — run with `node example.mjs` from this folder',
      '// search-example.mjs — run with `node search-example.mjs` from this folder',
      '// hosted-example.mjs — run with `node hosted-example.mjs` in the same folder',
    ]),
  );
  expect(problems.filter((problem) => !problem.startsWith('mistake.md:'))).toEqual([]);
});

test('a block that misuses the typed API fails at its Markdown line', () => {
  expect(problems.filter((problem) => problem.startsWith('mistake.md:'))).toEqual(["mistake.md:6:45: Type 'string' is not assignable to type 'number'."]);
});

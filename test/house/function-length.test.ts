import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Issue 13: no function in engine/ is longer than this many lines, first line to last. */
const MAX_LINES = 80;

/** Files still allowed longer functions, each with the reason; remove an entry once its file is split. */
const EXCEPTIONS: Record<string, string> = {};

/** A function over the limit: where it starts, its name and its length in lines. */
interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

/** Every .ts file under engine/, as a path relative to the repository root with `/` separators. */
function engineFiles(): string[] {
  return readdirSync(join(root, 'engine'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => `engine/${path.split('\\').join('/')}`)
    .sort();
}

/** Declarations, methods, constructors, accessors, arrows and function expressions: everything with a body of its own. */
function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** The function's own name, or the variable or property it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText();
  return '(anonymous)';
}

/** The functions of one source text longer than `max` lines, counted from the first line to the last. */
function longFunctions(file: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ file, line: first + 1, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `file:line name (N lines)`, as a failure lists it. */
function located(fn: LongFunction): string {
  return `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`;
}

const excepted = Object.entries(EXCEPTIONS).map(([file, why]) => `${file}, ${why}`);
test(`no function in engine/ is longer than ${MAX_LINES} lines${excepted.length > 0 ? ` (exceptions: ${excepted.join('; ')})` : ''}`, () => {
  const files = engineFiles();
  const offenders = files
    .filter((file) => EXCEPTIONS[file] === undefined)
    .flatMap((file) => longFunctions(file, readFileSync(join(root, file), 'utf8'), MAX_LINES))
    .map(located);
  expect(offenders).toEqual([]);
  expect(files).toContain('engine/sandbox/shopify/seed-orders.ts');
  expect(files.length).toBeGreaterThan(200);
});

test('each exception still holds a function over the limit (an entry whose file was split must go)', () => {
  const stale = Object.keys(EXCEPTIONS).filter((file) => longFunctions(file, readFileSync(join(root, file), 'utf8'), MAX_LINES).length === 0);
  expect(stale).toEqual([]);
});

test('the count runs from the first line to the last and catches every kind of function', () => {
  const body = (lines: number): string => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [
    `export function fits(): void {\n${body(80)}\n}`,
    `export function tooLong(): void {\n${body(81)}\n}`,
    `const arrow = (): void => {\n${body(82)}\n};`,
    `class Holder {\n  method(): void {\n${body(83)}\n  }\n  constructor() {\n${body(84)}\n  }\n}`,
    `const table = { expression: function (): void {\n${body(85)}\n} };`,
  ].join('\n');
  expect(longFunctions('sample.ts', text, MAX_LINES).map(located)).toEqual([
    'sample.ts:81 tooLong (81 lines)',
    'sample.ts:162 arrow (82 lines)',
    'sample.ts:245 method (83 lines)',
    'sample.ts:328 constructor (84 lines)',
    'sample.ts:413 expression (85 lines)',
  ]);
});

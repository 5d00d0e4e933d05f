/**
 * A scratch TypeScript project that uses this package as a user's project does: its
 * `node_modules/connector-engine` is this package, so `import ... from 'connector-engine'` resolves
 * through package.json "exports" to the built types in dist/ (`npm test` builds first), compiled
 * with `--strict`. Why: the README's code and the editor's completions are checked as users get them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../engine/package-root.js';

const root = packageRoot();

/** A user's options: `tsc --strict` on ES modules for Node, with @types/node. */
const OPTIONS: ts.CompilerOptions = {
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

/**
 * The package's own dependencies, beside it in the project's node_modules as npm installs them, so
 * a README example may import one the package brings (the MCP SDK's client).
 */
function linkDependencies(dir: string): void {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), target, 'dir');
  }
}

/** A problem the compiler found, where it is. */
export interface Problem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** The scratch project: its modules (name -> text), checked and asked for completions by one language service. */
export class PackageProject {
  readonly dir: string;
  private readonly service: ts.LanguageService;
  private readonly texts = new Map<string, string>();

  constructor(modules: Record<string, string>) {
    if (!existsSync(join(root, 'dist', 'engine', 'index.d.ts'))) throw new Error('dist/ holds the built types the project compiles against: run npm run build');
    this.dir = mkdtempSync(join(tmpdir(), 'package-project-'));
    mkdirSync(join(this.dir, 'node_modules'));
    symlinkSync(root, join(this.dir, 'node_modules', 'connector-engine'), 'dir');
    linkDependencies(this.dir);
    for (const [name, text] of Object.entries(modules)) {
      writeFileSync(join(this.dir, name), text);
      this.texts.set(join(this.dir, name), text);
    }
    const files = [...this.texts.keys()];
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => files,
      getScriptVersion: () => '1',
      getScriptSnapshot: (file) => (existsSync(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file) ?? '') : undefined),
      getCurrentDirectory: () => this.dir,
      getCompilationSettings: () => OPTIONS,
      getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Every problem `tsc --strict` reports in the project (a module's by its name). */
  problems(): Problem[] {
    const program = this.service.getProgram();
    if (!program) throw new Error('the language service made no program');
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file || diagnostic.start === undefined) return { file: '(none)', line: 0, column: 0, message };
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const file = diagnostic.file.fileName.startsWith(this.dir) ? diagnostic.file.fileName.slice(this.dir.length + 1) : diagnostic.file.fileName;
      return { file, line: line + 1, column: character + 1, message };
    });
  }

  /** The names an editor offers with the caret right after `before` (its first occurrence in the module). */
  completions(module: string, before: string): string[] {
    const file = join(this.dir, module);
    const at = this.texts.get(file)?.indexOf(before) ?? -1;
    if (at < 0) throw new Error(`${module} has no ${before}`);
    const found = this.service.getCompletionsAtPosition(file, at + before.length, { includeCompletionsWithInsertText: true });
    return (found?.entries ?? []).map((entry) => entry.name).sort();
  }

  /** Removes the project; the package link goes first, so nothing can follow it into the package. */
  remove(): void {
    unlinkSync(join(this.dir, 'node_modules', 'connector-engine'));
    rmSync(this.dir, { recursive: true });
  }
}

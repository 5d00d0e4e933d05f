import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { ManifestInvalidError, type ErrorDetail } from '../errors.js';
import { locate, locateKey, pointerToPath } from './positions.js';
import { manifestSchemaValidator, type ErrorObject } from './schema-validator.js';
import { checkSemantics, type SemanticProblem } from './semantics.js';
import type { LoadedManifest, Manifest } from './types.js';

function where(file: string, line: number, col: number): string {
  return `${file}:${line}:${col}`;
}

/** Turns ajv's errors into located problems, one per place, without the noise of failed branches. */
function schemaProblems(errors: ErrorObject[], doc: Document, lines: LineCounter, file: string): ErrorDetail[] {
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  const hasDeeper = (path: string) => errors.some((e) => e.instancePath.startsWith(path + '/') && e.keyword !== 'oneOf');
  for (const error of errors) {
    if ((error.keyword === 'oneOf' || error.keyword === 'if') && hasDeeper(error.instancePath)) continue;
    const path = pointerToPath(error.instancePath);
    let message = `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`;
    let pos = locate(doc, lines, path);
    if (error.keyword === 'additionalProperties') {
      const extra = String((error.params as { additionalProperty: string }).additionalProperty);
      pos = locateKey(doc, lines, path, extra);
      message = `${error.instancePath || '/'} has unknown property "${extra}"`;
    } else if (error.keyword === 'enum') {
      message += `: ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
    } else if (error.keyword === 'discriminator') {
      const tag = error.params as { tag?: string; tagValue?: unknown };
      message = `${error.instancePath || '/'} has ${tag.tag ?? 'type'} ${JSON.stringify(tag.tagValue)}, which is not a kind allowed here`;
    } else if (error.keyword === 'const') {
      message += `: ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    }
    const location = where(file, pos.line, pos.col);
    const key = location + message;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: location, message });
  }
  return out;
}

/**
 * Semantic checks also run on a manifest that failed the schema, so that all of its mistakes show
 * at once; a shape too broken for them to read only yields the schema's problems.
 */
function semanticProblems(data: Manifest, schemaOk: boolean): SemanticProblem[] {
  try {
    return checkSemantics(data);
  } catch (error) {
    if (schemaOk) throw error;
    return [];
  }
}

/**
 * Parses and validates one manifest text. Reports every problem at once (YAML syntax, then JSON
 * Schema, then semantic checks), each as file:line:col, so an author fixes a manifest in one pass
 * and a broken manifest can never reach call time.
 */
export function parseManifest(text: string, file: string): LoadedManifest {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, merge: true, uniqueKeys: true, prettyErrors: false });
  const problems: ErrorDetail[] = [];
  for (const error of doc.errors) {
    const pos = lines.linePos(error.pos[0]);
    problems.push({ path: where(file, pos.line, pos.col), message: error.message.split('\n')[0] ?? error.message });
  }
  if (problems.length === 0) {
    const data = doc.toJS({ maxAliasCount: 10_000 }) as unknown;
    const validate = manifestSchemaValidator();
    const schemaOk = validate(data);
    if (!schemaOk) problems.push(...schemaProblems(validate.errors ?? [], doc, lines, file));
    for (const problem of semanticProblems(data as Manifest, schemaOk)) {
      const pos = locate(doc, lines, problem.path);
      problems.push({ path: where(file, pos.line, pos.col), message: problem.message });
    }
    if (problems.length === 0) return { manifest: data as Manifest, file };
  }
  throw new ManifestInvalidError(
    `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n` + problems.map((p) => `${p.path} ${p.message}`).join('\n'),
    { details: problems },
  );
}

/** Reads and validates a manifest file; problems name the file relative to the working folder. */
export function loadManifestFile(path: string): LoadedManifest {
  const name = relative(process.cwd(), path) || path;
  return parseManifest(readFileSync(path, 'utf8'), name.startsWith('..') ? path : name);
}

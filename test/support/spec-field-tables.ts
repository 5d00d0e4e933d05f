import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * SPEC.md's field tables, read from the contract itself (../shared/SPEC.md beside the repository;
 * SHARED_DIR points elsewhere), so that a test checks records against what the spec says today
 * rather than against a copy that drifts.
 */

/** One field table: the fields SPEC.md lists for the records of one entity's action. */
export interface FieldTable {
  /** SPEC.md's connector kind word: `CRM`, `Task-management`, `Advertising`. */
  kind: string;
  entity: string;
  /** `list`, `get`, `search`..., or `records` when SPEC.md names no action (every record-returning action). */
  action: string;
  fields: string[];
  /** Where in SPEC.md the table is (its subsection heading and the line that introduces it). */
  source: string;
}

/** What the parse found: the tables, and SPEC.md's sentences that say which record fields are not shown. */
export interface SpecFieldTables {
  tables: FieldTable[];
  notShown: string[];
}

/** The path of SPEC.md: `../shared/SPEC.md` from the repository root, or `$SHARED_DIR/SPEC.md`. */
export function specPath(): string {
  const shared = process.env.SHARED_DIR ?? resolve(fileURLToPath(new URL('../../..', import.meta.url)), 'shared');
  const path = join(shared, 'SPEC.md');
  if (!existsSync(path)) throw new Error(`${path} not found (set SHARED_DIR to the shared/ folder)`);
  return path;
}

/** Reads and parses SPEC.md's field tables. */
export function readSpecFieldTables(path = specPath()): SpecFieldTables {
  return parseSpecFieldTables(readFileSync(path, 'utf8'));
}

/**
 * The field tables of the "Resources and their fields" section: its `###` subsections about
 * records or searchable fields, each a table or a sentence listing backticked field names.
 */
export function parseSpecFieldTables(markdown: string): SpecFieldTables {
  const section = between(markdown, /^## Resources and their fields$/m, /^## /m);
  const tables: FieldTable[] = [];
  const notShown: string[] = [];
  for (const [heading, body] of subsections(section)) {
    if (!/record|searchable fields/i.test(heading)) continue;
    tables.push(...parseSubsection(heading, body));
    notShown.push(...body.filter((line) => /^Fields of .*: not shown\.$/.test(line)));
  }
  return { tables, notShown };
}

/** The text after the line matching `start`, up to the next line matching `end`. */
function between(text: string, start: RegExp, end: RegExp): string {
  const from = text.search(start);
  if (from < 0) throw new Error(`SPEC.md has no ${start}`);
  const rest = text.slice(from).split('\n').slice(1).join('\n');
  const to = rest.search(end);
  return to < 0 ? rest : rest.slice(0, to);
}

function subsections(section: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const line of section.split('\n')) {
    const heading = /^### (.+)$/.exec(line);
    if (heading) out.push([heading[1]!, []]);
    else if (out.length > 0 && line.trim() !== '') out.at(-1)![1].push(line.trim());
  }
  return out;
}

/** How the rows of the next table are read. */
type TableMode =
  /** Rows are `field | type`; every row adds to one record shared by `entities`. */
  | { kind: 'fields'; entities: string[]; action: string }
  /** Rows are `entity (actions) | fields`. */
  | { kind: 'rows'; action: string };

function parseSubsection(heading: string, lines: string[]): FieldTable[] {
  const kind = heading.split(' ')[0]!;
  const tables: FieldTable[] = [];
  const add = (entity: string, action: string, fields: string[], where: string) =>
    tables.push({ kind, entity, action, fields, source: `${heading}: ${where}` });
  const named = /\(entit(?:y|ies) ([^)]+)\)/.exec(heading);
  let mode: TableMode = named
    ? { kind: 'fields', entities: splitList(named[1]!), action: 'records' }
    : { kind: 'rows', action: /searchable fields/i.test(heading) ? 'search' : 'records' };
  let where = 'table';
  let rows: string[][] = [];
  const flush = () => {
    if (rows.length > 0) tables.push(...tableOf(kind, heading, where, mode, rows));
    rows = [];
  };
  for (const line of lines) {
    if (line.startsWith('|')) {
      rows.push(cells(line));
      continue;
    }
    flush();
    where = line;
    const listResults = /^(.+?) \(list results of ([^)]+)\): (.+)$/.exec(line);
    const listRecord = /^(\w+) list record: (.+)$/.exec(line);
    const searchOf = /^Searchable fields of (\w+) \(action `(\w+)`\): (.+)$/.exec(line);
    const tableFor = /^(?:Records returned by|Searchable fields \(action) `(\w+)`\)?:$/.exec(line);
    if (listResults) for (const entity of splitList(listResults[2]!)) add(entity, 'list', fieldNames(listResults[3]!), line);
    else if (listRecord) add(`${listRecord[1]!.toLowerCase()}s`, 'list', fieldNames(listRecord[2]!), line);
    else if (searchOf) add(searchOf[1]!, searchOf[2]!, fieldNames(searchOf[3]!), line);
    else if (tableFor) mode = { kind: 'rows', action: tableFor[1]! };
  }
  flush();
  return tables;
}

function tableOf(kind: string, heading: string, where: string, mode: TableMode, rows: string[][]): FieldTable[] {
  const body = rows.slice(2); // the header row and the |---| row
  const source = `${heading}: ${where}`;
  if (mode.kind === 'fields') {
    const fields = body.flatMap((row) => fieldNames(row[0]!));
    return mode.entities.map((entity) => ({ kind, entity, action: mode.action, fields, source }));
  }
  return body.flatMap((row) => {
    const head = /^(\w+)(?: \(([^)]+)\))?$/.exec(row[0]!);
    if (!head) throw new Error(`SPEC.md ${source}: cannot read the entity cell "${row[0]}"`);
    const actions = head[2] ? splitList(head[2]) : [mode.action];
    return actions.map((action) => ({ kind, entity: head[1]!, action, fields: fieldNames(row[1]!), source }));
  });
}

function cells(line: string): string[] {
  return line
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

function splitList(text: string): string[] {
  return text.split(/,\s*/).map((item) => item.trim());
}

/**
 * The backticked names of a cell or sentence, without those SPEC.md itself says are none
 * ("`dynamicBiddingobject` is not a field").
 */
function fieldNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/`([^`]+)`/g)) {
    if (text.slice(match.index! + match[0].length).startsWith(' is not a field')) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(match[1]!)) throw new Error(`SPEC.md field name "${match[1]}" is not a plain name`);
    names.push(match[1]!);
  }
  return names;
}

/**
 * A connector written in YAML alone, as a new author would (issue 13): a small notes API served by
 * a fake in this test, paged by page number (the manifest connectors/README.md builds, read from
 * the guide) and by offset (another), with a get by id. Each manifest lints clean, runs from the CLI with `--manifest`, reads every record with
 * records(), and its `meta.next_cursor` passed back as the paging param reads the next page.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, loadManifestFile, ManifestInvalidError, PaginationLoopError, parseManifest } from '../../engine/index.js';
import { runCli } from '../support/cli.js';

const TOKEN = 'notes-token-1';
const NOTES = Array.from({ length: 23 }, (_, i) => ({ id: `n${i + 1}`, title: `Note ${i + 1}` }));

/** One request the fake answered: its path and query. */
interface Seen {
  path: string;
  query: Record<string, string>;
}

/**
 * The notes API: bearer auth (401 otherwise), `GET /notes?page&per_page` (pages from 1, per_page
 * default 10, `{notes, page, total}`), `GET /entries?offset&limit` (`{entries, total}`), and
 * `GET /notes/{id}` (404 `{error}` for an unknown id).
 */
function startNotesApi(): Promise<{ server: Server; baseUrl: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://notes.invalid');
    const query = Object.fromEntries(url.searchParams);
    seen.push({ path: url.pathname, query });
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: 'invalid token' });
    const number = (name: string, fallback: number) => (query[name] === undefined ? fallback : Number(query[name]));
    if (url.pathname === '/notes') {
      const page = number('page', 1);
      const size = number('per_page', 10);
      return send(200, { notes: NOTES.slice((page - 1) * size, page * size), page, total: NOTES.length });
    }
    // A hostile upstream: it ignores the page param and answers the first page forever.
    if (url.pathname === '/stuck') return send(200, { notes: NOTES.slice(0, 10) });
    if (url.pathname === '/entries') {
      const offset = number('offset', 0);
      return send(200, { entries: NOTES.slice(offset, offset + number('limit', 10)), total: NOTES.length });
    }
    const note = NOTES.find((n) => `/notes/${n.id}` === url.pathname);
    return note ? send(200, note) : send(404, { error: 'no such note' });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }));
  });
}

/** A notes manifest whose list pages as `pagination` says, with the list's request params. */
function notesManifest(type: string, list: { path: string; records: string; params: string; query: string; pagination: string }): string {
  return `type: ${type}
name: Notes API (${type})
version: 0.1.0
base_url: https://api.notes.example
hosts:
  api: [api.notes.example]
auth:
  - name: token
    credentials:
      type: object
      required: [token]
      properties:
        token: { type: string, writeOnly: true, description: API token. }
    sign: { type: bearer, token: "{{credentials.token}}" }
check: { entity: notes, action: list, params: {} }
entities:
  notes:
    record:
      type: object
      properties:
        id: { type: string }
        title: { type: string }
    actions:
      list:
        params:
          type: object
          additionalProperties: false
          properties:
${list.params}
        request:
          method: GET
          path: ${list.path}
          query: { ${list.query} }
        response: { records: ${list.records} }
        pagination: ${list.pagination}
      get:
        params:
          type: object
          required: [id]
          properties:
            id: { type: string, description: Note id. }
        request: { method: GET, path: "/notes/{{params.id}}" }
        response: { record: "" }
`;
}

/** The YAML blocks of the author guide, in order. */
const GUIDE_BLOCKS = [...readFileSync(new URL('../../connectors/README.md', import.meta.url), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map(
  (match) => match[1] as string,
);
/** The guide's finished manifest (its last block): the page-number connector these tests run. */
const PAGE_NUMBER = GUIDE_BLOCKS.at(-1) as string;

const OFFSET = notesManifest('notes-offset', {
  path: '/entries',
  records: 'entries',
  params:
    '            offset: { type: integer, minimum: 0, description: Notes to skip. }\n            limit: { type: integer, minimum: 1, maximum: 50, description: Notes per page. }',
  query: 'offset: "{{params.offset}}", limit: "{{params.limit}}"',
  pagination: '{ type: offset, param: offset, page_size_param: limit, total_path: total }',
});

const STUCK = notesManifest('notes-stuck', {
  path: '/stuck',
  records: 'notes',
  params:
    '            page: { type: integer, minimum: 1, description: Page number. }\n            per_page: { type: integer, minimum: 1, maximum: 50, default: 10, description: Notes per page. }',
  query: 'page: "{{params.page}}", per_page: "{{params.per_page}}"',
  pagination: '{ type: page_number, param: page, page_size_param: per_page }',
});

let api: Awaited<ReturnType<typeof startNotesApi>>;
let dir: string;
let credentialsFile: string;

beforeAll(async () => {
  api = await startNotesApi();
  dir = mkdtempSync(join(tmpdir(), 'authored-'));
  writeFileSync(join(dir, 'notes-pages.yaml'), PAGE_NUMBER);
  writeFileSync(join(dir, 'notes-offset.yaml'), OFFSET);
  writeFileSync(join(dir, 'notes-stuck.yaml'), STUCK);
  credentialsFile = join(dir, 'credentials.json');
  writeFileSync(credentialsFile, JSON.stringify({ token: TOKEN }));
});
afterAll(() => new Promise<void>((resolve) => api.server.close(() => resolve())));

const ids = NOTES.map((note) => note.id);
const cli = (file: string, words: string[], params?: object, extra: string[] = []) =>
  runCli([
    'exec',
    '--manifest',
    join(dir, file),
    ...words,
    ...(params ? ['--params', JSON.stringify(params)] : []),
    '--credentials',
    credentialsFile,
    '--base-url',
    api.baseUrl,
    ...extra,
  ]);
const library = (file: string) => connect(loadManifestFile(join(dir, file)), { credentials: { token: TOKEN }, baseUrl: api.baseUrl });

describe.each([
  { file: 'notes-pages.yaml', param: 'page', first: 1, size: 'per_page', cursors: [2, 3] },
  { file: 'notes-offset.yaml', param: 'offset', first: 0, size: 'limit', cursors: [10, 20] },
])('$file', ({ file, param, size, cursors }) => {
  test('lints clean', async () => {
    const result = await runCli(['lint', join(dir, file)]);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, '1 manifest checked, 0 problems\n', '']);
  });

  test('exec --manifest --all prints every record once', async () => {
    const result = await cli(file, ['notes', 'list'], { [size]: 10 }, ['--all']);
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(ids);
  });

  test('meta.next_cursor is a number, and passed back as the paging param it reads the next page', async () => {
    const pages: unknown[][] = [];
    const cursorsSeen: unknown[] = [];
    let params: Record<string, unknown> = { [size]: 10 };
    for (let i = 0; i < 5; i++) {
      const result = await cli(file, ['notes', 'list'], params);
      expect(result.code, result.stderr).toBe(0);
      const body = JSON.parse(result.stdout) as { data: Array<{ id: string }>; meta: { has_more: boolean; next_cursor: unknown } };
      pages.push(body.data.map((note) => note.id));
      cursorsSeen.push(body.meta.next_cursor);
      if (!body.meta.has_more) break;
      params = { ...params, [param]: body.meta.next_cursor };
    }
    expect(cursorsSeen).toEqual([...cursors, null]);
    expect(pages).toEqual([ids.slice(0, 10), ids.slice(10, 20), ids.slice(20)]);
  });

  test('records() reads every record, stopping at the short last page without asking for an empty one', async () => {
    const before = api.seen.length;
    const read: unknown[] = [];
    for await (const note of library(file).records('notes', 'list', { [size]: 5 })) read.push(note.id);
    expect(read).toEqual(ids);
    expect(api.seen.slice(before).map((s) => s.query[param] ?? null)).toEqual(param === 'page' ? [null, '2', '3', '4', '5'] : [null, '5', '10', '15', '20']);
  });

  test('get by id reads one record', async () => {
    const result = await cli(file, ['notes', 'get'], { id: 'n7' });
    expect(JSON.parse(result.stdout).data).toEqual({ id: 'n7', title: 'Note 7' });
  });

  test('entities --manifest describes the file', async () => {
    const result = await runCli(['entities', '--manifest', join(dir, file), '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout).notes)).toEqual(['list', 'get']);
  });
});

test('page_number with the page size left to its default (10, by the params schema) stops at the short page', async () => {
  const before = api.seen.length;
  const read: unknown[] = [];
  for await (const note of library('notes-pages.yaml').records('notes', 'list')) read.push(note.id);
  expect(read).toEqual(ids);
  expect(api.seen.slice(before).map((s) => s.query)).toEqual([{ per_page: '10' }, { page: '2', per_page: '10' }, { page: '3', per_page: '10' }]);
});

test('offset stops at the total even when the last page is full', async () => {
  const before = api.seen.length;
  const read: unknown[] = [];
  for await (const note of library('notes-offset.yaml').records('notes', 'list', { limit: 23 })) read.push(note.id);
  expect(read).toEqual(ids);
  expect(api.seen.length - before).toBe(1);
});

test('a page param typed as a string fails at load with its location, since the cursor is a number', () => {
  const text = PAGE_NUMBER.replace('page: { type: integer, minimum: 1,', 'page: { type: string,');
  expect(text).not.toBe(PAGE_NUMBER);
  const error = (() => {
    try {
      parseManifest(text, 'notes.yaml');
    } catch (caught) {
      return caught as ManifestInvalidError;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(ManifestInvalidError);
  const line = text.split('\n').findIndex((l) => l.includes('pagination: { type: page_number')) + 1;
  expect(error?.details?.map((d) => `${d.path} ${d.message}`)).toEqual([
    expect.stringMatching(new RegExp(`^notes\\.yaml:${line}:\\d+ .*"page" must be typed integer: meta\\.next_cursor holds a number and goes back in it$`)),
  ]);
});

test('exec refuses --manifest with a type word too, and a missing file, naming what it expected', async () => {
  const extra = await runCli(['exec', '--manifest', join(dir, 'notes-pages.yaml'), 'notes-pages', 'notes', 'list']);
  expect(extra.code).toBe(1);
  expect(JSON.parse(extra.stderr).error).toMatchObject({ code: 'INVALID_REQUEST', message: 'expected --manifest <file> <entity> <action>, got 3 arguments' });
  const missing = await runCli(['exec', '--manifest', join(dir, 'nope.yaml'), 'notes', 'list']);
  expect(JSON.parse(missing.stderr).error).toMatchObject({
    code: 'INVALID_REQUEST',
    details: [{ path: '--manifest', message: 'must be a readable manifest file' }],
  });
});

test("the author guide's steps put together are its whole file", () => {
  expect(GUIDE_BLOCKS.slice(0, -1).join('')).toBe(PAGE_NUMBER);
});

test('a manifest that leaves out config and http gets the schema defaults: no settings, 30 s timeouts, 4 retries of 429 and 5xx', () => {
  const { manifest } = loadManifestFile(join(dir, 'notes-pages.yaml'));
  expect(manifest.config).toEqual({ type: 'object', properties: {} });
  expect(manifest.http).toEqual({
    timeout_ms: 30000,
    retry: { max_retries: 4, statuses: [429, 500, 502, 503, 504], base_delay_ms: 500, max_delay_ms: 15000, retry_after_cap_ms: 60000 },
  });
});

test('an upstream that ignores the page number is a PAGINATION_LOOP after one page, not an endless read', async () => {
  const read: unknown[] = [];
  const error = await (async () => {
    for await (const note of library('notes-stuck.yaml').records('notes', 'list')) read.push(note.id);
  })().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(PaginationLoopError);
  expect((error as PaginationLoopError).message).toBe(
    'notes-stuck notes list: the upstream answered the same page again for page 2; stopping instead of looping',
  );
  expect(read).toEqual(ids.slice(0, 10));
});

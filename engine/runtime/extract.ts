import { UpstreamError } from '../errors.js';
import { pathReader, type UpstreamAnswer } from '../http/index.js';
import type { ActionSpec } from '../manifest/index.js';
import { compileFieldMap } from './field-map.js';
import { pagingOf, type PageToken } from './paging/index.js';
import type { RecordData } from './record-data.js';

export type { RecordData };

/** The pagination fields of a result; `has_more` is always there. */
export interface ResultMeta {
  has_more: boolean;
  [field: string]: unknown;
}

/** One page (or one record) read out of an upstream answer. */
export interface ExtractedPage {
  records: RecordData[];
  meta: ResultMeta;
  nextToken: PageToken | undefined;
}

/** Reads one action's page out of an answer; `params` are the caller's (paging reads them). */
export type PageExtractor = (answer: UpstreamAnswer, params: Record<string, unknown>) => ExtractedPage;

function isRecord(value: unknown): value is RecordData {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The page of an answer with no body (204): no records, and the meta fields as null. */
function emptyPage(action: ActionSpec): ExtractedPage {
  const meta: ResultMeta = { has_more: false };
  for (const name of Object.keys(action.response.meta ?? {})) meta[name] = null;
  const paging = pagingOf(action.pagination);
  Object.assign(meta, paging.emptyMeta());
  if (!('next_cursor' in meta) && paging.pages) meta.next_cursor = null;
  return { records: [], meta, nextToken: undefined };
}

/** The records of a list answer: the first path that holds an array, which must hold only objects. */
function listReader(paths: string[], label: string): (json: unknown) => RecordData[] {
  const readers = paths.map(pathReader);
  const where = paths.map((p) => p || '(body)').join('" or "');
  return (json) => {
    let found: unknown;
    for (const read of readers) {
      found = read(json);
      if (Array.isArray(found)) break;
    }
    if (!Array.isArray(found) || !found.every(isRecord)) throw new UpstreamError(`${label} answered without an array of records at "${where}"`);
    return found;
  };
}

function recordReader(path: string, label: string): (json: unknown) => RecordData[] {
  const read = pathReader(path);
  return (json) => {
    const found = read(json);
    if (!isRecord(found)) throw new UpstreamError(`${label} answered without a record at "${path || '(body)'}"`);
    return [found];
  };
}

/**
 * Compiles how an action's answers are read, once at load: the records and meta paths split, the
 * paging bound, the field map compiled. The extractor checks the answer's shape first: an answer
 * that is not what the manifest describes is an upstream error, not bad data. `label` names the
 * connector in those errors.
 */
export function compileExtract(action: ActionSpec, label: string): PageExtractor {
  const { response } = action;
  const list = response.records !== undefined;
  const readRecords =
    response.records !== undefined
      ? listReader(typeof response.records === 'string' ? [response.records] : response.records, label)
      : recordReader(response.record ?? '', label);
  const metaReaders = Object.entries(response.meta ?? {}).map(([name, path]) => [name, pathReader(path)] as const);
  const paging = pagingOf(action.pagination);
  const mapRecord = compileFieldMap(action.fields);
  return (answer, params) => {
    if (answer.empty) return emptyPage(action);
    if (answer.json === undefined) {
      const type = answer.headers['content-type'] ?? 'no content type';
      throw new UpstreamError(`${label} answered ${answer.status} with a body that is not JSON (${String(type)})`);
    }
    const records = readRecords(answer.json);
    const page = list ? paging.readPage({ action, answer, records, params, label }) : { records, token: undefined, hasMore: false };
    const meta: ResultMeta = page.meta ? { has_more: page.hasMore, ...page.meta } : { has_more: page.hasMore };
    for (const [name, read] of metaReaders) meta[name] = read(answer.json) ?? null;
    if (list && !('next_cursor' in meta) && paging.pages) meta.next_cursor = page.token ?? null;
    for (const record of page.records) mapRecord(record);
    return { records: page.records, meta, nextToken: page.token };
  };
}

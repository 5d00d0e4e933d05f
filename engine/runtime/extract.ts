import { UpstreamError } from '../errors.js';
import { readPath, type UpstreamAnswer } from '../http/index.js';
import type { ActionSpec, FieldMapping } from '../manifest/index.js';
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

function transform(value: unknown, kind: FieldMapping['transform']): unknown {
  if (value === undefined || value === null || kind === undefined) return value;
  if (kind === 'epoch_ms') {
    const ms = typeof value === 'number' ? value : Date.parse(String(value));
    return Number.isNaN(ms) ? null : ms;
  }
  if (kind === 'number') {
    const n = Number(value);
    return Number.isNaN(n) ? null : n;
  }
  if (kind === 'string') return String(value);
  if (typeof value !== 'string') return value;
  return kind === 'lower' ? value.toLowerCase() : value.toUpperCase();
}

/** Applies the manifest's field mappings; fields not named pass through unchanged. */
export function mapRecord(record: RecordData, fields: Record<string, FieldMapping> | undefined): RecordData {
  if (!fields) return record;
  const out: RecordData = { ...record };
  for (const [name, mapping] of Object.entries(fields)) {
    let value = transform(mapping.from !== undefined ? readPath(record, mapping.from) : record[name], mapping.transform);
    if ((value === undefined || value === null) && 'default' in mapping) value = value ?? mapping.default;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

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

/**
 * Reads records and meta out of an answer as the action's response spec says, checking the shape
 * first: an answer that is not what the manifest describes is an upstream error, not bad data.
 */
export function extractPage(action: ActionSpec, answer: UpstreamAnswer, label: string, params: Record<string, unknown> = {}): ExtractedPage {
  if (answer.empty) return emptyPage(action);
  if (answer.json === undefined) {
    const type = answer.headers['content-type'] ?? 'no content type';
    throw new UpstreamError(`${label} answered ${answer.status} with a body that is not JSON (${String(type)})`);
  }
  const { response } = action;
  let records: RecordData[];
  if (response.records !== undefined) {
    const paths = typeof response.records === 'string' ? [response.records] : response.records;
    const found = paths.map((path) => readPath(answer.json, path)).find(Array.isArray);
    if (!Array.isArray(found) || !found.every(isRecord)) {
      throw new UpstreamError(`${label} answered without an array of records at "${paths.map((p) => p || '(body)').join('" or "')}"`);
    }
    records = found;
  } else {
    const found = readPath(answer.json, response.record ?? '');
    if (!isRecord(found)) throw new UpstreamError(`${label} answered without a record at "${response.record || '(body)'}"`);
    records = [found];
  }
  const paging = pagingOf(action.pagination);
  const page = response.records !== undefined ? paging.readPage({ action, answer, records, params, label }) : { records, token: undefined, hasMore: false };
  const meta: ResultMeta = { has_more: page.hasMore, ...page.meta };
  for (const [name, path] of Object.entries(response.meta ?? {})) meta[name] = readPath(answer.json, path) ?? null;
  if (response.records !== undefined && !('next_cursor' in meta) && paging.pages) meta.next_cursor = page.token ?? null;
  const token = page.token;
  records = page.records;
  return { records: records.map((r) => mapRecord(r, action.fields)), meta, nextToken: token };
}

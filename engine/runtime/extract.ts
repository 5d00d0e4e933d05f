import { UpstreamError } from '../errors.js';
import { readPath, type UpstreamAnswer } from '../http/index.js';
import type { ActionSpec, FieldMapping, PaginationSpec } from '../manifest/index.js';
import { readKeyedPage } from './record-key.js';

export type RecordData = Record<string, unknown>;

/** The pagination fields of a result; `has_more` is always there. */
export interface ResultMeta {
  has_more: boolean;
  [field: string]: unknown;
}

/** One page (or one record) read out of an upstream answer. */
export interface ExtractedPage {
  records: RecordData[];
  meta: ResultMeta;
  nextToken: string | undefined;
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

/** Parses RFC 8288 Link headers into rel -> URL. */
export function parseLinkHeader(header: string | string[] | undefined): Map<string, string> {
  const links = new Map<string, string>();
  const text = Array.isArray(header) ? header.join(',') : header ?? '';
  for (const match of text.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel="?([^";]+)"?/i.exec(match[2] ?? '');
    for (const name of rel?.[1]?.split(/\s+/) ?? []) links.set(name.toLowerCase(), match[1] as string);
  }
  return links;
}

function tokenText(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

function nextToken(pagination: PaginationSpec | undefined, answer: UpstreamAnswer): string | undefined {
  if (!pagination || pagination.type === 'none' || pagination.type === 'record_key') return undefined;
  if (pagination.type === 'body_token') {
    return tokenText(readPath(answer.json, pagination.token_path));
  }
  const link = parseLinkHeader(answer.headers.link).get((pagination.rel ?? 'next').toLowerCase());
  if (!link) return undefined;
  return new URL(link, 'http://link.invalid').searchParams.get(pagination.query_param) ?? undefined;
}

function isRecord(value: unknown): value is RecordData {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads records and meta out of an answer as the action's response spec says, checking the shape
 * first: an answer that is not what the manifest describes is an upstream error, not bad data.
 */
function emptyPage(action: ActionSpec): ExtractedPage {
  const meta: ResultMeta = { has_more: false };
  for (const name of Object.keys(action.response.meta ?? {})) meta[name] = null;
  if (action.pagination?.type === 'record_key' && action.pagination.token_meta !== undefined) meta[action.pagination.token_meta] = null;
  if (!('next_cursor' in meta) && action.pagination && action.pagination.type !== 'none') meta.next_cursor = null;
  return { records: [], meta, nextToken: undefined };
}

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
  const { pagination } = action;
  let token = nextToken(pagination, answer);
  let hasMore = token !== undefined;
  const meta: ResultMeta = { has_more: false };
  if (pagination?.type === 'record_key') {
    const keyed = readKeyedPage(action, pagination, records, params, label);
    ({ records, token } = keyed);
    // In an order that cannot be paged there is no cursor, yet a full page still means more may match.
    hasMore = keyed.full;
    if (pagination.token_meta !== undefined) meta[pagination.token_meta] = token === undefined ? null : { [pagination.param]: token };
  }
  meta.has_more = hasMore;
  for (const [name, path] of Object.entries(response.meta ?? {})) meta[name] = readPath(answer.json, path) ?? null;
  if (response.records !== undefined && !('next_cursor' in meta) && action.pagination?.type !== 'none') {
    meta.next_cursor = token ?? null;
  }
  return { records: records.map((r) => mapRecord(r, action.fields)), meta, nextToken: token };
}

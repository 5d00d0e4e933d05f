import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { EngineError, InvalidParamsError, NotFoundError, UpstreamError, UpstreamTimeoutError } from '../errors.js';
import {
  decodedBody,
  readPath,
  USER_AGENT,
  withClientHeaders,
  type EgressPolicy,
  type Redactor,
  type UpstreamCall,
  type UpstreamRequestListener,
} from '../http/index.js';
import type { FileSpec } from '../manifest/index.js';
import { compileTemplate, type CompiledTemplate, type TemplateContext } from '../template/index.js';
import type { RecordData } from './extract.js';

/** File hosts get the engine's name too; no Accept-Encoding: a file comes as the host stores it. */
const FILE_DEFAULTS = { 'user-agent': USER_AGENT };

/**
 * A file being streamed: an AsyncIterable of byte chunks (read it with `for await`), plus what
 * the file host said about it, so a caller can forward it (hosted mode answers 200/206 with these).
 */
export class DownloadStream implements AsyncIterable<Uint8Array> {
  constructor(
    /** 200 for the whole file, 206 for a range. */
    readonly status: number,
    readonly contentType: string | undefined,
    readonly contentLength: number | undefined,
    readonly contentRange: string | undefined,
    /** The record that named the file (name, size, host...). */
    readonly record: RecordData,
    private readonly body: AsyncIterable<Uint8Array> & { destroy(): void },
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this.body[Symbol.asyncIterator]();
  }

  /** Stops the transfer (e.g. the consumer went away). */
  cancel(): void {
    this.body.destroy();
  }
}

/** The file step of a download action, compiled once. */
export interface CompiledFile {
  spec: FileSpec;
  headers: Array<[string, CompiledTemplate]>;
}

export function compileFile(spec: FileSpec): CompiledFile {
  return { spec, headers: Object.entries(spec.headers ?? {}).map(([k, v]) => [k.toLowerCase(), compileTemplate(v)]) };
}

/** A file host's answer at its headers, its body not read yet. */
type Opened = { status: number; headers: Record<string, string | string[] | undefined>; body: Readable };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// A presigned S3 URL answers directly; a CDN or a regional endpoint may add a hop or two.
const MAX_REDIRECTS = 3;

function ignore(): void {}

/**
 * Opens one URL and resolves at its answer's headers. The call's deadline bounds only this wait
 * (the first byte): once the answer starts, the stream takes as long as the consumer reads, its
 * pace set by the reader (undici pauses the socket while the body is not read).
 */
async function openHop(url: URL, headers: Record<string, string>, options: DownloadOptions, dispatcher: Dispatcher): Promise<Opened> {
  const { call } = options;
  if (call.expired()) throw call.failure('attempt');
  call.attemptStarted();
  const controller = new AbortController();
  const onDeadline = () => controller.abort(call.signal.reason);
  call.signal.addEventListener('abort', onDeadline, { once: true });
  try {
    // headersTimeout is got's `timeout.response` (until the answer's headers); the body has no timeout.
    const response = await request(url, {
      method: 'GET',
      headers: withClientHeaders(headers, FILE_DEFAULTS),
      dispatcher,
      signal: controller.signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: 0,
    });
    call.attemptEnded();
    // undici's body emits 'error' when destroyed unread (a redirect hop, a cancel): readers still
    // get every failure through their iterator; this keeps an unread one from crashing the process.
    response.body.on('error', ignore);
    return { status: response.statusCode, headers: response.headers, body: response.body };
  } finally {
    call.signal.removeEventListener('abort', onDeadline);
  }
}

/**
 * Opens a file URL and follows its redirects here, so that every hop passes the egress policy
 * (https, hosts.files, a public address at connect time) before it connects.
 */
async function openFollowing(first: URL, headers: Record<string, string>, options: DownloadOptions): Promise<Opened> {
  let url = first;
  for (let hop = 0; ; hop++) {
    const { dispatcher } = options.egress.permit(url, 'files');
    options.onRequest?.({ kind: 'file', retry: false });
    let opened: Opened;
    try {
      opened = await openHop(url, headers, options, dispatcher);
    } catch (error) {
      throw options.egress.connectRefusal(error, url, 'files') ?? error;
    }
    const location = opened.headers.location;
    if (!REDIRECT_STATUSES.has(opened.status) || typeof location !== 'string') return opened;
    opened.body.destroy();
    if (hop >= MAX_REDIRECTS) throw new UpstreamError(`${options.label}: the file host redirected more than ${MAX_REDIRECTS} times`);
    url = options.egress.parse(location, 'files', url);
  }
}

async function smallText(body: Readable): Promise<string> {
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > 2000) break;
  }
  body.destroy();
  return text;
}

function fileUrl(record: RecordData, spec: FileSpec, label: string, egress: EgressPolicy): URL {
  const url = readPath(record, spec.url);
  if (url === undefined || url === null || url === '') {
    const name = typeof record.name === 'string' ? `"${record.name}"` : 'the record';
    throw new NotFoundError(`${label}: ${name} ${spec.missing_message}`, { details: [{ path: `/${spec.url}`, message: 'is empty' }] });
  }
  return egress.parse(url, 'files');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The stream of a 2xx file answer. An encoded file (Content-Encoding) is decoded, as got did; its
 * Content-Length then counts the encoded bytes, so none is reported.
 */
function openedStream(opened: Opened, record: RecordData): DownloadStream {
  const { headers } = opened;
  const encoding = single(headers['content-encoding']);
  const encoded = encoding !== undefined && encoding !== 'identity';
  const length = single(headers['content-length']);
  return new DownloadStream(
    opened.status,
    single(headers['content-type']),
    length === undefined || encoded ? undefined : Number(length),
    single(headers['content-range']),
    record,
    decodedBody(opened.body, encoding),
  );
}

/** Connection failures as typed errors; a refusal (the guarded lookup's) passes through as it is. */
function openFailure(error: unknown, label: string): EngineError {
  if (error instanceof EngineError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof EngineError) return cause;
  const code = (error as { code?: string }).code;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return new UpstreamTimeoutError(`${label}: the file host did not answer in time`, { cause: error });
  return new UpstreamError(`${label}: the file host failed: ${code ?? (error as Error).message}`, { retryable: true, cause: error });
}

export interface DownloadOptions {
  file: CompiledFile;
  context: TemplateContext;
  label: string;
  timeoutMs: number;
  redact: Redactor;
  /** Where the file and its redirects may be fetched from (hosts.files, operator-named origins). */
  egress: EgressPolicy;
  /** The execute this download belongs to: its deadline bounds reaching the file's first byte. */
  call: UpstreamCall;
  /** Reads the record again (for a fresh URL after the old one expired). */
  readRecord: () => Promise<RecordData>;
  /** Told of each file request (metrics). */
  onRequest?: UpstreamRequestListener;
}

/**
 * Fetches the file a record names and returns it as a stream, never buffered. The file host gets
 * no credentials: download URLs are presigned, and a token sent along would leak to a third
 * party (S3 even refuses it). An expired URL (a `refetch_on` status) is read again once. The URL
 * and every redirect hop must pass the egress policy (HOST_NOT_ALLOWED otherwise).
 */
export async function download(first: RecordData, options: DownloadOptions): Promise<DownloadStream> {
  const { file, label } = options;
  const headers: Record<string, string> = {};
  for (const [name, template] of file.headers) {
    const value = template.render(options.context);
    if (value !== '') headers[name] = value;
  }
  let record = first;
  for (let attempt = 0; ; attempt++) {
    const url = fileUrl(record, file.spec, label, options.egress);
    let opened;
    try {
      opened = await openFollowing(url, headers, options);
    } catch (error) {
      throw openFailure(error, label);
    }
    const { status, headers: answered } = opened;
    if (status < 300) return openedStream(opened, record);
    const text = options.redact(await smallText(decodedBody(opened.body, answered['content-encoding'])));
    if (attempt === 0 && (file.spec.refetch_on ?? []).includes(status)) {
      record = await options.readRecord();
      continue;
    }
    if (status === 416) {
      throw new InvalidParamsError(`${label}: the file host cannot serve range ${headers.range ?? ''}`, {
        details: [{ path: '/range_header', message: `is not satisfiable (${single(answered['content-range']) ?? 'no content range'})` }],
        upstream: { status, message: text.slice(0, 200) },
      });
    }
    throw new UpstreamError(`${label}: the file host answered ${status}`, { upstream: { status, message: text.slice(0, 200) }, retryable: status >= 500 });
  }
}

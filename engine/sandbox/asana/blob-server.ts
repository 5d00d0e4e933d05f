/**
 * The fake's file host: a second loopback server (another origin, like S3) that serves attachment
 * bytes behind presigned URLs (API-NOTES B5), with Range support and S3's error answers.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { parseParamMap, type ParamMap } from '../param-map.js';
import { blobStream } from './blob-bytes.js';
import { DOWNLOAD_URL_TTL_SECONDS, type BlobUrlSigner, type UrlCheck } from './blob-url.js';
import { parseRange } from './byte-range.js';
import type { FakeClock } from '../fake-clock.js';
import {
  accessDenied,
  authorizationQueryParametersError,
  invalidRange,
  methodNotAllowed,
  noSuchKey,
  onlyOneAuthMechanism,
  requestExpired,
  signatureMismatch,
  type S3Error,
  unsupportedAuthorizationType,
} from './s3-errors.js';

/** A file the host can serve. */
export interface BlobFile {
  gid: string;
  name: string;
  size: number;
  contentType: string;
  /** ISO time; sent as Last-Modified. */
  createdAt: string;
}

/** One exchange of the file host, as logged (`fake.blobRequests`). */
export interface BlobRequest {
  method: string;
  /** Path as sent, without the query string. */
  path: string;
  query: ParamMap;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  status: number;
  /** Lower-case header names. */
  responseHeaders: Record<string, string>;
  /** Body bytes written: the file bytes of a 200/206, the XML of an error. */
  bytesSent: number;
  /** False when the client went away before the whole body was sent. */
  completed: boolean;
  /** S3's error code for refused requests (`AccessDenied`, `SignatureDoesNotMatch`, ...). */
  errorCode?: string;
}

/** The file host of one Asana fake. */
export class BlobServer {
  /** Every exchange, oldest first. */
  readonly requests: BlobRequest[] = [];
  /** How many more valid URLs to answer as expired (see {@link AsanaFake.expireNextDownloadUrls}). */
  expireNext = 0;
  private server: Server | undefined;
  private url: string | undefined;

  constructor(
    private readonly files: (gid: string) => BlobFile | undefined,
    private readonly signer: BlobUrlSigner,
    private readonly clock: FakeClock,
  ) {}

  /** Starts listening (port 0: a free port) and resolves to `http://host:port`. */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const address = server.address() as AddressInfo;
    this.url = `http://${host === '0.0.0.0' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${address.port}`;
    return this.url;
  }

  /** `http://host:port`; throws before {@link listen}. Why: download URLs are built on it. */
  get baseUrl(): string {
    if (!this.url) throw new Error('the Asana file host is not listening');
    return this.url;
  }

  /** Stops listening and drops open connections (streams in progress are cut). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://blob.invalid');
    const entry = this.record(req, url);
    req.resume();
    const gid = this.authorize(req, res, entry, url);
    if (gid === undefined) return;
    const file = this.files(gid);
    if (!file) return this.fail(res, entry, noSuchKey(entry.path.slice(1)), 'NoSuchKey');
    this.serve(req, res, entry, file);
  }

  /** Logs the request (path without query, parsed query, headers) for the tests to read. */
  private record(req: IncomingMessage, url: URL): BlobRequest {
    const target = req.url ?? '/';
    const queryStart = target.search(/[?#]/);
    const entry: BlobRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: queryStart < 0 ? target : target.slice(0, queryStart),
      query: parseParamMap(url.searchParams),
      headers: { ...req.headers },
      status: 0,
      responseHeaders: {},
      bytesSent: 0,
      completed: false,
    };
    this.requests.push(entry);
    return entry;
  }

  /**
   * The attachment gid of a GET/HEAD with a valid presigned URL and no Authorization header;
   * otherwise answers S3's error and returns undefined.
   */
  private authorize(req: IncomingMessage, res: ServerResponse, entry: BlobRequest, url: URL): string | undefined {
    if (entry.method !== 'GET' && entry.method !== 'HEAD') return this.refuse(res, entry, methodNotAllowed(entry.method), 'MethodNotAllowed');
    const authorization = headerText(req.headers['authorization']);
    const presigned = url.searchParams.has('X-Amz-Algorithm') || url.searchParams.has('X-Amz-Signature');
    if (authorization !== undefined) {
      if (presigned) return this.refuse(res, entry, onlyOneAuthMechanism(authorization), 'InvalidArgument');
      return this.refuse(res, entry, unsupportedAuthorizationType(), 'InvalidArgument');
    }
    const check = this.signer.verify(entry.path, url.searchParams);
    // A test switch: answer valid URLs as S3 answers expired ones, as if two minutes had passed.
    if (check.ok && this.expireNext > 0) {
      this.expireNext--;
      return this.refuse(res, entry, requestExpired(DOWNLOAD_URL_TTL_SECONDS, this.clock.now() - 1, this.clock.now()), 'AccessDenied');
    }
    if (!check.ok) {
      const [error, code] = this.refusal(check);
      return this.refuse(res, entry, error, code);
    }
    return check.gid;
  }

  /** Answers an S3 error; undefined so that {@link authorize} can return it. */
  private refuse(res: ServerResponse, entry: BlobRequest, error: S3Error, code: string): undefined {
    this.fail(res, entry, error, code);
    return undefined;
  }

  /** S3's error and code for a presigned URL that failed verification. */
  private refusal(check: Exclude<UrlCheck, { ok: true }>): [S3Error, string] {
    switch (check.code) {
      case 'missing':
        return [accessDenied(), 'AccessDenied'];
      case 'malformed':
        return [authorizationQueryParametersError(check.message), 'AuthorizationQueryParametersError'];
      case 'expired':
        return [requestExpired(check.expires, check.expiresAt, this.clock.now()), 'AccessDenied'];
      case 'signature':
        return [signatureMismatch(this.signer.accessKeyId, check.stringToSign, check.provided), 'SignatureDoesNotMatch'];
    }
  }

  /** Answers the whole file or the asked range (416 when unsatisfiable); HEAD gets headers only. */
  private serve(req: IncomingMessage, res: ServerResponse, entry: BlobRequest, file: BlobFile): void {
    const rangeHeader = headerText(req.headers['range']);
    const range = parseRange(rangeHeader, file.size);
    if (range.kind === 'unsatisfiable') {
      return this.fail(res, entry, invalidRange(rangeHeader ?? '', file.size), 'InvalidRange', { 'content-range': `bytes */${file.size}` });
    }
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : file.size - 1;
    const headers = fileHeaders(file, start, end);
    if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end}/${file.size}`;
    entry.status = range.kind === 'partial' ? 206 : 200;
    entry.responseHeaders = headers;
    res.writeHead(entry.status, headers);
    if (entry.method === 'HEAD' || file.size === 0) {
      res.end(() => {
        entry.completed = true;
      });
      return;
    }
    sendBytes(res, entry, file, start, end);
  }

  private fail(res: ServerResponse, entry: BlobRequest, error: S3Error, code: string, extra: Record<string, string> = {}): void {
    const payload = Buffer.from(error.body, 'utf8');
    const headers: Record<string, string> = {
      'content-type': 'application/xml',
      'content-length': String(payload.length),
      'x-amz-request-id': error.requestId,
      server: 'AmazonS3',
      ...extra,
    };
    entry.status = error.status;
    entry.responseHeaders = headers;
    entry.errorCode = code;
    res.writeHead(error.status, headers);
    if (entry.method === 'HEAD') {
      res.end();
      entry.completed = true;
      return;
    }
    entry.bytesSent = payload.length;
    res.end(payload, () => {
      entry.completed = true;
    });
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
function contentDisposition(name: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** S3's headers of a file answer for bytes `start`..`end` (a fresh request id each time). */
function fileHeaders(file: BlobFile, start: number, end: number): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
    'content-disposition': contentDisposition(file.name),
    etag: `"${createHash('md5').update(`${file.gid}:${file.size}`).digest('hex')}"`,
    'last-modified': new Date(file.createdAt).toUTCString(),
    'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase(),
    server: 'AmazonS3',
  };
}

/** Streams bytes `start`..`end`, counting what was sent and noting when the answer finished. */
function sendBytes(res: ServerResponse, entry: BlobRequest, file: BlobFile, start: number, end: number): void {
  const body = blobStream(file.gid, start, end);
  body.on('data', (chunk: Buffer) => {
    entry.bytesSent += chunk.length;
  });
  res.on('finish', () => {
    entry.completed = true;
  });
  // pipeline honours backpressure and destroys the generator when the client goes away.
  pipeline(body, res, () => undefined);
}

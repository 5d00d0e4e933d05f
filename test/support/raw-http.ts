import { connect } from 'node:net';

/** One HTTP/1.1 request written byte for byte: nothing is checked or escaped on the way. */
export interface RawHttpRequest {
  method: string;
  /** The request target exactly as sent (may hold bad percent-encoding, control bytes, 20 KB). */
  target: string;
  headers?: Array<[string, string]>;
  body?: Buffer | string;
  /** Content-Length to declare: the body's length by default, a wrong number, or 'omit'. */
  contentLength?: number | 'omit';
  /** Replaces the whole request with these bytes (a malformed request line, garbage). */
  bytes?: Buffer;
}

/** What came back, or status 0 when the server closed the socket without an answer. */
export interface RawHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Milliseconds from the first byte written to the socket's end. */
  ms: number;
}

/** The bytes of a request: request line, headers (Host and Connection: close first), body. */
export function requestBytes(host: string, request: RawHttpRequest): Buffer {
  if (request.bytes) return request.bytes;
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `host: ${host}`, 'connection: close'];
  for (const [name, value] of request.headers ?? []) lines.push(`${name}: ${value}`);
  const declared = request.contentLength ?? body?.length;
  if (declared !== undefined && declared !== 'omit') lines.push(`content-length: ${declared}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body ?? Buffer.alloc(0)]);
}

/**
 * Sends one request on a fresh socket and reads until the server closes it (the request says
 * `connection: close`), so malformed requests that no HTTP client would send can be tried, and
 * an answer Node's parser writes by hand is read as it is.
 */
export function sendRaw(url: string, request: RawHttpRequest, timeoutMs = 15_000): Promise<RawHttpAnswer> {
  const { hostname, port, host } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.target.slice(0, 80)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (the server closed with our unread bytes in its buffer) still leaves the answer.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve({ ...parseAnswer(Buffer.concat(chunks)), ms: performance.now() - started });
      } catch (error) {
        reject(error);
      }
    });
    // Written without a FIN: Node's server aborts a request whose client half-closes (httpAllowHalfOpen is off).
    socket.on('connect', () => socket.write(requestBytes(host, request)));
  });
}

function parseAnswer(raw: Buffer): Omit<RawHttpAnswer, 'ms'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: raw };
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(end + 4);
  return { status, headers, body: headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** What a raw request answered, body unparsed. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request on a fresh socket with node:http, no client library in between, so fake tests see
 * exactly what the fake sent (resets and cut-off bodies reject instead of being retried).
 */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('aborted', () => reject(new Error('response aborted')));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** How much of a body arrived, against what its Content-Length promised. */
export interface CutAnswer {
  status: number;
  declared: number;
  received: number;
}

/**
 * Reads a body the server may cut off (the fakes' `truncateNext`), resolving instead of rejecting
 * when the socket dies, so a test can compare what arrived with what was declared.
 */
export function readCutBody(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<CutAnswer> {
  return new Promise((resolve) => {
    const answer: CutAnswer = { status: 0, declared: 0, received: 0 };
    const done = () => resolve(answer);
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      answer.status = res.statusCode ?? 0;
      answer.declared = Number(res.headers['content-length']);
      res.on('data', (chunk: Buffer) => (answer.received += chunk.length));
      res.on('aborted', done);
      res.on('error', done);
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', done);
    req.end(init.body);
  });
}

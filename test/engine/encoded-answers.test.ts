/**
 * The engine asks upstreams for compressed answers (Accept-Encoding: gzip, deflate, br) and reads
 * each as its Content-Encoding says: an upstream that compresses answers the same records as one
 * that does not.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, type ListResult } from '../../engine/index.js';

const RECORD = {
  id: '1001',
  properties: { email: 'ada@example.com', firstname: 'Ada', lastname: 'Lovelace 美咲' },
  createdAt: '2023-01-01T11:18:32.857Z',
  updatedAt: '2023-02-17T03:26:19.146Z',
  archived: false,
};
const BODY = Buffer.from(JSON.stringify({ results: [RECORD] }));
const ENCODERS: Record<string, (body: Buffer) => Buffer> = {
  identity: (body) => body,
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  // Answers in the encoding the test names in the first path segment of its base URL.
  server = createServer((request, response) => {
    const encoding = request.url!.split('/')[1]!;
    response.writeHead(200, { 'content-type': 'application/json', ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }) });
    response.end(ENCODERS[encoding]!(BODY));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test.each(Object.keys(ENCODERS))('an answer with Content-Encoding %s gives the records', async (encoding) => {
  const connection = connect('hubspot', { credentials: { access_token: 'encoded-answers-token' }, baseUrl: `${baseUrl}/${encoding}` });
  const result = (await connection.execute('contacts', 'list', { limit: 1 })) as ListResult;
  expect(result.data).toEqual([expect.objectContaining(RECORD)]);
});

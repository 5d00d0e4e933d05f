import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DownloadStream } from '../runtime/index.js';

/** Streams a downloaded file through, with the file host's status (200 or 206) and headers. */
export function sendFile(reply: FastifyReply, file: DownloadStream): FastifyReply {
  reply.code(file.status);
  reply.header('content-type', file.contentType ?? 'application/octet-stream');
  if (file.contentLength !== undefined) reply.header('content-length', String(file.contentLength));
  if (file.contentRange) reply.header('content-range', file.contentRange);
  reply.header('accept-ranges', 'bytes');
  const stream = Readable.from(file);
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) file.cancel();
  });
  return reply.send(stream);
}

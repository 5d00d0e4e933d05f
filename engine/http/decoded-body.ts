import { pipeline, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliDecompress, createBrotliDecompress, createGunzip, createInflate, gunzip, inflate, type Gunzip } from 'node:zlib';

/** What API requests accept: the encodings got asked for and decoded, kept when moving to undici. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

function decoderFor(encoding: string | string[] | undefined): Gunzip | undefined {
  const name = typeof encoding === 'string' ? encoding.trim().toLowerCase() : '';
  if (name === '' || name === 'identity') return undefined;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  return undefined;
}

function ignore(): void {}

/**
 * The body decoded as its Content-Encoding says (gzip, deflate, br), or the body itself. Why:
 * undici, unlike got, hands over the bytes as sent; a failure of either stream ends the result with it.
 */
export function decodedBody(body: Readable, encoding: string | string[] | undefined): Readable {
  const decoder = decoderFor(encoding);
  return decoder ? pipeline(body, decoder, ignore) : body;
}

const decoders = { gzip: promisify(gunzip), deflate: promisify(inflate), br: promisify(brotliDecompress) };

/** The decoder of a Content-Encoding the engine accepts, or undefined for the bytes as they are. */
function bufferDecoderFor(encoding: string | string[] | undefined): ((bytes: Buffer) => Promise<Buffer>) | undefined {
  const name = typeof encoding === 'string' ? encoding.trim().toLowerCase() : '';
  if (name === 'gzip' || name === 'x-gzip') return decoders.gzip;
  if (name === 'deflate') return decoders.deflate;
  if (name === 'br') return decoders.br;
  return undefined;
}

/**
 * A whole answer body as UTF-8 text, decoded first as its Content-Encoding says (in the thread
 * pool: the event loop never inflates). A plain body is read at once, as undici's text() reads it
 * (a leading UTF-8 byte order mark left out); a decoded one as Node decodes a buffer.
 */
export function bodyText(bytes: Buffer, encoding: string | string[] | undefined): string | Promise<string> {
  const decode = bufferDecoderFor(encoding);
  if (decode) return decode(bytes).then((decoded) => decoded.toString('utf8'));
  const start = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}

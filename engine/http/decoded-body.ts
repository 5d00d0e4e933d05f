import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';

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

/**
 * Reads a whole answer body as UTF-8 text, decoded first when it is encoded. Not async itself:
 * a plain body (the usual case) is undici's own text(), with no promise around it.
 */
export function bodyText(body: Readable & { text(): Promise<string> }, encoding: string | string[] | undefined): Promise<string> {
  const decoder = decoderFor(encoding);
  return decoder === undefined ? body.text() : decodedText(pipeline(body, decoder, ignore));
}

async function decodedText(decoded: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of decoded) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

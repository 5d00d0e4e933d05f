/**
 * The content of the fake's files: a deterministic function of (attachment gid, byte offset),
 * generated on demand so that even the 200 MiB file is never held in memory.
 */
import { createCipheriv, createHash, type Cipher } from 'node:crypto';
import { Readable } from 'node:stream';

/** Bytes generated per chunk when streaming (also the largest piece pushed at once). */
export const BLOB_CHUNK_SIZE = 64 * 1024;
const AES_BLOCK = 16;
/** Plaintext for the keystream; one AES block longer than a chunk for the unaligned first chunk. */
const ZEROS = Buffer.alloc(BLOB_CHUNK_SIZE + AES_BLOCK);

/**
 * An AES-128-CTR keystream keyed by the gid, positioned at `offset`: byte `i` of a file is byte
 * `i` of its keystream, so any range can be produced without generating what precedes it.
 */
function keystreamAt(gid: string, offset: number): { cipher: Cipher; skip: number } {
  const key = createHash('sha256').update(`asana-fake-blob:${gid}`).digest().subarray(0, 16);
  const block = Math.floor(offset / AES_BLOCK);
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(Math.floor(block / 2 ** 32), 8);
  iv.writeUInt32BE(block % 2 ** 32, 12);
  return { cipher: createCipheriv('aes-128-ctr', key, iv), skip: offset % AES_BLOCK };
}

/**
 * Bytes `start..endInclusive` of a file, in memory. For small ranges only (tests).
 * Why: tests compare what a client downloaded with what the file host must have sent.
 */
export function expectedBlobBytes(gid: string, start: number, endInclusive: number): Buffer {
  if (!Number.isInteger(start) || !Number.isInteger(endInclusive) || start < 0 || endInclusive < start - 1) {
    throw new RangeError(`invalid byte range ${start}-${endInclusive}`);
  }
  const length = endInclusive - start + 1;
  if (length > 64 * 1024 * 1024) throw new RangeError('expectedBlobBytes is for ranges up to 64 MiB; use blobSha256 for whole large files');
  const { cipher, skip } = keystreamAt(gid, start);
  return cipher.update(Buffer.alloc(length + skip)).subarray(skip);
}

/**
 * SHA-256 (hex) of a whole file of `size` bytes, computed chunk by chunk.
 * Why: tests verify a full download (200 MiB included) without keeping a copy of it.
 */
export function blobSha256(gid: string, size: number): string {
  const hash = createHash('sha256');
  const { cipher } = keystreamAt(gid, 0);
  let left = size;
  while (left > 0) {
    const take = Math.min(left, BLOB_CHUNK_SIZE);
    hash.update(cipher.update(ZEROS.subarray(0, take)));
    left -= take;
  }
  return hash.digest('hex');
}

/**
 * A readable stream of bytes `start..endInclusive` of a file, produced chunk by chunk only when the
 * consumer asks for more (backpressure: a slow client never makes the server buffer the file).
 * Why: the file host serves up to 200 MiB per response (B5) from a fake that must stay small.
 */
export function blobStream(gid: string, start: number, endInclusive: number): Readable {
  const { cipher, skip } = keystreamAt(gid, start);
  let position = start;
  // Only the first chunk starts inside an AES block; after it the keystream is in step with `position`.
  let pendingSkip = skip;
  return new Readable({
    highWaterMark: BLOB_CHUNK_SIZE,
    read() {
      if (position > endInclusive) {
        this.push(null);
        return;
      }
      const take = Math.min(BLOB_CHUNK_SIZE, endInclusive - position + 1);
      let chunk = cipher.update(ZEROS.subarray(0, take + pendingSkip));
      if (pendingSkip > 0) chunk = chunk.subarray(pendingSkip);
      pendingSkip = 0;
      position += take;
      this.push(chunk);
    },
  });
}

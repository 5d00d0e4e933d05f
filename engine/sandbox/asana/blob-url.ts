/**
 * Presigned URLs of the fake's file host, in the shape of S3 query-string auth (SigV4 parameter
 * names), signed with an HMAC so that altered or forged URLs fail (API-NOTES B5).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createPrng } from '../prng.js';
import type { FakeClock } from '../fake-clock.js';

/** B5 [spec]: `download_url` "may only be valid for two minutes from the time of retrieval". */
export const DOWNLOAD_URL_TTL_SECONDS = 120;
/** The bucket-like first path segment of every file URL. */
export const BLOB_PREFIX = '/asana-user-private';

/** Why a presigned URL was refused, in S3's terms. */
export type UrlCheck =
  | { ok: true; gid: string }
  | { ok: false; code: 'missing' }
  | { ok: false; code: 'expired'; expiresAt: number; expires: number }
  | { ok: false; code: 'signature'; stringToSign: string; provided: string }
  | { ok: false; code: 'malformed'; message: string };

/** Signs and checks file URLs with a secret derived from the sandbox seed. */
export class BlobUrlSigner {
  /** Looks like an AWS access key id; part of `X-Amz-Credential`. */
  readonly accessKeyId: string;
  private readonly secret: string;

  constructor(
    seed: number,
    private readonly clock: FakeClock,
    private readonly ttlSeconds: number = DOWNLOAD_URL_TTL_SECONDS,
  ) {
    const rng = createPrng(seed ^ 0x5b10b5);
    this.accessKeyId = `AKIA${rng.hex(16).toUpperCase()}`;
    this.secret = rng.hex(64);
  }

  /**
   * A URL for a file, valid for two minutes of the fake clock from now.
   * Why: every read of an attachment record mints a fresh one (B5: "refresh it on demand").
   */
  sign(baseUrl: string, gid: string, name: string): string {
    const path = `${BLOB_PREFIX}/${encodeURIComponent(gid)}/${encodeURIComponent(name)}`;
    const now = new Date(this.clock.now());
    const amzDate = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const credential = `${this.accessKeyId}/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request`;
    const params = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': credential,
      'X-Amz-Date': amzDate,
      'X-Amz-Expires': String(this.ttlSeconds),
      'X-Amz-SignedHeaders': 'host',
    });
    params.set('X-Amz-Signature', this.signature(path, credential, amzDate, String(this.ttlSeconds)));
    return `${baseUrl}${path}?${params.toString()}`;
  }

  /**
   * Checks a request's path and query: signature parameters present, not expired (against the fake
   * clock), signature matching. The path is compared in canonical percent-encoding.
   * Why: the file host must refuse stale, altered and unsigned URLs as S3 does.
   */
  verify(rawPath: string, query: URLSearchParams): UrlCheck {
    const signature = query.get('X-Amz-Signature');
    const amzDate = query.get('X-Amz-Date');
    const expires = query.get('X-Amz-Expires');
    const credential = query.get('X-Amz-Credential');
    if (!signature || !amzDate || !expires || !credential || query.get('X-Amz-Algorithm') === null) return { ok: false, code: 'missing' };
    const dateMatch = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (!dateMatch || !/^\d{1,6}$/.test(expires)) return { ok: false, code: 'malformed', message: 'X-Amz-Date or X-Amz-Expires is malformed' };
    const [, y, mo, d, h, mi, s] = dateMatch;
    const signedAt = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    const expiresAt = signedAt + Number(expires) * 1000;
    if (this.clock.now() > expiresAt) return { ok: false, code: 'expired', expiresAt, expires: Number(expires) };
    const path = canonicalPath(rawPath);
    if (path === undefined) return { ok: false, code: 'malformed', message: 'the path is not valid percent-encoding' };
    const stringToSign = [path, credential, amzDate, expires].join('\n');
    const expected = this.signature(path, credential, amzDate, expires);
    const provided = Buffer.from(signature, 'utf8');
    const wanted = Buffer.from(expected, 'utf8');
    if (provided.length !== wanted.length || !timingSafeEqual(provided, wanted)) {
      return { ok: false, code: 'signature', stringToSign, provided: signature };
    }
    const segments = path.split('/');
    return { ok: true, gid: decodeURIComponent(segments[2] ?? '') };
  }

  private signature(path: string, credential: string, amzDate: string, expires: string): string {
    return createHmac('sha256', this.secret).update([path, credential, amzDate, expires].join('\n')).digest('hex');
  }
}

/** The path with every segment percent-encoded the way {@link BlobUrlSigner.sign} encodes it. */
function canonicalPath(rawPath: string): string | undefined {
  try {
    return rawPath
      .split('/')
      .map((segment) => encodeURIComponent(decodeURIComponent(segment)))
      .join('/');
  } catch {
    return undefined;
  }
}

/**
 * The file host's error answers, as S3 words them (XML `<Error>` documents).
 */
import { randomBytes } from 'node:crypto';

/** An error response of the file host. */
export interface S3Error {
  status: number;
  body: string;
  requestId: string;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function errorDocument(status: number, code: string, message: string, details: Array<[string, string]> = []): S3Error {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const hostId = randomBytes(48).toString('base64');
  const extra = details.map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`).join('');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message>${extra}<RequestId>${requestId}</RequestId><HostId>${hostId}</HostId></Error>`;
  return { status, body, requestId };
}

/** 403 for an expired presigned URL: S3's real `AccessDenied` "Request has expired". */
export function requestExpired(expires: number, expiresAt: number, now: number): S3Error {
  return errorDocument(403, 'AccessDenied', 'Request has expired', [
    ['X-Amz-Expires', String(expires)],
    ['Expires', new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z')],
    ['ServerTime', new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z')],
  ]);
}

/** 403 for a URL whose signature does not match (forged or altered). */
export function signatureMismatch(accessKeyId: string, stringToSign: string, provided: string): S3Error {
  return errorDocument(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    [
      ['AWSAccessKeyId', accessKeyId],
      ['StringToSign', stringToSign],
      ['SignatureProvided', provided],
    ],
  );
}

/** 403 for a request without query-string auth: S3's answer for a private object. */
export function accessDenied(): S3Error {
  return errorDocument(403, 'AccessDenied', 'Access Denied');
}

/** 400 for a presigned URL with malformed auth parameters. */
export function authorizationQueryParametersError(message: string): S3Error {
  return errorDocument(400, 'AuthorizationQueryParametersError', message);
}

/**
 * 400 when a request carries an `Authorization` header as well as a presigned query: S3 allows one
 * auth mechanism per request, so a client that sends its Asana token to the file host fails here.
 */
export function onlyOneAuthMechanism(authorization: string): S3Error {
  return errorDocument(
    400,
    'InvalidArgument',
    'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
    [
      ['ArgumentName', 'Authorization'],
      ['ArgumentValue', authorization],
    ],
  );
}

/** 400 for an `Authorization` header S3 cannot parse (a bearer token, say) on an unsigned URL. */
export function unsupportedAuthorizationType(): S3Error {
  return errorDocument(400, 'InvalidArgument', 'Unsupported Authorization Type', [['ArgumentName', 'Authorization']]);
}

/** 404 for a key that does not exist. */
export function noSuchKey(key: string): S3Error {
  return errorDocument(404, 'NoSuchKey', 'The specified key does not exist.', [['Key', key]]);
}

/** 416 for a range that starts past the end of the object. */
export function invalidRange(rangeRequested: string, size: number): S3Error {
  return errorDocument(416, 'InvalidRange', 'The requested range is not satisfiable', [
    ['RangeRequested', rangeRequested],
    ['ActualObjectSize', String(size)],
  ]);
}

/** 405 for methods other than GET and HEAD. */
export function methodNotAllowed(method: string): S3Error {
  return errorDocument(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', [
    ['Method', method],
    ['ResourceType', 'OBJECT'],
  ]);
}

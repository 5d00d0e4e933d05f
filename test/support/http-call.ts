/**
 * The one HTTP request helper of the tests: a request with fetch over loopback, to the hosted
 * service or to a fake, answering status, headers, text and the body parsed when it is JSON.
 * Tests that must see exact bytes, resets or cut-off bodies use raw-request.ts or raw-http.ts.
 */

/** What one request answered. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON; the text itself when it is not JSON; undefined when it is empty. */
  body: any;
}

/** How to send one request; at most one of `json`, `raw` and `form` is given. */
export interface HttpInit {
  /** Default GET, or POST when a body is sent. */
  method?: string;
  /** Sent as `Authorization: Bearer <token>`; null, empty or absent sends none. */
  token?: string | null;
  /** Sent as JSON text, as application/json. */
  json?: unknown;
  /** Sent as is: with `contentType` when given, else with the type fetch gives a string. */
  raw?: string;
  /** Sent URL-encoded, as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** The content type, in place of the one the body would get. */
  contentType?: string;
  /** Sent last, so they win over the headers above. */
  headers?: Record<string, string>;
  /** 'manual' answers a redirect itself (its Location readable) instead of following it. */
  redirect?: 'follow' | 'manual';
}

/** What a call to the hosted API sends: `body` as JSON, or `raw` as is; either as application/json. */
export interface ServiceCallOptions {
  token?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** The body text of a request and the content type it gets by its kind. */
function requestBody(init: HttpInit): { text?: string; type?: string } {
  if (init.json !== undefined) return { text: JSON.stringify(init.json), type: 'application/json' };
  if (init.form) return { text: new URLSearchParams(init.form).toString(), type: 'application/x-www-form-urlencoded' };
  return init.raw !== undefined ? { text: init.raw } : {};
}

/** The JSON a text holds, or the text when it is not JSON (error pages, metrics, files), so a test can assert either. */
function parseBody(text: string): any {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Sends one request to `url` and reads the whole answer: the shared transport of every test that
 * speaks HTTP to the hosted service or to a fake, so they all send and parse alike.
 */
export async function httpCall(url: string, init: HttpInit = {}): Promise<HttpAnswer> {
  const body = requestBody(init);
  const type = init.contentType ?? body.type;
  const headers: Record<string, string> = {
    ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    ...(type !== undefined ? { 'content-type': type } : {}),
    ...init.headers,
  };
  const response = await fetch(url, {
    method: init.method ?? (body.text === undefined ? 'GET' : 'POST'),
    headers,
    body: body.text,
    redirect: init.redirect ?? 'follow',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseBody(text) };
}

/**
 * One call to the hosted API at `target` (its URL, or a service or harness with a `url`), as its
 * clients make them: JSON in, JSON out, a platform or user token as bearer.
 */
export function call(target: string | { url: string }, method: string, path: string, options: ServiceCallOptions = {}): Promise<HttpAnswer> {
  const base = typeof target === 'string' ? target : target.url;
  const sent = options.body !== undefined || options.raw !== undefined;
  return httpCall(base + path, {
    method,
    token: options.token,
    json: options.body,
    raw: options.raw,
    contentType: sent ? 'application/json' : undefined,
    headers: options.headers,
  });
}

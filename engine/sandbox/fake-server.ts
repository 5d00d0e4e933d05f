/**
 * The HTTP plumbing every fake upstream reuses: routing, body decoding, the request log, fault
 * switches and a loopback listener (node:http only).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultSwitches, type Faults, type PreemptiveFault } from './faults.js';
import { parseParamMap, type ParamMap } from './param-map.js';
import { decodeRequestBody, readRequestBody } from './request-body.js';
import { encodeResponse, jsonResponse, textResponse, type EncodedResponse, type FakeResponse } from './responses.js';
import { Router, type RouteKind, type RouteMatch } from './router.js';

/** A request as a handler sees it. */
export interface FakeRequest {
  method: string;
  /** Path as sent, without the query string, still percent-encoded. */
  path: string;
  url: URL;
  query: ParamMap;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  /** Decoded body: JSON value, form map, raw text, or undefined when empty. */
  body: unknown;
  /** Set when the body claimed JSON but did not parse. */
  bodyParseError?: string;
  rawBody: Buffer;
  /** Path parameters of the matched route (decoded). */
  params: Record<string, string>;
  /** A fresh UUID per request; fakes use it as their correlation/request id. */
  requestId: string;
  /** `http://host:port` of this fake. */
  baseUrl: string;
}

/** A route handler. */
export type FakeHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

/** Which fault, if any, shaped a logged exchange. */
export type FaultKind = 'reset' | 'rate-limit' | 'fail' | 'truncate';

/** A response as logged. */
export interface RecordedResponse {
  /** 0 when the connection was reset without a response. */
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[]>;
  /** Parsed JSON when the Content-Type is JSON, otherwise the raw text ('' when empty). */
  body: unknown;
}

/** One exchange in a fake's request log. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: ParamMap;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, form map, or raw string; undefined when empty. */
  body: unknown;
  /** For `truncate`, the full response the fake meant to send; for `reset`, status 0. */
  response: RecordedResponse;
  /** Set when a fault switch produced or altered the response. */
  fault?: FaultKind;
  /** The route pattern that served the request, if any. */
  route?: string;
}

/** Per-upstream shaping of the answers the plumbing produces itself. */
export interface FakeServerHooks {
  /** Adds upstream headers to every response (e.g. a correlation id). */
  decorate?(req: FakeRequest, response: FakeResponse): FakeResponse;
  /** The upstream's 5xx body for `failNext` without an explicit body, and for handler crashes. */
  serverError?(req: FakeRequest, status: number): FakeResponse;
  /** The upstream's real 429 (body and headers) for `rateLimitNext`. */
  rateLimited?(req: FakeRequest, retryAfter: string | undefined): FakeResponse;
  /** Answer for a path no route knows. */
  notFound?(req: FakeRequest): FakeResponse;
  /** Answer for a known path under a method it does not serve. */
  methodNotAllowed?(req: FakeRequest, allowedMethods: string[]): FakeResponse;
  /**
   * Admits a routed request before latency, faults and the handler run: `reject` answers at once
   * (e.g. a concurrency-cap 429); `release` is called once the exchange is over (answered or reset).
   * Why: concurrency caps (Asana: 50 in-flight reads per token, API-NOTES B7) must count requests
   * for as long as the server holds them, injected latency included.
   */
  admit?(req: FakeRequest, kind: RouteKind): Admission | undefined;
}

/** The outcome of {@link FakeServerHooks.admit}. */
export type Admission = { reject: FakeResponse } | { release: () => void };

/** How many requests reached routes of each kind (and none). */
export interface RequestCounts {
  api: number;
  auth: number;
  /** OAuth authorize pages (consent, decision). */
  consent: number;
  unrouted: number;
}

/**
 * One fake upstream listening on a loopback port.
 * Handlers return values instead of writing to the socket, so that the log always holds exactly
 * what was answered and the fault switches can replace or damage any answer.
 */
/** Request counters: token-endpoint calls and API calls (any outcome, faults included). */
export interface FakeStats {
  readonly tokenRequests: number;
  readonly apiRequests: number;
}

export class FakeServer {
  /** Every exchange, oldest first. */
  readonly requests: RecordedRequest[] = [];
  readonly faults: Faults;
  readonly counts: RequestCounts = { api: 0, auth: 0, consent: 0, unrouted: 0 };
  /** The counters every fake exposes to tests as `stats` (live views of `counts`). */
  readonly stats: FakeStats = Object.defineProperties({} as FakeStats, {
    tokenRequests: { get: () => this.counts.auth, enumerable: true },
    apiRequests: { get: () => this.counts.api, enumerable: true },
  });

  /** Zeroes the request counters (tests that measure one step). */
  resetStats(): void {
    this.counts.api = 0;
    this.counts.auth = 0;
    this.counts.consent = 0;
    this.counts.unrouted = 0;
  }
  private readonly switches = new FaultSwitches();
  private readonly router = new Router<FakeHandler>();
  private server: Server | undefined;
  private url: string | undefined;

  constructor(
    readonly name: string,
    private readonly hooks: FakeServerHooks = {},
  ) {
    this.faults = this.switches;
  }

  /**
   * Registers a route. `kind: 'auth'` marks OAuth token endpoints and `consent` OAuth authorize
   * pages, which faults skip by default.
   * Why: each fake lists its upstream's operations as a table of routes.
   */
  route(method: string, pattern: string, handler: FakeHandler, kind: RouteKind = 'api'): void {
    this.router.add(method, pattern, handler, kind);
  }

  /**
   * Starts listening; port 0 picks a free port. Resolves to the base URL.
   * Why: the sandbox starts each fake on its own loopback port (DESIGN.md §8).
   */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    if (this.server) throw new Error(`${this.name} fake is already listening`);
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain;charset=utf-8' });
          res.end(`fake ${this.name} failed: ${(error as Error).message}`);
        } else {
          res.destroy();
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const address = server.address() as AddressInfo;
    this.url = `http://${urlHost(host)}:${address.port}`;
    return this.url;
  }

  /** `http://host:port`; throws before {@link listen}. Why: fakes build absolute links from it. */
  get baseUrl(): string {
    if (!this.url) throw new Error(`${this.name} fake is not listening`);
    return this.url;
  }

  /** Empties the request log. Why: tests assert on the exchanges of one step only. */
  clearRequests(): void {
    this.requests.length = 0;
  }

  /**
   * Stops listening and drops open (keep-alive) connections.
   * Why: test runs and the CLI must exit promptly without waiting for idle sockets.
   */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fakeReq = await this.readRequest(req);
    const lookup = this.router.lookup(fakeReq.method, fakeReq.path);
    const admitted: { release?: () => void } = {};
    try {
      const outcome = lookup.found ? await this.routed(fakeReq, lookup.match, admitted, res) : this.unrouted(fakeReq, lookup.allowedMethods);
      if (outcome === 'reset') return destroySocket(req);
      this.send(res, fakeReq, outcome);
    } finally {
      admitted.release?.();
    }
  }

  /** The request as handlers see it: raw path, parsed query, decoded body, a fresh request id. */
  private async readRequest(req: IncomingMessage): Promise<FakeRequest> {
    const baseUrl = this.baseUrl;
    const url = new URL(req.url ?? '/', baseUrl);
    const raw = await readRequestBody(req);
    const contentType = headerText(req.headers['content-type']);
    const decoded = decodeRequestBody(raw, contentType);
    return {
      method: (req.method ?? 'GET').toUpperCase(),
      path: rawPath(req.url, url),
      url,
      query: parseParamMap(url.searchParams),
      headers: { ...req.headers },
      body: decoded.value,
      rawBody: raw,
      params: {},
      requestId: randomUUID(),
      baseUrl,
      ...(decoded.parseError !== undefined ? { bodyParseError: decoded.parseError } : {}),
    };
  }

  /**
   * Answers a routed request: the admission hook may refuse it (or hand back a release, kept in
   * `admitted`); otherwise the fault switches apply (delay, hold, reset, rate limit, failure,
   * truncation) before the handler runs. 'reset' when the connection is to be cut (already logged).
   */
  private async routed(
    fakeReq: FakeRequest,
    match: RouteMatch<FakeHandler>,
    admitted: { release?: () => void },
    res: ServerResponse,
  ): Promise<Outcome | 'reset'> {
    const route = match.pattern;
    fakeReq.params = match.params;
    this.counts[match.kind] += 1;
    const admission = this.hooks.admit?.(fakeReq, match.kind);
    if (admission !== undefined && 'release' in admission) admitted.release = admission.release;
    if (admission !== undefined && 'reject' in admission && admission.reject) return { response: admission.reject, fault: undefined, truncate: false, route };
    const delay = this.switches.delayFor(match.kind);
    if (delay > 0) await sleep(delay);
    await this.switches.waitIfHeld(match.kind, fakeReq.path, res);
    const preemptive = this.switches.takePreemptive(match.kind);
    if (preemptive?.kind === 'reset') {
      this.record(fakeReq, { status: 0, headers: {}, body: '' }, 'reset', route);
      return 'reset';
    }
    const outcome: Outcome = preemptive
      ? { response: this.faultResponse(fakeReq, preemptive), fault: preemptive.kind, truncate: false, route }
      : { response: await this.runHandler(match.handler, fakeReq), fault: undefined, truncate: false, route };
    if (this.switches.takeTruncation(match.kind)) return { ...outcome, truncate: true, fault: 'truncate' };
    return outcome;
  }

  /** The answer of an injected rate limit or failure (the fake's own error body unless one was given). */
  private faultResponse(fakeReq: FakeRequest, fault: Exclude<PreemptiveFault, { kind: 'reset' }>): FakeResponse {
    if (fault.kind === 'rate-limit') return this.hooks.rateLimited?.(fakeReq, fault.retryAfter) ?? defaultRateLimited(fault.retryAfter);
    if (fault.body === undefined) return this.hooks.serverError?.(fakeReq, fault.status) ?? defaultServerError(fault.status);
    return typeof fault.body === 'string' ? textResponse(fault.status, fault.body) : jsonResponse(fault.status, fault.body);
  }

  /** 405 naming the allowed methods when the path exists, else 404 (in the fake's own shape when it has one). */
  private unrouted(fakeReq: FakeRequest, allowedMethods: string[]): Outcome {
    this.counts.unrouted += 1;
    const response =
      allowedMethods.length > 0
        ? (this.hooks.methodNotAllowed?.(fakeReq, allowedMethods) ??
          jsonResponse(405, { message: `${fakeReq.method} is not allowed on ${fakeReq.path}` }, { allow: allowedMethods.join(', ') }))
        : (this.hooks.notFound?.(fakeReq) ?? jsonResponse(404, { message: `no route for ${fakeReq.method} ${fakeReq.path}` }));
    return { response, fault: undefined, truncate: false, route: undefined };
  }

  /** Decorates, logs and writes the answer (cut short when a truncation fault was taken). */
  private send(res: ServerResponse, fakeReq: FakeRequest, outcome: Outcome): void {
    const response = this.hooks.decorate ? this.hooks.decorate(fakeReq, outcome.response) : outcome.response;
    const encoded = encodeResponse(response);
    this.record(fakeReq, { status: encoded.status, headers: encoded.headers, body: encoded.recordedBody }, outcome.fault, outcome.route);
    if (outcome.truncate) sendTruncated(res, encoded);
    else {
      res.writeHead(encoded.status, encoded.headers);
      res.end(encoded.payload);
    }
  }

  private async runHandler(handler: FakeHandler, req: FakeRequest): Promise<FakeResponse> {
    try {
      return await handler(req);
    } catch (error) {
      const response = this.hooks.serverError?.(req, 500) ?? defaultServerError(500);
      return { ...response, headers: { ...response.headers, 'x-fake-error': String((error as Error).message).slice(0, 200) } };
    }
  }

  private record(req: FakeRequest, response: RecordedResponse, fault: FaultKind | undefined, route: string | undefined): void {
    this.requests.push({
      method: req.method,
      path: req.path,
      query: req.query,
      headers: req.headers,
      body: req.body,
      response,
      ...(fault ? { fault } : {}),
      ...(route ? { route } : {}),
    });
  }
}

/** What a request is answered with, and how the log names it. */
interface Outcome {
  response: FakeResponse;
  fault: FaultKind | undefined;
  truncate: boolean;
  route: string | undefined;
}

/** The path exactly as the client sent it (no dot-segment or percent normalisation), so the log shows what was sent. */
function rawPath(target: string | undefined, url: URL): string {
  if (!target || !target.startsWith('/')) return url.pathname;
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function destroySocket(req: IncomingMessage): void {
  const socket = req.socket as typeof req.socket & { resetAndDestroy?: () => void };
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function sendTruncated(res: ServerResponse, encoded: EncodedResponse): void {
  res.writeHead(encoded.status, encoded.headers);
  const half = encoded.payload.subarray(0, Math.floor(encoded.payload.length / 2));
  res.write(half, () => res.socket?.destroy());
}

function defaultServerError(status: number): FakeResponse {
  return jsonResponse(status, { message: 'internal error' });
}

function defaultRateLimited(retryAfter: string | undefined): FakeResponse {
  return jsonResponse(429, { message: 'rate limited' }, retryAfter !== undefined ? { 'retry-after': retryAfter } : {});
}

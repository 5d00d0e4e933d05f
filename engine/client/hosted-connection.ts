import { systemClock, type Clock } from '../clock/index.js';
import type { IncomingMessage } from 'node:http';
import got, { type Request } from 'got';
import {
  AmbiguousConnectorError,
  ConnectorNotFoundError,
  EngineError,
  InvalidParamsError,
  InvalidRequestError,
  PaginationLoopError,
  UnsupportedActionError,
  UpstreamError,
  errorFor,
  isErrorCode,
} from '../errors.js';
import {
  DownloadStream,
  PageLoopGuard,
  checkCallOptions,
  unpageableReason,
  type CallOptionRules,
  type ExecuteResult,
  type PagedOrder,
  type RecordData,
} from '../runtime/index.js';
import type { SearchResult } from '../search/index.js';
import type { SyncState } from '../store/index.js';
import { cancelledBy, untilCancelled } from './cancel.js';

/** Where and as whom the hosted client talks to the service. */
export interface HostedOptions {
  baseUrl: string;
  externalUserId: string;
  clientId: string;
  clientSecret: string;
  /**
   * The connector to use (its `id`). Without it the client uses the user's only connector of the
   * type, and refuses with AMBIGUOUS_CONNECTOR (listing them) when the user holds several.
   */
  connectorId?: string;
  /** Where the scoped token's renewal time is read (default: real time). */
  clock?: Clock;
}

/** The fields of a listed connector the client reads to pick one. */
interface ConnectorSummary {
  id: string;
  connector_type: string;
  name: string | null;
  created_at: string;
}

interface ConnectorTypeInfo {
  type: string;
  entities: Record<string, { actions: Record<string, { pagination_param: string | null; pagination_keep_params: string[] | null; paged_order?: PagedOrder }> }>;
}

/** Rebuilds the engine's typed error from the service's error body, so callers catch the same classes. */
function errorFromBody(status: number, body: unknown): EngineError {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || !isErrorCode(error.code)) return new UpstreamError(`the hosted service answered ${status}`);
  return errorFor(error.code, String(error.message ?? ''), {
    ...(Array.isArray(error.details) ? { details: error.details as EngineError['details'] & object } : {}),
    ...(error.upstream ? { upstream: error.upstream as NonNullable<EngineError['upstream']> } : {}),
    ...(typeof error.retry_after_ms === 'number' ? { retryAfterMs: error.retry_after_ms } : {}),
    ...(typeof error.retryable === 'boolean' ? { retryable: error.retryable } : {}),
    ...(error.sync && typeof error.sync === 'object' ? { sync: error.sync as Record<string, unknown> } : {}),
    ...(error.deadline && typeof error.deadline === 'object' ? { deadline: error.deadline as NonNullable<EngineError['deadline']> } : {}),
    ...(typeof error.details_omitted === 'number' && Array.isArray(error.details) ? { detailsTotal: error.details.length + error.details_omitted } : {}),
    ...(typeof error.request_id === 'string' ? { requestId: error.request_id } : {}),
  });
}

/** Options of one call through the service. */
export interface HostedCallOptions {
  /** The call's deadline in ms, at most 300,000, sent as `timeout_ms` (default: the operator's, 30 s). */
  deadlineMs?: number;
  /**
   * Cancels the call when it aborts, as the library's option does: the request to the service is
   * closed (the service then cancels its upstream call) and the call fails with CANCELLED. For
   * `records()` it ends the page in flight and the iteration; for a download, the wait for the
   * file's first byte (cancel the stream itself to stop reading).
   */
  signal?: AbortSignal;
}

/**
 * The options a call through the service takes (`traffic` marks the library's own sync reads), and
 * the longest deadline the service accepts (`timeout_ms` in schemas/hosted-execute-request.schema.json).
 */
const HOSTED_CALL_OPTIONS: CallOptionRules = { names: ['deadlineMs', 'signal'], maxDeadlineMs: 300_000 };

/** The execute body fields of the call options. */
function callFields(options: HostedCallOptions | undefined): { timeout_ms?: number } {
  return options?.deadlineMs !== undefined ? { timeout_ms: options.deadlineMs } : {};
}

/** GET|POST .../sync: whether a pass runs, when the next is due, and each entity's state. */
export interface HostedSyncStatus {
  connector_id: string;
  running: boolean;
  next_sync_at: string | null;
  interval_ms: number;
  entities: SyncState[];
}

/**
 * A connector used through the hosted service, with the same `execute`, `records` and
 * `download` as the in-process library. It gets and renews its scoped token itself, and uses the
 * connector `connectorId` names, or else the user's only connector of the type (cached).
 */
export class HostedConnection {
  private token?: { value: string; renewAt: number };
  private connectorId?: string;
  private types?: Map<string, ConnectorTypeInfo>;

  constructor(
    readonly type: string,
    private readonly options: HostedOptions,
  ) {}

  private url(path: string): string {
    return this.options.baseUrl.replace(/\/+$/, '') + path;
  }

  private async accessToken(renew = false): Promise<string> {
    if (!renew && this.token && (this.options.clock ?? systemClock).now() < this.token.renewAt) return this.token.value;
    const response = await got.post(this.url('/v1/auth/token'), {
      json: { client_id: this.options.clientId, client_secret: this.options.clientSecret, external_user_id: this.options.externalUserId },
      throwHttpErrors: false,
      responseType: 'json',
    });
    if (response.statusCode !== 200) throw errorFromBody(response.statusCode, response.body);
    const body = response.body as { access_token: string; expires_in: number };
    // Renew a minute early so a token never expires between lookup and use.
    this.token = { value: body.access_token, renewAt: (this.options.clock ?? systemClock).now() + Math.max(0, body.expires_in - 60) * 1000 };
    return body.access_token;
  }

  /** Calls the service with the scoped token, renewing it once on 401; `cancel` ends the request in flight. */
  private async call(method: 'GET' | 'POST', path: string, json?: unknown, cancel?: { signal: AbortSignal; what: string }): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken(attempt > 0);
      if (cancel?.signal.aborted) throw cancelledBy(cancel.signal, cancel.what);
      const request = got(this.url(path), {
        method,
        headers: { authorization: `Bearer ${token}` },
        ...(json !== undefined ? { json } : {}),
        throwHttpErrors: false,
        responseType: 'json',
      });
      const response = await untilCancelled(request, cancel?.signal, cancel?.what ?? '', () => request.cancel());
      if (response.statusCode === 401 && attempt === 0) continue;
      if (response.statusCode >= 400) throw errorFromBody(response.statusCode, response.body);
      return response.body;
    }
  }

  /** The connector this client uses: the one named by `connectorId`, or the user's only one of the type (cached). */
  private async connector(): Promise<string> {
    if (this.connectorId) return this.connectorId;
    this.connectorId = this.options.connectorId !== undefined ? await this.namedConnector(this.options.connectorId) : await this.onlyConnector();
    return this.connectorId;
  }

  /** Checks that the named connector is the user's and of this client's type, so a mix-up fails on its first call, clearly. */
  private async namedConnector(id: string): Promise<string> {
    const found = (await this.call('GET', `/v1/integrations/connectors/${encodeURIComponent(id)}`)) as ConnectorSummary;
    if (found.connector_type !== this.type.toLowerCase()) {
      throw new InvalidRequestError(`connector ${id} is a ${found.connector_type} connector, not ${this.type}`, {
        details: [{ path: '/connectorId', message: `names a ${found.connector_type} connector` }],
      });
    }
    return found.id;
  }

  /** The user's one connector of the type; with several, a guess could read the wrong account, so it refuses and lists them. */
  private async onlyConnector(): Promise<string> {
    const body = (await this.call('GET', `/v1/integrations/connectors?connector_type=${encodeURIComponent(this.type.toLowerCase())}`)) as {
      data: ConnectorSummary[];
    };
    const [first, ...others] = body.data;
    if (!first)
      throw new ConnectorNotFoundError(`user ${this.options.externalUserId} has no ${this.type} connector; create one with POST /v1/integrations/connectors`);
    if (others.length === 0) return first.id;
    const listed = body.data.map((c) => `${c.id}${c.name ? ` ("${c.name}")` : ''}`);
    throw new AmbiguousConnectorError(
      `user ${this.options.externalUserId} has ${body.data.length} ${this.type} connectors: ${listed.join(', ')}; pass hosted.connectorId to pick one`,
      {
        details: body.data.map((c) => ({ path: '/connectorId', message: `${c.id}: name ${JSON.stringify(c.name)}, created ${c.created_at}` })),
        detailsTotal: body.data.length,
      },
    );
  }

  /** Runs one action through the service; `download` returns the file as a stream. */
  async execute(entity: string, action: 'download', params?: Record<string, unknown>, options?: HostedCallOptions): Promise<DownloadStream>;
  async execute(entity: string, action: 'search', params?: Record<string, unknown>, options?: HostedCallOptions): Promise<SearchResult>;
  async execute(entity: string, action: string, params?: Record<string, unknown>, options?: HostedCallOptions): Promise<ExecuteResult>;
  async execute(
    entity: string,
    action: string,
    params?: Record<string, unknown>,
    options?: HostedCallOptions,
  ): Promise<ExecuteResult | DownloadStream | SearchResult> {
    checkCallOptions(options, HOSTED_CALL_OPTIONS);
    if (action === 'download') return this.download(entity, params ?? {}, options);
    const what = `${this.type} ${entity} ${action}`;
    if (options?.signal?.aborted) throw cancelledBy(options.signal, what);
    const path = `/api/v1/connectors/sources/${encodeURIComponent(await this.connector())}/execute`;
    const body = { entity, action, ...(params ? { params } : {}), ...callFields(options) };
    return (await this.call('POST', path, body, options?.signal ? { signal: options.signal, what } : undefined)) as ExecuteResult;
  }

  /** Streams a file (a `download` action) through the service, with Range support. */
  /** Asks the service for a sync pass now (`full` re-reads everything); answers the sync status. */
  async sync(options: { full?: boolean } = {}): Promise<HostedSyncStatus> {
    const path = `/api/v1/connectors/sources/${encodeURIComponent(await this.connector())}/sync`;
    return (await this.call('POST', path, options.full ? { full: true } : {})) as HostedSyncStatus;
  }

  /** The connector's sync status: running or not, next pass, and each entity's state. */
  async syncStatus(): Promise<HostedSyncStatus> {
    return (await this.call('GET', `/api/v1/connectors/sources/${encodeURIComponent(await this.connector())}/sync`)) as HostedSyncStatus;
  }

  async download(entity: string, params: Record<string, unknown>, options?: HostedCallOptions): Promise<DownloadStream> {
    checkCallOptions(options, HOSTED_CALL_OPTIONS);
    const what = `${this.type} ${entity} download`;
    const signal = options?.signal;
    if (signal?.aborted) throw cancelledBy(signal, what);
    const path = `/api/v1/connectors/sources/${encodeURIComponent(await this.connector())}/execute`;
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken(attempt > 0);
      if (signal?.aborted) throw cancelledBy(signal, what);
      const request = got.stream.post(this.url(path), {
        headers: { authorization: `Bearer ${token}` },
        json: { entity, action: 'download', params, ...callFields(options) },
        throwHttpErrors: false,
      });
      const answered = new Promise<IncomingMessage>((resolve, reject) => {
        request.once('response', resolve);
        request.once('error', reject);
      });
      // Up to the first byte, as the library's download: the stream then belongs to the caller.
      const response = await untilCancelled(answered, signal, what, () => request.destroy());
      const status = response.statusCode ?? 0;
      if (status < 300) {
        const length = response.headers['content-length'];
        return new DownloadStream(
          status,
          response.headers['content-type'],
          length === undefined ? undefined : Number(length),
          response.headers['content-range'],
          {},
          request as Request,
        );
      }
      let text = '';
      for await (const chunk of request) text += String(chunk);
      if (status === 401 && attempt === 0) continue;
      throw errorFromBody(status, JSON.parse(text || '{}'));
    }
  }

  private async pagination(
    entity: string,
    action: string,
  ): Promise<{ pagination_param: string | null; pagination_keep_params: string[] | null; paged_order?: PagedOrder }> {
    if (!this.types) {
      const body = (await this.call('GET', '/v1/connector-types')) as { data: ConnectorTypeInfo[] };
      this.types = new Map(body.data.map((info) => [info.type, info]));
    }
    const info = this.types.get(this.type.toLowerCase())?.entities[entity]?.actions[action];
    if (!info) throw new UnsupportedActionError(`${this.type} ${entity} has no action ${action}`);
    return info;
  }

  /** Every record of a list-like action, page by page, as the library's `records` does. */
  async *records(entity: string, action: string, params: Record<string, unknown> = {}, options?: HostedCallOptions): AsyncGenerator<RecordData> {
    checkCallOptions(options, HOSTED_CALL_OPTIONS);
    const { pagination_param: param, pagination_keep_params: keep, paged_order: paged } = await this.pagination(entity, action);
    const reason = paged && unpageableReason(paged, params);
    if (reason) {
      throw new InvalidParamsError(
        `invalid params for ${this.type} ${entity} ${action}: records() reads every page, and ${reason.message} (in another order, execute gives the first page)`,
        { details: [reason] },
      );
    }
    let current = params;
    const guard = new PageLoopGuard();
    for (;;) {
      const page = (await this.execute(entity, action, current, options)) as { data: RecordData[]; meta: { next_cursor?: unknown; has_more: boolean } };
      // The service reads one page per call; an upstream that ignores the page param answers the same one again.
      if (guard.samePageAgain(page.data)) {
        throw new PaginationLoopError(
          `${this.type} ${entity} ${action}: the upstream answered the same page again for ${param} ${JSON.stringify(current[param ?? ''])}; stopping instead of looping`,
        );
      }
      yield* page.data;
      const token = page.meta.next_cursor;
      if (!param || !page.meta.has_more) return;
      // More records, but no cursor: an order the upstream cannot be paged in (a keyset-paged
      // search sorted by another field). Stopping quietly would hide the rest.
      if (typeof token !== 'string' && typeof token !== 'number') {
        throw new InvalidParamsError(
          `records() reads every page, but ${this.type} ${entity} ${action} gives no cursor for these params (an order it cannot page in); use execute for the first page`,
        );
      }
      if (guard.repeatedToken(token))
        throw new PaginationLoopError(
          `${this.type} ${entity} ${action}: the service repeated page token "${String(token).slice(0, 80)}"; stopping instead of looping`,
        );
      const base = keep ? Object.fromEntries(Object.entries(current).filter(([k]) => keep.includes(k))) : current;
      current = { ...base, [param]: token };
    }
  }
}

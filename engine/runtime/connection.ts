import { systemClock, type Clock } from '../clock/index.js';
import { PaginationLoopError, SearchUnavailableError, UnknownEntityError, UnsupportedActionError } from '../errors.js';
import type { AuthSession } from '../auth/index.js';
import { API_HEADER_DEFAULTS, UpstreamCall, type EgressPolicy, type HttpClient, type Redactor, type UpstreamRequestListener } from '../http/index.js';
import type { SearchResult } from '../search/index.js';
import type { SyncState } from '../store/index.js';
import { download, DownloadStream, type CompiledFile } from './download.js';
import type { CompiledAction, CompiledConnector } from './compiled-connector.js';
import { renderRequest } from './build-request.js';
import { checkCallOptions, type CallOptions } from './call-options.js';
import type { ExtractedPage, RecordData, ResultMeta } from './extract.js';
import { PageLoopGuard } from './paging/index.js';
import { activeExclusions, excludeRecords } from './record-filter.js';
import { refusedCredentials, type CredentialsCheckResult } from './refused-credentials.js';

/** What `execute` returns for list-like actions. */
export interface ListResult {
  data: RecordData[];
  meta: ResultMeta;
}

/** What `execute` returns for `get`. */
export interface RecordResult {
  data: RecordData;
  meta: ResultMeta;
}

export type ExecuteResult = ListResult | RecordResult;

/** Options of a sync pass started from the library. */
export interface CopySyncOptions {
  /** Read everything and remove what disappeared, even where an incremental pass would do. */
  full?: boolean;
  /** Only these entities (default: every entity with a sync plan). */
  entities?: string[];
  onProgress?: (progress: { entity: string; position: number; total: number; status: string; mode: string; records: number }) => void;
}

/**
 * A synchronized copy a connection can search (open-source mode with a store; see client/).
 * The runtime only knows this shape, so it never depends on the store or the sync runner.
 */
export interface AttachedCopy {
  search(entity: string, params: unknown): Promise<SearchResult>;
  sync(options: CopySyncOptions): Promise<SyncState[]>;
  states(): Promise<SyncState[]>;
  close(): Promise<void>;
}

/**
 * One connector with its credentials: resolves entity and action, checks params before any
 * request, renders the request, sends it signed through the connector's HTTP policy, and maps the
 * answer to records.
 */
export class Connection {
  constructor(
    private readonly connector: CompiledConnector,
    private readonly auth: AuthSession,
    private readonly http: HttpClient,
    private readonly config: Record<string, unknown>,
    private readonly baseUrl: () => string,
    private readonly timeoutMs: number,
    private readonly redact: Redactor,
    private readonly egress: EgressPolicy,
    /** The deadline of a call that names none (connect's `deadlineMs`). */
    private readonly deadlineMs: number,
    private readonly onRequest?: UpstreamRequestListener,
    private readonly clock: Clock = systemClock,
  ) {}

  private copy: AttachedCopy | undefined;

  /** Routes `search` and `sync()` to a synchronized copy; `connect(type, {store})` calls this. */
  attachCopy(copy: AttachedCopy): void {
    this.copy = copy;
  }

  private requireCopy(): AttachedCopy {
    if (this.copy) return this.copy;
    throw new SearchUnavailableError(
      `search reads a synchronized copy of ${this.type}: open the connection with a store, e.g. connect('${this.type}', { credentials, store: 'sqlite:./data/copy.db' }), then call sync()`,
    );
  }

  /**
   * Reads every searchable entity into the store given to `connect` (full passes, or incremental
   * ones where the manifest allows); returns each entity's state. Needs `{store}`.
   */
  async sync(options: CopySyncOptions = {}): Promise<SyncState[]> {
    return this.requireCopy().sync(options);
  }

  /** The sync state of every entity of the copy (empty before the first pass). Needs `{store}`. */
  async syncStates(): Promise<SyncState[]> {
    return this.requireCopy().states();
  }

  /** Releases the store `connect` opened from a URL; a no-op without one. */
  async close(): Promise<void> {
    await this.copy?.close();
  }

  /** The connector type, as the manifest names it. */
  get type(): string {
    return this.connector.manifest.type;
  }

  /** The credentials in use now, after any rotation (the library's caller may persist them). */
  get credentials(): Record<string, unknown> {
    return { ...this.auth.credentials };
  }

  /** Counters of upstream traffic (`syncAttempts`: the attempts of sync traffic; `inFlight`: attempts whose answer is not in yet) and token refreshes. */
  get stats(): { requests: number; attempts: number; retries: number; syncAttempts: number; inFlight: number; refreshes: number } {
    return { ...this.http.stats, refreshes: this.auth.refreshes };
  }

  /**
   * Runs one action and returns one page (or one record) with its meta; for `download`, a
   * stream of the file's bytes. `options.deadlineMs` bounds the whole call (every wait and retry;
   * a download up to the file's first byte); `options.traffic: 'sync'` marks background reads.
   */
  async execute(entity: string, action: 'download', params?: Record<string, unknown>, options?: CallOptions): Promise<DownloadStream>;
  async execute(entity: string, action: 'search', params?: Record<string, unknown>, options?: CallOptions): Promise<SearchResult>;
  async execute(entity: string, action: string, params?: Record<string, unknown>, options?: CallOptions): Promise<ExecuteResult>;
  async execute(
    entity: string,
    action: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<ExecuteResult | DownloadStream | SearchResult> {
    // `search` is answered from the synchronized copy, never by the upstream (SPEC.md).
    if (action === 'search' && this.connector.manifest.entities[entity]?.sync) {
      checkCallOptions(options);
      return this.requireCopy().search(entity, params);
    }
    const compiled = this.resolve(entity, action);
    const checked = compiled.validateParams(params);
    const call = this.startCall(compiled, options);
    try {
      if (compiled.file) return await this.startDownload(compiled, checked, (await this.fetchPage(compiled, checked, call)).records[0] as RecordData, call);
      const page = this.excluded(compiled, await this.fetchPage(compiled, checked, call));
      if (compiled.spec.response.record !== undefined) return { data: page.records[0] as RecordData, meta: page.meta };
      return { data: page.records, meta: page.meta };
    } finally {
      call.finish();
    }
  }

  /** Streams a file (`download` actions), the same as execute(entity, 'download', params, options). */
  download(entity: string, params: Record<string, unknown>, options?: CallOptions): Promise<DownloadStream> {
    return this.execute(entity, 'download', params, options);
  }

  private startCall(compiled: CompiledAction, options: CallOptions | undefined): UpstreamCall {
    const checked = checkCallOptions(options);
    return new UpstreamCall(compiled.label, checked.deadlineMs ?? this.deadlineMs, checked.traffic, this.clock, checked.signal);
  }

  private startDownload(compiled: CompiledAction, params: Record<string, unknown>, record: RecordData, call: UpstreamCall): Promise<DownloadStream> {
    return download(record, {
      file: compiled.file as CompiledFile,
      context: { params, config: this.config },
      label: compiled.label,
      timeoutMs: this.timeoutMs,
      redact: this.redact,
      egress: this.egress,
      call,
      readRecord: async () => (await this.fetchPage(compiled, params, call)).records[0] as RecordData,
      ...(this.onRequest ? { onRequest: this.onRequest } : {}),
    });
  }

  /**
   * Every record of a list-like action, page by page, holding one page in memory at a time. Stops
   * when the upstream gives no next token; a token seen before fails loudly instead of looping.
   * `options.deadlineMs` bounds each page request, not the whole iteration: the consumer sets
   * the pace between pages, so a deadline over all of them would also count the consumer's time.
   */
  async *records(entity: string, action: string, params?: Record<string, unknown>, options?: CallOptions): AsyncGenerator<RecordData> {
    const compiled = this.resolve(entity, action);
    if (compiled.spec.response.records === undefined) {
      throw new UnsupportedActionError(`records() reads list-like actions; ${compiled.label} returns one ${compiled.file ? 'file' : 'record'}: use execute()`, {
        details: [{ path: '/action', message: 'must be a list-like action' }],
      });
    }
    let current = compiled.validateParams(params);
    checkCallOptions(options);
    const paging = compiled.paging;
    paging.assertPageable(current, compiled.label);
    const guard = new PageLoopGuard();
    const param = paging.describe().pagination_param ?? '';
    for (;;) {
      const call = this.startCall(compiled, options);
      const page = this.excluded(compiled, await this.fetchPage(compiled, current, call).finally(() => call.finish()));
      if (guard.samePageAgain(page.records)) {
        throw new PaginationLoopError(
          `${compiled.label}: the upstream answered the same page again for ${param} ${JSON.stringify(current[param])}; stopping instead of looping`,
        );
      }
      // One plain yield per record: `yield*` over an array in an async generator goes through an
      // async-from-sync iterator, a few more promises per record.
      for (const record of page.records) yield record;
      if (page.nextToken === undefined || !paging.pages) return;
      if (guard.repeatedToken(page.nextToken)) {
        throw new PaginationLoopError(
          `${compiled.label}: the upstream repeated page token "${String(page.nextToken).slice(0, 80)}"; stopping instead of looping`,
        );
      }
      current = paging.nextParams(current, page.nextToken);
    }
  }

  /**
   * Runs the manifest's credentials check (its cheapest read) through the normal call path: auth
   * and refresh, rate limit, retries, egress rules. Resolves when the upstream takes the
   * credentials; credentials it refuses (its 400, 401 or 403, from the API or the token endpoint)
   * fail with INVALID_CREDENTIALS carrying its reason. Other failures (unreachable, 5xx) keep their codes.
   */
  async checkCredentials(options?: CallOptions): Promise<CredentialsCheckResult> {
    const { entity, action, params } = this.connector.manifest.check;
    const compiled = this.resolve(entity, action);
    const call = this.startCall(compiled, options);
    try {
      await this.fetchPage(compiled, compiled.validateParams(params ?? {}), call);
    } catch (error) {
      throw refusedCredentials(error, this.connector.manifest.name, compiled.label);
    } finally {
      call.finish();
    }
    return { entity, action, auth_scheme: this.auth.schemeName };
  }

  /**
   * The field definitions an entity's sync plan discovers (its `discover_fields` request), read
   * through the normal call path: auth and refresh, rate limit, retries, egress rules, error mapping.
   * Why: a pass reads them first, to copy and type the fields the upstream account defines.
   */
  async discoverFields(entity: string, options?: CallOptions): Promise<RecordData[]> {
    const compiled = this.connector.discoveries.get(entity);
    if (!compiled) throw new UnsupportedActionError(`${this.type} ${entity} discovers no fields (its sync plan has no discover_fields)`);
    const call = this.startCall(compiled, options);
    try {
      return (await this.fetchPage(compiled, {}, call)).records;
    } finally {
      call.finish();
    }
  }

  /** A page with the action's exclusion rules applied under this connection's config (no promise of its own: execute awaits the fetch). */
  private excluded(compiled: CompiledAction, page: ExtractedPage): ExtractedPage {
    if (compiled.spec.exclude_records === undefined) return page;
    return excludeRecords(page, activeExclusions(compiled.spec.exclude_records, this.config), compiled.spec.response.record !== undefined, compiled.label);
  }

  private resolve(entity: string, action: string): CompiledAction {
    const actions = this.connector.actions.get(entity);
    if (!actions) {
      const known = [...this.connector.actions.keys()];
      throw new UnknownEntityError(`${this.type} has no entity "${entity}"; entities: ${known.join(', ')}`, {
        details: [{ path: '/entity', message: `must be one of ${known.join(', ')}` }],
      });
    }
    const compiled = actions.get(action);
    if (!compiled) {
      const known = [...actions.keys(), ...(this.connector.manifest.entities[entity]?.sync ? ['search'] : [])];
      throw new UnsupportedActionError(`${this.type} ${entity} does not support "${action}"; actions: ${known.join(', ')}`, {
        details: [{ path: '/action', message: `must be one of ${known.join(', ')}` }],
      });
    }
    return compiled;
  }

  /**
   * One upstream request of an action, signed, under the call's deadline. The deadline also bounds
   * waiting for a token refresh (the time before and between sends), without cancelling it.
   */
  private async fetchPage(compiled: CompiledAction, params: Record<string, unknown>, call: UpstreamCall): Promise<ExtractedPage> {
    const sent = compiled.paging.requestParams(compiled.spec, params, compiled.label);
    const render = () => {
      const context = { params: sent, config: this.config, credentials: this.auth.credentials };
      const request = renderRequest(compiled.request, context, this.baseUrl());
      for (const [name, template] of this.connector.headers) request.headers[name] ??= template.render(context);
      return request;
    };
    // Rendered before anything is sent (so a bad path value fails first), and again whenever a
    // refresh has replaced the credentials (and with them, maybe, the account's base URL).
    let rendered = { credentials: this.auth.credentials, request: render() };
    let authSince = this.clock.now();
    call.doing('refresh');
    const signed = this.auth.call(async (authHeaders) => {
      call.spend('refresh', this.clock.now() - authSince);
      if (rendered.credentials !== this.auth.credentials) rendered = { credentials: this.auth.credentials, request: render() };
      try {
        return await this.http.send({ ...rendered.request, headers: { ...API_HEADER_DEFAULTS, ...rendered.request.headers, ...authHeaders } }, call);
      } finally {
        authSince = this.clock.now();
        call.doing('refresh');
      }
    });
    // Without a refresh to wait for, the sends are all there is, and each is bounded by the deadline itself.
    const answer = await (this.auth.canRefresh ? call.race(signed) : signed);
    return compiled.extract(answer, params);
  }
}

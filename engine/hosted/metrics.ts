import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { UpstreamRequest } from '../http/index.js';
import type { Store } from '../store/index.js';
import type { SyncObserver, SyncPassOutcome } from '../sync/index.js';

/**
 * The service's Prometheus metrics, on their own registry (several servers may share a process).
 * Upstream requests are counted where they are sent (UpstreamRequestListener), whoever sends
 * them: executes and sync passes alike. Sync lag is read from the store at scrape time, so it
 * covers the passes of every process sharing the database. Process metrics are prom-client's
 * defaults (CPU, memory, event-loop lag, GC, handles).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'engine_http_requests_total',
    help: 'HTTP requests served',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'engine_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly upstreamRequests = new Counter({
    name: 'engine_upstream_requests_total',
    help: 'HTTP requests sent upstream, retries included (kind: api, token for OAuth refreshes, file for downloads)',
    labelNames: ['connector_type', 'kind'],
    registers: [this.registry],
  });
  private readonly upstreamRetries = new Counter({
    name: 'engine_upstream_retries_total',
    help: 'Upstream API requests sent again after a failure',
    labelNames: ['connector_type'],
    registers: [this.registry],
  });
  private readonly refreshes = new Counter({
    name: 'engine_oauth_refreshes_total',
    help: 'OAuth refresh requests sent to token endpoints',
    labelNames: ['connector_type'],
    registers: [this.registry],
  });
  private readonly syncPasses = new Counter({
    name: 'engine_sync_passes_total',
    help: 'Sync passes run by this process, by outcome (succeeded, failed: an entity failed, stopped: shutdown or lease lost)',
    labelNames: ['connector_type', 'outcome'],
    registers: [this.registry],
  });
  private readonly syncRecords = new Counter({
    name: 'engine_sync_records_written_total',
    help: 'Records written to synchronized copies by this process',
    labelNames: ['connector_type'],
    registers: [this.registry],
  });
  private readonly syncDuration = new Histogram({
    name: 'engine_sync_pass_duration_seconds',
    help: 'Duration of sync passes run by this process',
    labelNames: ['connector_type', 'outcome'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
    registers: [this.registry],
  });

  constructor(store: Store) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'engine_sync_lag_seconds',
      help: 'Seconds since the least recently synchronized connector of the type last completed every entity (since its creation if it never has)',
      labelNames: ['connector_type'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const now = Date.now();
        for (const row of await store.syncFreshness()) this.set({ connector_type: row.connector_type }, Math.max(0, (now - Date.parse(row.synced_at)) / 1000));
      },
    });
  }

  /** The label children of the request metrics by method, route and status (a bounded set: routes are patterns). */
  private readonly requestChildren = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();

  /**
   * Counts one answered request and its latency. The label children are kept, so the hot path
   * looks one up by a short key instead of prom-client hashing a labels object twice per request.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let children = this.requestChildren.get(key);
    if (!children) {
      children = { count: this.requests.labels(method, route, String(status)), latency: this.latency.labels(method, route) };
      this.requestChildren.set(key, children);
    }
    children.count.inc();
    children.latency.observe(seconds);
  }

  /** Counts one upstream request of a connector of `type` (the connector pool's listener). */
  countUpstream(type: string, request: UpstreamRequest): void {
    this.upstreamRequests.inc({ connector_type: type, kind: request.kind });
    if (request.retry) this.upstreamRetries.inc({ connector_type: type });
    if (request.kind === 'token') this.refreshes.inc({ connector_type: type });
  }

  /** What the sync scheduler reports to. */
  readonly sync: SyncObserver = {
    written: (type: string, records: number) => this.syncRecords.inc({ connector_type: type }, records),
    passed: (type: string, outcome: SyncPassOutcome, seconds: number) => {
      this.syncPasses.inc({ connector_type: type, outcome });
      this.syncDuration.observe({ connector_type: type, outcome }, seconds);
    },
  };
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DeferredCounter, type CounterSeries } from './deferred-counter.js';
import { RequestMetrics } from './request-metrics.js';
import type { UpstreamRequest } from '../http/index.js';
import type { Store } from '../store/index.js';
import type { SyncObserver, SyncPassOutcome } from '../sync/index.js';

/** The upstream counters' series of one connector type. */
type UpstreamSeries = Record<UpstreamRequest['kind'] | 'retries' | 'refreshes', CounterSeries<string>>;

/**
 * The service's Prometheus metrics, on their own registry (several servers may share a process).
 * Upstream requests are counted where they are sent (UpstreamRequestListener), whoever sends
 * them: executes and sync passes alike. Sync lag is read from the store at scrape time, so it
 * covers the passes of every process sharing the database. Process metrics are prom-client's
 * defaults (CPU, memory, event-loop lag, GC, handles).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics(this.registry);
  private readonly upstreamRequests = new DeferredCounter(this.registry, {
    name: 'engine_upstream_requests_total',
    help: 'HTTP requests sent upstream, retries included (kind: api, token for OAuth refreshes, file for downloads)',
    labelNames: ['connector_type', 'kind'],
  });
  private readonly upstreamRetries = new DeferredCounter(this.registry, {
    name: 'engine_upstream_retries_total',
    help: 'Upstream API requests sent again after a failure',
    labelNames: ['connector_type'],
  });
  private readonly refreshes = new DeferredCounter(this.registry, {
    name: 'engine_oauth_refreshes_total',
    help: 'OAuth refresh requests sent to token endpoints',
    labelNames: ['connector_type'],
  });
  /** The upstream counters' series of each connector type (a few types, three kinds). */
  private readonly upstreamSeries = new Map<string, UpstreamSeries>();
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

  /** Counts one answered request and its latency (RequestMetrics: plain numbers on the hot path). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  /** Counts one upstream request of a connector of `type` (the connector pool's listener, on every request sent). */
  countUpstream(type: string, request: UpstreamRequest): void {
    let series = this.upstreamSeries.get(type);
    if (!series) this.upstreamSeries.set(type, (series = this.newUpstreamSeries(type)));
    series[request.kind].pending++;
    if (request.retry) series.retries.pending++;
    if (request.kind === 'token') series.refreshes.pending++;
  }

  private newUpstreamSeries(type: string): UpstreamSeries {
    const kind = (kind: UpstreamRequest['kind']) => this.upstreamRequests.series({ connector_type: type, kind });
    return {
      api: kind('api'),
      token: kind('token'),
      file: kind('file'),
      retries: this.upstreamRetries.series({ connector_type: type }),
      refreshes: this.refreshes.series({ connector_type: type }),
    };
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

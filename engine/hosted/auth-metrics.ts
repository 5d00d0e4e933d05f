import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Store } from '../store/index.js';

/** The credential health metrics of the service, registered on its registry. */
export interface AuthMetrics {
  /** Seconds from an OAuth token answer to the durable write of the rotated credentials. */
  readonly persistWindow: Histogram;
}

/**
 * Registers the metrics an operator watches for dead grants: how many connectors need their user
 * to connect again (read from the store at scrape time, so every process reports the same), and
 * how long a rotated refresh token stays only in memory (the window in which a crash loses it).
 */
export function registerAuthMetrics(registry: Registry, store: Store): AuthMetrics {
  new Gauge({
    name: 'engine_connectors_needing_reauth',
    help: 'Connectors whose credentials the upstream refused for good (auth.state needs_reauth), by connector type',
    labelNames: ['connector_type'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [type, count] of Object.entries(await store.countNeedsReauth())) this.set({ connector_type: type }, count);
    },
  });
  const persistWindow = new Histogram({
    name: 'engine_oauth_refresh_persist_seconds',
    help: 'Time from an OAuth token answer to the durable write of the rotated credentials',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    registers: [registry],
  });
  return { persistWindow };
}

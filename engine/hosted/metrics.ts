import { Counter, Histogram, Registry } from 'prom-client';

/** The service's Prometheus metrics, on their own registry (several servers may share a process). */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'engine_http_requests_total', help: 'HTTP requests served', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  readonly latency = new Histogram({
    name: 'engine_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly upstreamRequests = new Counter({ name: 'engine_upstream_requests_total', help: 'Upstream HTTP attempts', labelNames: ['connector_type'], registers: [this.registry] });
  readonly upstreamRetries = new Counter({ name: 'engine_upstream_retries_total', help: 'Upstream retries', labelNames: ['connector_type'], registers: [this.registry] });
  readonly refreshes = new Counter({ name: 'engine_oauth_refreshes_total', help: 'OAuth token refreshes performed', labelNames: ['connector_type'], registers: [this.registry] });
}

import { Histogram, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';
import { DeferredCounter, type CounterSeries } from './deferred-counter.js';

/** The latency histogram's upper bounds, in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type LatencyLabel = 'method' | 'route';

/** One (method, route) of the latency histogram: observations per bucket (not cumulative, the last one past every bound), their sum and count. */
interface LatencySeries {
  labels: Record<LatencyLabel, string>;
  perBucket: number[];
  sum: number;
  count: number;
}

/** One (method, route, status) of the request counter, and the latency series of its method and route. */
interface RequestSeries {
  method: string;
  status: number;
  count: CounterSeries<'method' | 'route' | 'status'>;
  latency: LatencySeries;
}

const LATENCY_NAME = 'engine_http_request_duration_seconds';
const LATENCY_HELP = 'HTTP request latency';

/** What a histogram's get() answers (prom-client's typings name its type by an enum; at run time it is the string). */
type HistogramData = MetricObjectWithValues<MetricValueWithName<LatencyLabel>>;
type ExportLabels = MetricValueWithName<LatencyLabel>['labels'];

/**
 * engine_http_request_duration_seconds: a prom-client Histogram (registered, named and typed as
 * one, exposed by the registry) whose series are plain numbers kept by {@link RequestMetrics}
 * and answered by get() in prom-client's own export shape: per series its cumulative buckets,
 * +Inf, _sum and _count. Why not prom-client's observe: it builds a labels string, checks every
 * label and walks the buckets on every request, 1-2 µs a request.
 */
class LatencyHistogram extends Histogram<LatencyLabel> {
  readonly series: LatencySeries[] = [];

  override async get(): Promise<HistogramData> {
    const values: Array<MetricValueWithName<LatencyLabel>> = [];
    for (const { labels, perBucket, sum, count } of this.series) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((bound, i) => {
        cumulative += perBucket[i]!;
        values.push({ labels: { le: bound, ...labels } as ExportLabels, value: cumulative, metricName: `${LATENCY_NAME}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...labels } as ExportLabels, value: count, metricName: `${LATENCY_NAME}_bucket` });
      values.push({ labels: { ...labels }, value: sum, metricName: `${LATENCY_NAME}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${LATENCY_NAME}_count` });
    }
    return { name: LATENCY_NAME, help: LATENCY_HELP, type: 'histogram', values, aggregator: 'sum' } as unknown as HistogramData;
  }

  /** What the registry reads for the text exposition: the same values (a label set per value, no shared labels). */
  async getForPromString(): Promise<HistogramData> {
    return this.get();
  }

  override reset(): void {
    super.reset();
    // Called by the base constructor too, before `series` exists.
    for (const series of this.series ?? []) {
      series.perBucket.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

/**
 * The HTTP request metrics of the service: engine_http_requests_total{method,route,status} and
 * engine_http_request_duration_seconds{method,route}, as prom-client exposes them. The hot path
 * (one {@link observe} per answered request) adds to plain numbers of a series it finds by route,
 * method and status: the counter hands them to prom-client when the registry collects
 * (DeferredCounter), the histogram answers its series itself.
 */
export class RequestMetrics {
  private readonly requests: DeferredCounter<'method' | 'route' | 'status'>;
  private readonly latency: LatencyHistogram;
  /** route -> the series of that route (a short list: a route has one or two methods and a few statuses). */
  private readonly byRoute = new Map<string, RequestSeries[]>();

  constructor(registry: Registry) {
    this.requests = new DeferredCounter(registry, {
      name: 'engine_http_requests_total',
      help: 'HTTP requests served',
      labelNames: ['method', 'route', 'status'],
    });
    this.latency = new LatencyHistogram({
      name: LATENCY_NAME,
      help: LATENCY_HELP,
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** Counts one answered request of `route` (a route pattern, or `unmatched`) and its latency. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const entry = this.seriesOf(method, route, status);
    entry.count.pending++;
    const { latency } = entry;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    latency.perBucket[bucket]!++;
    latency.sum += seconds;
    latency.count++;
  }

  private seriesOf(method: string, route: string, status: number): RequestSeries {
    let list = this.byRoute.get(route);
    if (!list) this.byRoute.set(route, (list = []));
    for (const entry of list) if (entry.status === status && entry.method === method) return entry;
    let latency = list.find((entry) => entry.method === method)?.latency;
    if (!latency) {
      latency = { labels: { method, route }, perBucket: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      this.latency.series.push(latency);
    }
    const entry: RequestSeries = { method, status, count: this.requests.series({ method, route, status: String(status) }), latency };
    list.push(entry);
    return entry;
  }
}

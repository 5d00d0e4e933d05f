import { Counter, type Registry } from 'prom-client';

/** One label set of a deferred counter: the increments not handed to prom-client yet. */
export interface CounterSeries<L extends string> {
  readonly labels: Record<L, string>;
  pending: number;
}

/**
 * A prom-client Counter fed from plain numbers: a hot path keeps the series of its label set and
 * adds to `pending`; the sums go to prom-client through its `collect` hook when the registry
 * collects (a scrape), so the exposition is prom-client's own and the totals are exact. Why:
 * prom-client's inc builds a labels string and checks every label on each call (about a µs),
 * and the service counts several things on every request.
 */
export class DeferredCounter<L extends string> {
  private readonly all: Array<CounterSeries<L>> = [];

  constructor(registry: Registry, config: { name: string; help: string; labelNames: L[] }) {
    const all = this.all;
    new Counter<L>({
      ...config,
      registers: [registry],
      collect() {
        for (const series of all) {
          if (series.pending === 0) continue;
          this.inc(series.labels, series.pending);
          series.pending = 0;
        }
      },
    });
  }

  /** A new series for `labels`; the caller keeps it (one per label set) and adds to its `pending`. */
  series(labels: Record<L, string>): CounterSeries<L> {
    const series: CounterSeries<L> = { labels, pending: 0 };
    this.all.push(series);
    return series;
  }
}

/**
 * What the sync-load benchmark measures under one condition (idle, or during a sync), pooled over
 * its rounds: execute latency (p50/p99 of sequential calls), event-loop delay
 * (perf_hooks.monitorEventLoopDelay, one per phase, the worst phase reported; kept apart for the
 * executes and the download) and download throughput (bytes over seconds of the large
 * attachment streamed through the service).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** The figures of one condition: milliseconds, and MiB/s for the download. */
export interface PhaseFigures {
  executeP50: number;
  executeP99: number;
  loopP99: number;
  loopMax: number;
  downloadLoopP99: number;
  downloadMiBs: number;
}

/** How often the event-loop delay monitor samples (ms): fine enough to see a few-ms stall. */
const LOOP_RESOLUTION_MS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Measures phases of one condition and pools their samples. */
export class PhaseProbe {
  private readonly times: number[] = [];
  /** Event-loop delay while the executes run, and while the download runs (it saturates the loop by itself). */
  private readonly executeLoop: LoopDelay = { p99: 0, max: 0 };
  private readonly downloadLoop: LoopDelay = { p99: 0, max: 0 };
  private bytes = 0;
  private seconds = 0;

  /** Runs `calls` sequential executes, then one download, with the event-loop delay monitored. */
  async measure(calls: number, execute: () => Promise<void>, download: () => Promise<number>): Promise<void> {
    await monitored(this.executeLoop, async () => {
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        await execute();
        this.times.push(performance.now() - started);
      }
    });
    await monitored(this.downloadLoop, async () => {
      const started = performance.now();
      this.bytes += await download();
      this.seconds += (performance.now() - started) / 1000;
    });
  }

  figures(): PhaseFigures {
    const sorted = [...this.times].sort((a, b) => a - b);
    return {
      executeP50: percentile(sorted, 50),
      executeP99: percentile(sorted, 99),
      loopP99: this.executeLoop.p99,
      loopMax: this.executeLoop.max,
      downloadLoopP99: this.downloadLoop.p99,
      downloadMiBs: this.bytes / 1048576 / this.seconds,
    };
  }
}

/** The worst event-loop delay of the phases so far (ms): their highest p99 and their maximum. */
interface LoopDelay {
  p99: number;
  max: number;
}

/**
 * Runs `task` under a fresh event-loop delay monitor and keeps the worst figures in `worst`. A
 * fresh monitor per phase: one monitor disabled between phases counts the gap as one long delay,
 * and Node cannot merge monitors, so the rounds report their worst p99 (never an average).
 */
async function monitored(worst: LoopDelay, task: () => Promise<void>): Promise<void> {
  const monitor = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  monitor.enable();
  try {
    await task();
  } finally {
    monitor.disable();
    worst.p99 = Math.max(worst.p99, monitor.percentile(99) / 1e6);
    worst.max = Math.max(worst.max, monitor.max / 1e6);
  }
}

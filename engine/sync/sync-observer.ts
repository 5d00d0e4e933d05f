import type { SyncState } from '../store/index.js';
import type { SyncProgress } from './run-sync.js';

/** How a pass ended: every entity succeeded, one failed, or its process stopped it (shutdown, lease lost). */
export type SyncPassOutcome = 'succeeded' | 'failed' | 'stopped';

/** What a scheduler tells its observer (the hosted service's metrics), per connector type. */
export interface SyncObserver {
  /** Records written since the last call for this pass, batch by batch, so a long pass shows as it goes. */
  written(connectorType: string, records: number): void;
  /** A pass that started (its connector opened) has ended. */
  passed(connectorType: string, outcome: SyncPassOutcome, seconds: number): void;
}

/** The outcome of a pass from its entities' states; `stopped` wins when the pass was cut short. */
export function passOutcome(states: SyncState[], stopped: boolean): SyncPassOutcome {
  if (stopped) return 'stopped';
  return states.length > 0 && states.every((s) => s.status === 'succeeded') ? 'succeeded' : 'failed';
}

/**
 * Turns a pass's progress reports (records so far, per entity) into increments for `written`:
 * the runner reports running totals, the observer counts records.
 */
export function writtenCounter(connectorType: string, observer: SyncObserver | undefined): (progress: SyncProgress) => void {
  const seen = new Map<string, number>();
  return (progress) => {
    const delta = progress.records - (seen.get(progress.entity) ?? 0);
    seen.set(progress.entity, progress.records);
    if (delta > 0) observer?.written(connectorType, delta);
  };
}

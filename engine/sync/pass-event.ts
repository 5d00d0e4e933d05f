import type { ConnectorEvent, SyncState } from '../store/index.js';

/** The typed error code at the head of a failed entity's last_error ("CODE: message", run-sync.ts describeFailure). */
function errorOf(lastError: string | null): { code: string; message: string } {
  const match = /^([A-Z][A-Z_]*): ([\s\S]*)$/.exec(lastError ?? '');
  // last_error is already redacted where it is made; it is cut short for the payload.
  return match ? { code: match[1]!, message: match[2]!.slice(0, 500) } : { code: 'INTERNAL', message: 'the sync pass failed' };
}

/**
 * The webhook event of a finished pass: sync.finished with each entity's mode and records copied
 * when every entity succeeded, else sync.failed with the first failure's typed code and message.
 */
export function passEvent(states: readonly SyncState[]): ConnectorEvent {
  const entities = Object.fromEntries(states.map((state) => [state.entity, { status: state.status, mode: state.mode, records: state.records }]));
  const records = states.reduce((sum, state) => sum + state.records, 0);
  const failed = states.find((state) => state.status === 'failed');
  if (!failed) return { type: 'sync.finished', data: { records, entities } };
  return { type: 'sync.failed', data: { records, entities, failed_entity: failed.entity, error: errorOf(failed.last_error) } };
}

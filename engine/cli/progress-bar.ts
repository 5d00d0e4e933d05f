import type { SyncProgress } from '../sync/index.js';

const WIDTH = 24;

/** One line of sync progress: an overall bar over the pass's entities, then the current entity. */
export function progressLine(progress: SyncProgress): string {
  const done = progress.position - 1 + (progress.status === 'running' ? 0 : 1);
  const filled = Math.round((done / progress.total) * WIDTH);
  const bar = '#'.repeat(filled) + '-'.repeat(WIDTH - filled);
  const records = progress.records.toLocaleString('en-US');
  return `[${bar}] ${progress.position}/${progress.total} ${progress.entity} ${progress.status} (${progress.mode}) ${records} records`;
}

/**
 * Draws sync progress on a stream: redrawn in place on a terminal, one line per finished entity
 * otherwise (logs and CI keep a readable record instead of carriage returns).
 */
export function progressBar(stream: NodeJS.WriteStream): { update(progress: SyncProgress): void; end(): void } {
  let drawn = false;
  return {
    update(progress) {
      const line = progressLine(progress);
      if (stream.isTTY) {
        stream.write(`\r${line}\u001b[K`);
        drawn = true;
      } else if (progress.status !== 'running') {
        stream.write(line + '\n');
      }
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}

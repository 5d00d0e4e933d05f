import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on CI's 2 cores. The suite spends
    // most of its time waiting on child processes, PostgreSQL and loopback HTTP, and it is kept
    // green with a second copy running beside it, so two workers halve the wall time safely.
    maxWorkers: 2,
  },
});

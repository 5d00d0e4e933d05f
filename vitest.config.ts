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
    // The type tests (*.test-d.ts) are checked by tsc, never run; their own tsconfig holds just
    // them (and what they import), so vitest does not check the whole project a second time.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.typetest.json' },
  },
});

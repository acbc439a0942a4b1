import { defineConfig } from 'vitest/config';

/**
 * The heavy suites of `npm run reliability` (scripts/reliability/run.ts): fault injection and the load run on
 * real Codex (test/reliability/), one file at a time (each drives many Codex processes itself). Not part of
 * `npm test` (vitest.config.ts leaves test/reliability out).
 */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default'],
  },
});

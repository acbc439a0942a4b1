import { defineConfig } from 'vitest/config';

/**
 * One runner for every layer: unit tests (no processes), integration tests (real `codex app-server`
 * from the pinned npm package, scripted model) and end-to-end tests (Chromium through playwright-core
 * against the headless host). Two workers: the machines have two cores and each real Codex turn
 * spawns a sandbox.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The heavy suites (fault injection, load) run by `npm run reliability` (vitest.reliability.config.ts).
    exclude: ['**/node_modules/**', 'test/reliability/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default'],
  },
});

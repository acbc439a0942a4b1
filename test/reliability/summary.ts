/**
 * The heavy suites' results for `npm run reliability` (scripts/reliability/run.ts): each suite writes one
 * JSON file into the folder named by the env `RELIABILITY_OUT` (nothing when it is unset), which the
 * script reads to write docs/reliability.md. Figures flow as data, never parsed from console output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One suite's summary: what ran, what was injected, what held (named counts), and the failures. */
export interface SuiteSummary {
  suite: string;
  title: string;
  /** Cases run (runs, turns, injected writes …). */
  cases: number;
  /** Faults injected, by kind. */
  faults: Record<string, number>;
  /** What held, as counts named in words ("0 lost"): label → value. */
  held: Record<string, number | string>;
  failures: string[];
  /** Free extra facts (seed, durations, memory). */
  facts: Record<string, number | string>;
  startedAt: string;
  finishedAt: string;
}

/** Writes `summary` to `$RELIABILITY_OUT/<suite>.json` when the env names a folder; answers the path or null. */
export function writeSummary(summary: SuiteSummary): string | null {
  const dir = process.env.RELIABILITY_OUT;
  if (!dir) return null;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${summary.suite}.json`);
  writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  return file;
}

/**
 * What every property test under test/properties shares: how many generated cases a property runs
 * (`FC_RUNS`, default 1000, raised by `npm run reliability`), the seed to replay (`FC_SEED`, optional),
 * and the one report line per property the reliability script collects: `[fc-cases] <file>:<property>
 * runs=<n> seed=<seed> ok=<bool>` on stdout and, when `RELIABILITY_OUT` names a folder, the file's summary
 * `<folder>/properties-<file>.json` (`{suite, cases, runs, failures, properties}`: cases generated, properties
 * run, properties failed), rewritten after each property. A failure throws fast-check's own report
 * (seed, path, counterexample) and what the failing case threw, so vitest shows it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** Cases per property: `FC_RUNS` (a whole number ≥ 1), else 1000. Throws on a malformed value. */
export function fcRuns(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FC_RUNS;
  if (raw === undefined || raw === '') return 1000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FC_RUNS must be a whole number of at least 1, not "${raw}"`);
  return n;
}

/**
 * A vitest timeout for a property whose case takes up to `perCaseMs` on a loaded machine: room for
 * `fcRuns()` cases (a larger `FC_RUNS` gets a longer bound), at least the suite's 120 s.
 */
export function fcTimeout(perCaseMs: number): number {
  return Math.max(120_000, fcRuns() * perCaseMs);
}

/** The seed to replay (`FC_SEED`, an integer), or undefined: fast-check picks one and reports it. */
export function fcSeed(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.FC_SEED;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`FC_SEED must be an integer, not "${raw}"`);
  return n;
}

/** One property's outcome as the reliability script reads it. */
export interface CaseReport {
  file: string;
  property: string;
  runs: number;
  seed: number;
  ok: boolean;
}

/** A test file's summary for the reliability script (`RELIABILITY_OUT`). */
export interface SuiteSummary {
  suite: string;
  cases: number;
  runs: number;
  failures: number;
  properties: CaseReport[];
}

/** The summary of `reports` (the properties one file ran so far). */
export function summary(suite: string, reports: readonly CaseReport[]): SuiteSummary {
  return {
    suite,
    cases: reports.reduce((n, r) => n + r.runs, 0),
    runs: reports.length,
    failures: reports.filter((r) => !r.ok).length,
    properties: [...reports],
  };
}

const reported = new Map<string, CaseReport[]>();

/**
 * Prints `r` (one `[fc-cases]` line) and, when `RELIABILITY_OUT` names a folder, rewrites
 * `properties-<file>.json` there with the summary of every property of `r.file` reported so far.
 */
export function reportCases(r: CaseReport, env: NodeJS.ProcessEnv = process.env): void {
  console.log(`[fc-cases] ${r.file}:${r.property} runs=${r.runs} seed=${r.seed} ok=${r.ok}`);
  const all = [...(reported.get(r.file) ?? []), r];
  reported.set(r.file, all);
  const out = env.RELIABILITY_OUT;
  if (!out) return;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `properties-${r.file}.json`), `${JSON.stringify(summary(r.file, all), null, 2)}\n`);
}

/** The parameters every property runs with (`numRuns` ≥ `FC_RUNS`, the replay seed); `extra` adds fast-check's own. */
export function fcParams<T>(extra: fc.Parameters<T> = {}): fc.Parameters<T> {
  const seed = fcSeed();
  return { numRuns: fcRuns(), ...(seed !== undefined ? { seed } : {}), ...extra };
}

/** fast-check's report (seed, path, counterexample) followed by what the failing case threw. */
function failure(report: string | undefined, cause: unknown): Error {
  const why = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
  return new Error(`${report ?? 'property failed'}\n\nThe counterexample failed with:\n${why}`, { cause });
}

/**
 * Runs the synchronous `property`, reports its case count and throws fast-check's report (seed,
 * counterexample, the error) when it failed.
 */
export function holds<Ts>(file: string, name: string, property: fc.IProperty<Ts>, extra: fc.Parameters<Ts> = {}): void {
  const details = fc.check(property, fcParams(extra));
  reportCases({ file, property: name, runs: details.numRuns, seed: details.seed, ok: !details.failed });
  if (details.failed) throw failure(fc.defaultReportMessage(details), details.errorInstance);
}

/** As `holds`, for an asynchronous property. */
export async function holdsAsync<Ts>(file: string, name: string, property: fc.IAsyncProperty<Ts>, extra: fc.Parameters<Ts> = {}): Promise<void> {
  const details = await fc.check(property, fcParams(extra));
  reportCases({ file, property: name, runs: details.numRuns, seed: details.seed, ok: !details.failed });
  if (details.failed) throw failure(await fc.asyncDefaultReportMessage(details), details.errorInstance);
}

/**
 * Codex killed (SIGKILL, by pid) at seeded random points of a turn, twenty runs on real Codex and the
 * scripted model (killHarness.ts says what each run checks). `KILL_SEED` fixes the seed (printed either way),
 * `KILL_RUNS` the number of runs, `KILL_POINTS` (comma-separated) the points drawn from. Run by
 * `npm run reliability` (vitest.reliability.config.ts), not by `npm test`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KILL_POINTS, killRun, pickPoints, type KillPoint, type KillRunResult } from './killHarness';
import { brief, writeSummary } from './summary';

const seed = Number(process.env.KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const runs = Number(process.env.KILL_RUNS ?? 20);
const allowed = (process.env.KILL_POINTS?.split(',').filter(Boolean) as KillPoint[] | undefined) ?? [...KILL_POINTS];
const points = pickPoints(seed, runs, allowed);
console.log(`kill runs: seed ${seed} (KILL_SEED=${seed} repeats them), points ${points.join(', ')}`);

const results: KillRunResult[] = [];
const failures: string[] = [];
const startedAt = new Date().toISOString();

afterAll(() => {
  const count = (p: (r: KillRunResult) => boolean) => results.filter(p).length;
  const faults: Record<string, number> = {};
  for (const r of results) faults[`kill -9 at ${r.point}`] = (faults[`kill -9 at ${r.point}`] ?? 0) + 1;
  writeSummary({
    suite: 'kill',
    title: 'Codex killed (SIGKILL) at random points of a turn',
    cases: points.length,
    faults,
    held: {
      'runs that held': `${results.length}/${points.length}`,
      'turns failed with their cause': count((r) => r.cause.length > 0),
      'approvals withdrawn': results.reduce((n, r) => n + r.approvalsWithdrawn, 0),
      'approvals left pending': results.reduce((n, r) => n + r.approvalsPending, 0),
      'processes seen before the kills': results.reduce((n, r) => n + r.processesBefore, 0),
      'processes left': results.reduce((n, r) => n + r.processesLeft, 0),
      'next message resumed the thread': count((r) => r.next === 'resumed'),
      'next message on a fresh session (told)': count((r) => r.next === 'fresh-session'),
      'prompts received twice': count((r) => r.maxDeliveries > 1),
    },
    failures,
    facts: {
      seed,
      points: points.join(', '),
      'median run (s)': results.length
        ? Math.round([...results].sort((a, b) => a.durationMs - b.durationMs)[Math.floor(results.length / 2)]!.durationMs / 100) / 10
        : 0,
      causes: [...new Set(results.map((r) => brief(r.cause, 240).replace(/\b\d+\b/g, 'N')))].join(' / '),
    },
    startedAt,
    finishedAt: new Date().toISOString(),
  });
});

describe(`Codex killed at random points (seed ${seed})`, () => {
  points.forEach((point, n) => {
    it(`run ${n + 1}/${points.length}: kill -9 at ${point}`, async () => {
      try {
        const r = await killRun(n + 1, point);
        results.push(r);
        expect(r.processesLeft).toBe(0);
      } catch (e) {
        failures.push(`run ${n + 1} (${point}): ${e instanceof Error ? e.message.slice(0, 400) : String(e)}`);
        throw e;
      }
    }, 400_000);
  });
});

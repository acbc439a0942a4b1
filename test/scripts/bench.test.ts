/**
 * The benchmark suite's own logic (scripts/bench): statistics, the Markdown it writes into
 * docs/benchmarks.md, the phase arithmetic of the turn-overhead and agent-start benchmarks, the bare
 * client's launch and the command line. No timing is asserted: these check arithmetic and text only.
 */
import { describe, expect, it } from 'vitest';
import {
  distribution,
  distributionTable,
  percentile,
  replaceSection,
  sectionOf,
  seriesTable,
  stats,
  summarySection,
  verdictLines,
} from '../../scripts/bench/benchmark';
import { ownStartMs, startPhases } from '../../scripts/bench/agentStart';
import { parseArgs } from '../../scripts/bench/run';
import { angeliaPhases, barePhases, bareLaunch, ownMs, PHASES } from '../../scripts/bench/turnOverhead';

describe('benchmark statistics', () => {
  it('computes min, median (mean of the middle two for an even count) and max', () => {
    expect(stats([5, 1, 3])).toEqual({ n: 3, min: 1, median: 3, max: 5 });
    expect(stats([4, 1, 3, 2])).toEqual({ n: 4, min: 1, median: 2.5, max: 4 });
    expect(stats([])).toBeUndefined();
  });

  it('takes percentiles by nearest rank: p99 of 200 samples is the 198th smallest', () => {
    const xs = Array.from({ length: 200 }, (_, i) => 200 - i); // 200 … 1, unsorted on purpose
    expect(percentile(xs, 99)).toBe(198);
    expect(percentile(xs, 50)).toBe(100);
    expect(percentile(xs, 100)).toBe(200);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3, 4], 25)).toBe(1);
    expect(() => percentile([], 50)).toThrow(/empty/);
    expect(() => percentile([1], 0)).toThrow(/\(0, 100\]/);
  });

  it('gives the distribution of a list, or undefined for none', () => {
    expect(distribution([3, 1, 2, 4])).toEqual({ n: 4, min: 1, p50: 2, p95: 4, p99: 4, max: 4, mean: 2.5 });
    expect(distribution([])).toBeUndefined();
  });
});

describe('the Markdown of docs/benchmarks.md', () => {
  it('replaces only its own section and appends a new one', () => {
    const doc = '# B\n\n<!-- bench:a:start -->\nold a\n<!-- bench:a:end -->\n\n<!-- bench:b:start -->\nb\n<!-- bench:b:end -->\n';
    const next = replaceSection(doc, 'a', 'new a');
    expect(next).toContain('<!-- bench:a:start -->\nnew a\n<!-- bench:a:end -->');
    expect(next).not.toContain('old a');
    expect(next).toContain('<!-- bench:b:start -->\nb\n<!-- bench:b:end -->');
    expect(replaceSection('# B\n', 'c', 'c body')).toBe('# B\n\n<!-- bench:c:start -->\nc body\n<!-- bench:c:end -->\n');
    expect(sectionOf(next, 'a')).toBe('\nnew a\n');
    expect(sectionOf(next, 'zz')).toBeUndefined();
  });

  it('shows an unmeasured series with its reason instead of figures', () => {
    const table = seriesTable([
      { label: 'A', samplesMs: [10, 30, 20], failures: [] },
      { label: 'B', samplesMs: [], failures: [], unavailable: 'no `run` command | yet' },
    ]);
    expect(table).toContain('| A | 3 | 10 | **20** | 30 |');
    expect(table).toContain('| B | 0 | – | – | – | not measured: no `run` command \\| yet |');
  });

  it('writes a distribution row with n, min, p50, p95, p99 and max, and a row with no samples', () => {
    const t = distributionTable([
      { label: 'x', xs: [1, 2, 3, 4, 100] },
      { label: 'none', xs: [] },
    ]);
    expect(t).toContain('| x | 5 | 1.0 | **3.0** | 100 | 100 | 100 |  |');
    expect(t).toContain('| none | 0 | – | – | – | – | – | no samples |');
  });

  it('states each target with PASS, MISS or NOT MEASURED, and gathers them in the summary', () => {
    const lines = verdictLines([
      { target: 't1 ≤ 2', measured: '1', pass: true },
      { target: 't2 ≤ 2', measured: '3', pass: false },
      { target: 't3', measured: 'nothing', pass: undefined },
    ]);
    expect(lines.split('\n')).toEqual([
      '- Target: t1 ≤ 2 — measured 1 → **PASS**',
      '- Target: t2 ≤ 2 — measured 3 → **MISS**',
      '- Target: t3 — measured nothing → **NOT MEASURED**',
    ]);
    const doc = replaceSection('# B\n', 'a', `## A\n\nMachine: x; measured 2026-01-02T03:04:05.678Z.\n\n${lines}\n\ntable`);
    const summary = summarySection(doc, [
      { id: 'a', title: 'Bench A' },
      { id: 'b', title: 'Bench B' },
    ]);
    expect(summary).toContain('**Bench A** (`a`, measured 2026-01-02T03:04:05.678Z)');
    expect(summary).toContain('- Target: t2 ≤ 2 — measured 3 → **MISS**');
    expect(summary).toContain('**Bench B** (`b`)\n\n- not run yet');
    // A --quick section says so in the summary too.
    const quick = replaceSection(
      doc,
      'b',
      `## B\n\nMachine: y; measured 2026-01-03T00:00:00.000Z.\n\n${lines}\n\n_Quick run (\`--quick\`): fewer samples than the full suite; figures for validation only._`,
    );
    const both = summarySection(quick, [
      { id: 'a', title: 'Bench A' },
      { id: 'b', title: 'Bench B' },
    ]);
    expect(both).toContain('**Bench B** (`b`, measured 2026-01-03T00:00:00.000Z, quick run: fewer samples, for validation only)');
    expect(both).toContain('**Bench A** (`a`, measured 2026-01-02T03:04:05.678Z)\n');
  });
});

describe('phases', () => {
  it('splits a probed `angelia run` into phases that add up to its wall time', () => {
    const marks = [
      ['probe', 100],
      ['spawn', 400],
      ['> initialize', 401],
      ['< initialize', 550],
      ['> config/read', 552],
      ['< config/read', 570],
      ['> configRequirements/read', 571],
      ['< configRequirements/read', 575],
      ['> thread/resume', 576],
      ['< thread/resume', 1600],
      ['> turn/start', 1605],
      ['< turn/start', 1700],
      ['turn/completed', 1900],
      ['codex exit', 1960],
      ['node exit', 1970],
    ].map(([name, at]) => ({ name: name as string, at: at as number }));
    const p = angeliaPhases(marks, 2000);
    expect(p).toEqual({ toSpawn: 400, initialize: 150, checks: 26, thread: 1024, toTurn: 5, turn: 295, codexExit: 60, nodeExit: 10, rest: 30, total: 2000 });
    const { total, ...parts } = p!;
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(total);
    expect(
      angeliaPhases(
        marks.filter((m) => m.name !== '> thread/resume'),
        2000,
      ),
    ).toBeUndefined();
  });

  it('splits a bare-client run the same way, with no checks', () => {
    const p = barePhases({ spawn: 120, initialize: 230, thread: 1700, turnStart: 1700, turnCompleted: 2000, codexExit: 2040, end: 2041 }, 2060);
    expect(p).toEqual({ toSpawn: 120, initialize: 110, checks: 0, thread: 1470, toTurn: 0, turn: 300, codexExit: 40, nodeExit: 1, rest: 19, total: 2060 });
    const { total, ...parts } = p;
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(total);
    expect(Object.keys(p)).toEqual([...PHASES]);
  });

  it("counts as Angelia's own time only the phases where the client works, not Codex", () => {
    const a = barePhases({ spawn: 120, initialize: 230, thread: 1700, turnStart: 1700, turnCompleted: 2000, codexExit: 2040, end: 2041 }, 2060);
    const b = { toSpawn: 400, initialize: 150, checks: 26, thread: 1024, toTurn: 5, turn: 295, codexExit: 60, nodeExit: 10, rest: 30, total: 2000 };
    // (400−120) + 26 + 5 + (60−40) + (10−1) + (30−19): Codex's initialize, thread and turn are left out.
    expect(ownMs(a, b)).toBe(280 + 26 + 5 + 20 + 9 + 11);
    expect(ownStartMs({ plan: 30, checks: 26, attest: 20 })).toBe(30 + 26 + 20);
  });

  it('splits an agent start into plan, spawn, requests and attestation', () => {
    const m = {
      t0: 0,
      startCalled: 30,
      initialized: 150,
      '> config/read': 151,
      '< config/read': 170,
      '> configRequirements/read': 171,
      '< configRequirements/read': 175,
      '> thread/start': 176,
      '< thread/start': 1600,
      done: 1620,
    };
    const p = startPhases(m)!;
    expect(p).toEqual({ plan: 30, spawnInit: 120, checks: 26, configRead: 19, requirements: 4, thread: 1424, attest: 20, total: 1620 });
    expect(p.plan + p.spawnInit + p.checks + p.thread + p.attest).toBe(p.total);
    expect(startPhases({ t0: 0, done: 5 })).toBeUndefined();
  });
});

describe('the bare client and the command line', () => {
  it('runs the bare client with exactly the compiled argv, env and CODEX_HOME', () => {
    const launch = bareLaunch(
      { profile: 'p', sandboxed: true, codexArgs: ['-c', 'a=1', '-c', 'b=2', 'app-server'], env: { XDG_CACHE_HOME: '/c' }, filesystem: {}, warnings: [] },
      '/home/codex',
      '/work/cwd',
      'hi',
    );
    expect(launch.args).toEqual(['-c', 'a=1', '-c', 'b=2', 'app-server']);
    expect(launch.cwd).toBe('/work/cwd');
    expect(launch.codexHome).toBe('/home/codex');
    expect(launch.prompt).toBe('hi');
    expect(launch.env.XDG_CACHE_HOME).toBe('/c');
    expect(launch.bin).toMatch(/codex(\.exe)?$/);
  });

  it('takes benchmark ids as words or --only, and refuses unknown ones', () => {
    expect(parseArgs(['turn-overhead', 'renderer'])).toMatchObject({ ids: ['turn-overhead', 'renderer'], runs: 7, write: true, build: true, quick: false });
    expect(parseArgs(['--only', 'host-ready', '--runs', '5', '--no-write', '--quick'])).toMatchObject({
      ids: ['host-ready'],
      runs: 5,
      write: false,
      quick: true,
    });
    expect(() => parseArgs(['nope'])).toThrow(/no benchmark named nope/);
    expect(() => parseArgs(['--runs', '1'])).toThrow(/--runs/);
    expect(() => parseArgs(['--frob'])).toThrow(/unknown argument --frob/);
  });
});

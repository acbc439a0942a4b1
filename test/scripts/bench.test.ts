import { describe, expect, it } from 'vitest';
import { replaceSection, seriesTable, stats } from '../../scripts/bench/benchmark';
import { angeliaPhases, bareLaunch } from '../../scripts/bench/turnOverhead';

describe('benchmark helpers', () => {
  it('computes min, median (mean of the middle two for an even count) and max', () => {
    expect(stats([5, 1, 3])).toEqual({ n: 3, min: 1, median: 3, max: 5 });
    expect(stats([4, 1, 3, 2])).toEqual({ n: 4, min: 1, median: 2.5, max: 4 });
    expect(stats([])).toBeUndefined();
  });

  it('replaces only its own section of docs/benchmarks.md and appends a new one', () => {
    const doc = '# B\n\n<!-- bench:a:start -->\nold a\n<!-- bench:a:end -->\n\n<!-- bench:b:start -->\nb\n<!-- bench:b:end -->\n';
    const next = replaceSection(doc, 'a', 'new a');
    expect(next).toContain('<!-- bench:a:start -->\nnew a\n<!-- bench:a:end -->');
    expect(next).not.toContain('old a');
    expect(next).toContain('<!-- bench:b:start -->\nb\n<!-- bench:b:end -->');
    expect(replaceSection('# B\n', 'c', 'c body')).toBe('# B\n\n<!-- bench:c:start -->\nc body\n<!-- bench:c:end -->\n');
  });

  it('shows an unmeasured series with its reason instead of figures', () => {
    const table = seriesTable([
      { label: 'A', samplesMs: [10, 30, 20], failures: [] },
      { label: 'B', samplesMs: [], failures: [], unavailable: 'no `run` command | yet' },
    ]);
    expect(table).toContain('| A | 3 | 10 | **20** | 30 |');
    expect(table).toContain('| B | 0 | – | – | – | not measured: no `run` command \\| yet |');
  });

  it('splits a probed `angelia run` into phases that add up to its wall time', () => {
    const marks = [
      ['probe', 100], ['spawn', 400], ['> initialize', 401], ['< initialize', 550], ['> config/read', 552], ['< config/read', 570],
      ['> thread/resume', 571], ['< thread/resume', 1600], ['> turn/start', 1605], ['< turn/start', 1700], ['turn/completed', 1900],
      ['codex exit', 1960], ['node exit', 1970],
    ].map(([name, at]) => ({ name: name as string, at: at as number }));
    const p = angeliaPhases(marks, 2000);
    expect(p).toEqual({
      nodeStart: 100, cliToSpawn: 300, initialize: 150, configRead: 18, thread: 1029, turn: 295,
      codexExit: 60, nodeExit: 10, between: 2 + 1 + 5, rest: 30, total: 2000, angeliaOnly: 100 + 300 + 18 + 10 + 8 + 30,
    });
    const { total, angeliaOnly: _, ...parts } = p!;
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(total);
    expect(angeliaPhases(marks.filter((m) => m.name !== '> config/read'), 2000)).toBeUndefined();
  });

  it('runs the bare client with exactly the compiled argv (minus app-server), env and CODEX_HOME', () => {
    const launch = bareLaunch(
      { profile: 'p', sandboxed: true, codexArgs: ['-c', 'a=1', '-c', 'b=2', 'app-server'], env: { XDG_CACHE_HOME: '/c' }, filesystem: {}, warnings: [] },
      '/home/codex',
      '/work/cwd',
    );
    expect(launch.args).toEqual(['-c', 'a=1', '-c', 'b=2']);
    expect(launch.cwd).toBe('/work/cwd');
    expect(launch.codexHome).toBe('/home/codex');
    expect(launch.env?.XDG_CACHE_HOME).toBe('/c');
    expect(launch.bin).toMatch(/codex(\.exe)?$/);
  });
});

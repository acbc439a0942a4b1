import { describe, expect, it } from 'vitest';
import { replaceSection, seriesTable, stats } from '../../scripts/bench/benchmark';

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
});

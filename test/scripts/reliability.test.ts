/** docs/reliability.md as scripts/reliability/report.ts writes it from the suites' JSON summaries (no suite runs here), and its sample lines. */
import { describe, expect, it } from 'vitest';
import { propertiesSummary, renderReport, suiteSection, type SuiteRun } from '../../scripts/reliability/report';
import { parseArgs } from '../../scripts/reliability/run';
import { brief, execOutputLine, type SuiteSummary } from '../reliability/summary';
import type { MachineInfo } from '../../scripts/bench/benchmark';

const machine: MachineInfo = {
  cpu: 'CPU',
  cores: 2,
  memGiB: 7.8,
  os: 'linux 6',
  node: 'v22.0.0',
  codex: 'codex-cli 0.171.0',
  angelia: '0.1.0',
  date: '2026-12-02T00:00:00.000Z',
};

const kill: SuiteSummary = {
  suite: 'kill',
  title: 'Codex killed',
  cases: 20,
  faults: { 'kill -9 at approval': 3 },
  held: { 'processes left': 0, 'prompts received twice': 0 },
  failures: [],
  facts: { seed: 7 },
  startedAt: 'a',
  finishedAt: 'b',
};

describe('suiteSection', () => {
  it.each<[string, SuiteRun, RegExp[]]>([
    [
      'held',
      { id: 'kill', command: 'KILL_SEED=7 npx vitest run k', exitCode: 0, seconds: 400, summary: kill },
      [/^## Codex killed$/m, /20 cases, 400 s .*\*\*HELD\*\*/, /\| kill -9 at approval \| 3 \|/, /\| processes left \| 0 \|/, /Failures: none\./, /seed: 7\./],
    ],
    [
      'a fact ending in a full stop gets no second one',
      { id: 'kill', command: 'c', exitCode: 0, seconds: 1, summary: { ...kill, facts: { seed: 7, causes: 'Codex exited. Restart it.' } } },
      [/seed: 7; causes: Codex exited\. Restart it\.\n/],
    ],
    [
      'failed test',
      { id: 'kill', command: 'c', exitCode: 1, seconds: 1, summary: { ...kill, failures: ['run 3 (approval): x | y'] } },
      [/\*\*FAILED\*\*/, /Failures \(1\):\n\n- run 3 \(approval\): x \| y/],
    ],
    [
      'no summary',
      { id: 'load', command: 'c', exitCode: 1, seconds: 2, summary: null },
      [/^## load$/m, /exit 1, 2 s\): \*\*FAILED\*\* — the suite wrote no summary\./],
    ],
  ])('%s', (_name, run, patterns) => {
    const text = suiteSection(run);
    for (const p of patterns) expect(text).toMatch(p);
  });
});

describe('propertiesSummary', () => {
  it('sums the files and names each failed property with its seed', () => {
    const s = propertiesSummary(
      [
        {
          suite: 'broker.property',
          cases: 30_000,
          runs: 3,
          failures: 0,
          properties: [{ file: 'broker.property', property: 'one answer', runs: 10_000, seed: 1, ok: true }],
        },
        {
          suite: 'table.property',
          cases: 10_000,
          runs: 1,
          failures: 1,
          properties: [{ file: 'table.property', property: 'round trip', runs: 10_000, seed: 42, ok: false }],
        },
      ],
      10_000,
      's',
      'f',
    );
    expect(s).toMatchObject({ cases: 40_000, title: 'Property tests (fast-check, FC_RUNS=10000)' });
    expect(s.held).toMatchObject({ 'property files': 2, 'properties run': 4, 'properties failed': 1, 'generated cases': 40_000 });
    expect(s.failures).toEqual(['table.property: round trip (seed 42; FC_SEED=42 replays it)']);
  });
});

describe('renderReport', () => {
  it('has the header, a summary line per suite, the machine and the load, then the sections', () => {
    const doc = renderReport(
      [{ id: 'kill', command: 'c', exitCode: 0, seconds: 1, summary: kill }],
      machine,
      'Load average: 1/2/3.',
      '# Reliability\n\nintro\n',
    );
    expect(doc).toMatch(
      /^# Reliability\n\nintro\n\n## Summary\n\n- \*\*Codex killed\*\* \(`kill`\): 20 cases → \*\*HELD\*\*\n\nMachine: CPU × 2 .*codex-cli 0\.171\.0.*\n\nLoad average: 1\/2\/3\.\n\n## Codex killed\n/,
    );
    expect(doc.endsWith('\n')).toBe(true);
  });
});

describe('parseArgs', () => {
  it.each<[string[], Partial<ReturnType<typeof parseArgs>>]>([
    [[], { suites: ['kill', 'disk', 'load', 'properties'], write: true, fcRuns: 10_000 }],
    [['load', '--fc-runs', '50', '--kill-seed', '3', '--no-write'], { suites: ['load'], fcRuns: 50, killSeed: 3, write: false }],
  ])('%j', (argv, want) => expect(parseArgs(argv)).toMatchObject(want));

  it.each([[['nope']], [['--fc-runs', '0']]])('refuses %j', (argv) => expect(() => parseArgs(argv)).toThrow());
});

describe('brief and execOutputLine: sample lines in the report are whole words', () => {
  it('drops the folders of absolute paths and cuts at a word with an ellipsis', () => {
    expect(brief('Codex did not start: codex app-server (/work/main/node_modules/@openai/codex-linux-x64/bin/codex) exited')).toBe(
      'Codex did not start: codex app-server (…/codex) exited',
    );
    const long = `${'word '.repeat(60)}end`;
    const cut = brief(long, 50);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(51);
    expect(
      cut
        .slice(0, -1)
        .split(' ')
        .every((w) => w === 'word'),
    ).toBe(true);
    expect(brief('a\n  b\tc')).toBe('a b c');
  });

  it("keeps only the exit code and the output of Codex's exec text", () => {
    const out =
      "Chunk ID: 595e9d\nWall time: 0.0000 seconds\nProcess exited with code 101\nOriginal token count: 125\nOutput:\nbwrap: Can't bind mount /bindfileeABjeO on /newroot/work/x/home/.claude.json: Unable to find it";
    expect(execOutputLine(out)).toBe("exit 101: bwrap: Can't bind mount /bindfileeABjeO on …/.claude.json: Unable to find it");
    expect(execOutputLine('plain text')).toBe('plain text');
  });
});

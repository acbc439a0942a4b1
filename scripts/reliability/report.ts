/**
 * docs/reliability.md from the heavy suites' JSON summaries (test/reliability/summary.ts `SuiteSummary`,
 * and the property tests' `properties-<file>.json`): pure, so the script's output is tested without
 * running a suite (test/scripts/reliability.test.ts). The layout follows docs/benchmarks.md: per suite what
 * ran, what was injected, what held as counts, the failures, and the machine, versions, load and date.
 */
import type { SuiteSummary } from '../../test/reliability/summary';
import { machineLine, type MachineInfo } from '../bench/benchmark';

/** One property file's summary as the property tests write it (test/properties/support.ts). */
export interface PropertyFileSummary {
  suite: string;
  cases: number;
  runs: number;
  failures: number;
  properties?: Array<{ file: string; property: string; runs: number; seed: number | string; ok: boolean }>;
}

/** One suite as run by the script: its summary (null when it wrote none), how it was run and how it ended. */
export interface SuiteRun {
  id: string;
  command: string;
  exitCode: number | null;
  seconds: number;
  summary: SuiteSummary | null;
}

/** The property files' summaries folded into one suite summary (cases summed, failed properties listed). */
export function propertiesSummary(files: PropertyFileSummary[], fcRuns: number, startedAt: string, finishedAt: string): SuiteSummary {
  const props = files.flatMap((f) => f.properties ?? []);
  const failed = props.filter((p) => !p.ok);
  return {
    suite: 'properties',
    title: `Property tests (fast-check, FC_RUNS=${fcRuns})`,
    cases: files.reduce((n, f) => n + f.cases, 0),
    faults: {},
    held: {
      'property files': files.length,
      'properties run': files.reduce((n, f) => n + f.runs, 0),
      'properties that held': props.length ? props.length - failed.length : files.reduce((n, f) => n + f.runs - f.failures, 0),
      'properties failed': files.reduce((n, f) => n + f.failures, 0),
      'generated cases': files.reduce((n, f) => n + f.cases, 0),
    },
    failures: failed.map((p) => `${p.file}: ${p.property} (seed ${p.seed}; FC_SEED=${p.seed} replays it)`),
    facts: { files: files.map((f) => f.suite).join(', ') },
    startedAt,
    finishedAt,
  };
}

const cell = (v: unknown): string => String(v).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The section of one suite: `## title`, the command, verdict, faults, what held, failures and facts. */
export function suiteSection(run: SuiteRun): string {
  const s = run.summary;
  const verdict = run.exitCode === 0 && s && s.failures.length === 0 ? 'HELD' : 'FAILED';
  if (!s) {
    return [`## ${run.id}`, '', `\`${run.command}\` (exit ${run.exitCode ?? 'killed'}, ${run.seconds} s): **FAILED** — the suite wrote no summary.`, ''].join(
      '\n',
    );
  }
  const lines = [
    `## ${s.title}`,
    '',
    `\`${run.command}\` — ${s.cases} cases, ${run.seconds} s (${s.startedAt} → ${s.finishedAt}), exit ${run.exitCode ?? 'killed'}: **${verdict}**.`,
    '',
  ];
  const faults = Object.entries(s.faults);
  if (faults.length) lines.push('| fault injected | count |', '|---|---|', ...faults.map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`), '');
  lines.push('| what held | figure |', '|---|---|', ...Object.entries(s.held).map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`), '');
  lines.push(s.failures.length ? `Failures (${s.failures.length}):\n\n${s.failures.map((f) => `- ${f}`).join('\n')}\n` : 'Failures: none.\n');
  const facts = Object.entries(s.facts);
  if (facts.length)
    lines.push(
      facts
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')
        .replace(/([^.])$/, '$1.'),
      '',
    );
  return lines.join('\n');
}

/** The whole document: header, the summary lines, the machine, then one section per suite. */
export function renderReport(runs: SuiteRun[], machine: MachineInfo, load: string, header: string): string {
  const summary = runs.map((r) => {
    const s = r.summary;
    const ok = r.exitCode === 0 && s !== null && s.failures.length === 0;
    return `- **${s?.title ?? r.id}** (\`${r.id}\`): ${s ? `${s.cases} cases` : 'no summary'} → **${ok ? 'HELD' : 'FAILED'}**`;
  });
  return [header.trim(), '', '## Summary', '', ...summary, '', machineLine(machine), '', load, '', ...runs.map(suiteSection)].join('\n').trimEnd() + '\n';
}

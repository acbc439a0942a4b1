/**
 * The shape every benchmark module shares, plus statistics and Markdown helpers. A benchmark is a module
 * exporting a `Benchmark`; `run.ts` lists the modules, runs them and writes each one's section of
 * `docs/benchmarks.md` (between `<!-- bench:<id>:start -->` and `<!-- bench:<id>:end -->` markers).
 */
import { execFileSync } from 'node:child_process';
import { cpus, platform, release, totalmem } from 'node:os';

/** Settings passed to every benchmark. */
export interface BenchContext {
  /** Measured runs per variant (default 7, at least 5). */
  runs: number;
  /** Repository root (absolute). */
  root: string;
  /** The `angelia` entry script to measure (default `<root>/bin/angelia.js`; `--angelia <path>`). */
  angeliaBin: string;
  /** The machine the figures were taken on. */
  machine: MachineInfo;
  /** Progress lines (stderr). */
  log(line: string): void;
}

/** One measured series: wall times in milliseconds, plus runs that failed (with why). */
export interface Series {
  label: string;
  samplesMs: number[];
  failures: string[];
  /** Shown instead of figures when the variant could not run at all. */
  unavailable?: string;
}

/** What a benchmark returns: its Markdown section body and a plain-text summary for the console. */
export interface BenchResult {
  markdown: string;
  summary: string;
}

/** A benchmark module. */
export interface Benchmark {
  /** Stable id (kebab-case): the section marker in docs/benchmarks.md and the `--only` name. */
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchResult>;
}

/** min / median / max of a list (milliseconds). */
export interface Stats { n: number; min: number; median: number; max: number }

/** Statistics of `xs`; undefined for an empty list. The median of an even count is the mean of the middle two. */
export function stats(xs: number[]): Stats | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  return { n: s.length, min: s[0] as number, median, max: s[s.length - 1] as number };
}

/** Milliseconds rounded for display (`412` or `3.4` below 10 ms). */
export function ms(x: number): string {
  return x < 10 ? x.toFixed(1) : String(Math.round(x));
}

/** A Markdown table of series: label, n, min, median, max, failures (or the reason a series was unavailable). */
export function seriesTable(series: Series[]): string {
  const rows = series.map((s) => {
    if (s.unavailable) return `| ${s.label} | 0 | – | – | – | not measured: ${s.unavailable.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`;
    const st = stats(s.samplesMs);
    const fail = s.failures.length ? `${s.failures.length} failed: ${s.failures[0]?.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 160)}` : '';
    return st ? `| ${s.label} | ${st.n} | ${ms(st.min)} | **${ms(st.median)}** | ${ms(st.max)} | ${fail} |` : `| ${s.label} | 0 | – | – | – | ${fail} |`;
  });
  return ['| run | n | min ms | median ms | max ms | notes |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The machine facts a figure depends on. */
export interface MachineInfo { cpu: string; cores: number; memGiB: number; os: string; node: string; codex: string; date: string }

/** Reads the machine facts; `codexBin --version` gives the Codex version. */
export function machineInfo(codexBin: string): MachineInfo {
  const list = cpus();
  let codex: string;
  try {
    codex = execFileSync(codexBin, ['--version'], { encoding: 'utf8' }).trim();
  } catch (e) {
    codex = `unknown (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
    codex,
    date: new Date().toISOString(),
  };
}

/** One Markdown line describing the machine. */
export function machineLine(m: MachineInfo): string {
  return `Machine: ${m.cpu} × ${m.cores} (os.cpus()), ${m.memGiB} GiB, ${m.os}; Node ${m.node}; ${m.codex}; measured ${m.date}.`;
}

/** Puts `body` between the benchmark's markers in `doc` (appending the section when it is new). */
export function replaceSection(doc: string, id: string, body: string): string {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) return `${doc.slice(0, a)}${section}${doc.slice(b + end.length)}`;
  return `${doc.trimEnd()}\n\n${section}\n`;
}

/**
 * The shape every benchmark module shares, plus statistics and Markdown helpers. A benchmark is a module
 * exporting a `Benchmark`; `run.ts` lists the modules, runs them and writes each one's section of
 * `docs/benchmarks.md` (between `<!-- bench:<id>:start -->` and `<!-- bench:<id>:end -->` markers).
 */
import { execFileSync } from 'node:child_process';
import { cpus, platform, release, totalmem } from 'node:os';

/** Settings passed to every benchmark. */
export interface BenchContext {
  /** Measured runs per variant (default 7, at least 3; `--runs N`). */
  runs: number;
  /** Run a short version (fewer samples, shorter streams) to validate the suite; the doc says so. */
  quick: boolean;
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

/** One target of a benchmark and whether the figure meets it (`pass` undefined: not measured). */
export interface Verdict {
  /** The target as stated, e.g. "turn overhead ≤ 1.02×". */
  target: string;
  /** The figure compared with it, e.g. "1.05× (median B / median A)". */
  measured: string;
  pass: boolean | undefined;
}

/** What a benchmark returns: its Markdown section body, a plain-text summary for the console and its verdicts. */
export interface BenchResult {
  markdown: string;
  summary: string;
  verdicts?: Verdict[];
}

/** A benchmark module. */
export interface Benchmark {
  /** Stable id (kebab-case): the section marker in docs/benchmarks.md and the `--only` name. */
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchResult>;
}

/** min / median / max of a list (milliseconds). */
export interface Stats {
  n: number;
  min: number;
  median: number;
  max: number;
}

/** Statistics of `xs`; undefined for an empty list. The median of an even count is the mean of the middle two. */
export function stats(xs: number[]): Stats | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  return { n: s.length, min: s[0] as number, median, max: s[s.length - 1] as number };
}

/** Distribution of a list: n, min, p50, p95, p99, max, mean (undefined for an empty list). */
export interface Distribution {
  n: number;
  min: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * The p-th percentile (0 < p ≤ 100) by the nearest-rank method: the smallest sample such that at least p %
 * of the samples are ≤ it (sorted[ceil(p/100 · n) − 1]). p99 of 200 samples is the 198th smallest.
 * Throws on an empty list or p outside (0, 100].
 */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) throw new Error('percentile of an empty list');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile: p must be in (0, 100], got ${p}`);
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] as number;
}

/** n, min, p50, p95, p99 (nearest rank), max and mean of `xs`; undefined when empty. */
export function distribution(xs: number[]): Distribution | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number): number => s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] as number;
  return {
    n: s.length,
    min: s[0] as number,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: s[s.length - 1] as number,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
}

/** PASS / MISS / NOT MEASURED, bold, for the doc. */
export function verdictWord(pass: boolean | undefined): string {
  return pass === undefined ? '**NOT MEASURED**' : pass ? '**PASS**' : '**MISS**';
}

/** Markdown lines "Target: … — measured … → PASS/MISS", one per verdict. */
export function verdictLines(vs: Verdict[]): string {
  return vs.map((v) => `- Target: ${v.target} — measured ${v.measured} → ${verdictWord(v.pass)}`).join('\n');
}

/** The load average (1 / 5 / 15 min, `os.loadavg()`) at the start and at the end of a benchmark, as one line. */
export function loadLine(start: number[], end: number[]): string {
  const f = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' / ');
  return `Load average (1 / 5 / 15 min, \`os.loadavg()\`): ${f(start)} at the start, ${f(end)} at the end (${cpus().length} cores).`;
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

/** A Markdown table of distributions: label, n, min, p50, p95, p99, max (ms), notes. */
export function distributionTable(rows: { label: string; xs: number[]; note?: string }[]): string {
  const out = rows.map((r) => {
    const d = distribution(r.xs);
    const note = (r.note ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
    return d
      ? `| ${r.label} | ${d.n} | ${ms(d.min)} | **${ms(d.p50)}** | ${ms(d.p95)} | ${ms(d.p99)} | ${ms(d.max)} | ${note} |`
      : `| ${r.label} | 0 | – | – | – | – | – | ${note || 'no samples'} |`;
  });
  return ['| series | n | min ms | p50 ms | p95 ms | p99 ms | max ms | notes |', '|---|---|---|---|---|---|---|---|', ...out].join('\n');
}

/** The machine facts a figure depends on. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memGiB: number;
  os: string;
  node: string;
  codex: string;
  angelia: string;
  date: string;
}

/** Reads the machine facts; `codexBin --version` gives the Codex version, `angeliaVersion` Angelia's (package.json). */
export function machineInfo(codexBin: string, angeliaVersion = 'unknown'): MachineInfo {
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
    angelia: angeliaVersion,
    date: new Date().toISOString(),
  };
}

/** One Markdown line describing the machine. */
/**
 * The opening lines of a section of docs/benchmarks.md, blank lines between: its `## title`, the machine,
 * the load average while it ran and the targets with PASS/MISS.
 */
export function sectionHead(title: string, machine: MachineInfo, load: string, verdicts: Verdict[]): string[] {
  return [`## ${title}`, '', machineLine(machine), '', load, '', verdictLines(verdicts), ''];
}

export function machineLine(m: MachineInfo): string {
  return `Machine: ${m.cpu} × ${m.cores} (os.cpus()), ${m.memGiB} GiB, ${m.os}; Node ${m.node}; ${m.codex}; Angelia ${m.angelia}; measured ${m.date}.`;
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

/** The body of a section of `doc` (between its markers), or undefined. */
export function sectionOf(doc: string, id: string): string | undefined {
  const start = `<!-- bench:${id}:start -->`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(`<!-- bench:${id}:end -->`);
  return a >= 0 && b > a ? doc.slice(a + start.length, b) : undefined;
}

/**
 * The summary section: every target line ("- Target: … → **PASS**") of every benchmark's section in `doc`,
 * under the benchmark's title, with the date the section was measured ("measured <ISO date>" of its
 * machine line) and, for a `--quick` run, that it was one. A benchmark without a section is listed as not run yet.
 */
export function summarySection(doc: string, benches: { id: string; title: string }[]): string {
  const lines = ['## Summary of the targets', ''];
  for (const b of benches) {
    const body = sectionOf(doc, b.id);
    const when = body?.match(/measured (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/)?.[1];
    const quick = body?.includes('_Quick run (`--quick`)') ? ', quick run: fewer samples, for validation only' : '';
    const targets = body ? body.split('\n').filter((l) => l.startsWith('- Target: ')) : [];
    lines.push(`**${b.title}** (\`${b.id}\`${when ? `, measured ${when}` : ''}${quick})`, '');
    if (!body) lines.push('- not run yet');
    else if (targets.length === 0) lines.push('- no verdict (see the section)');
    else lines.push(...targets);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

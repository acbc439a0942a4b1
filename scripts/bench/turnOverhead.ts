/**
 * Turn overhead: what Angelia adds around one Codex turn, with Codex doing the same work on both sides.
 * Interleaved runs of
 *  (A) the bare NDJSON client (test/fixtures/bareCodex.ts, in this process) running Codex the way Angelia
 *      does: the pinned codex (`resolveCodexBin`) with the profile's compiled `codexArgs` and `env` from
 *      `angelia compile <profile> --json`, the profile's cwd and the same CODEX_HOME → initialize →
 *      thread/resume of A's own thread → one scripted message turn → close stdin → exit;
 *  (B) `node bin/angelia.js run <profile> <prompt> --json` on a throw-away instance, same scripted model;
 *      it resumes the profile's chat thread (started by its warm-up), like every `angelia run` after the first.
 * A's thread is started by A's unmeasured warm-up (thread/start, no `sandbox` key, as Angelia sends for a
 * sandboxed profile) and is never B's. What B does and A does not is Angelia's cost: Node start-up, loading
 * the CLI, the table and launch plan, `config/read` (the config-layer check), the gaps between requests, and
 * shutting down. B runs with a preload (`--import`, see angeliaInstance.ts `PROBE_SOURCE`) that timestamps
 * Codex's spawn and each request on its stdio, giving B's phases; its own cost is a context row.
 * Two more context series: `node -e 0` (Node start-up) and `node bin/angelia.js version` (start-up +
 * loading the built CLI). Each figure is the wall time of one whole run, spawn to exit. One unmeasured
 * warm-up of each variant first.
 */
import { rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { resolveCodexBin } from '../../src/main/core/codex/resolve';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel } from '../../src/main/demo/scriptedModel';
import { runBareTurn, type BareTurnOptions, type BareTurnResult } from '../../test/fixtures/bareCodex';
import { prepareAngelia, PROBE_SOURCE, type CompiledLaunch, type ProbeMark } from './angeliaInstance';
import { machineLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series } from './benchmark';
import { failureReason, timeRun } from './proc';

const ANSWER = 'Benchmark answer from the scripted model.';
const PROMPT = 'Say something short.';

/** A's way of running Codex: everything `runBareTurn` needs except the prompt and the thread. */
type BareLaunch = Pick<BareTurnOptions, 'codexHome' | 'cwd' | 'bin' | 'args' | 'env'>;

/** The bare client's launch from the compiled profile: same executable, argv, cwd, environment and CODEX_HOME as Angelia's. */
export function bareLaunch(compiled: CompiledLaunch, codexHome: string, cwd: string): BareLaunch {
  const args = compiled.codexArgs.slice(0, -1); // BareCodex.spawn appends "app-server" itself
  const codex = resolveCodexBin(undefined, { env: process.env });
  // What Angelia's launch plan adds to the parent's environment: the compiled env and the npm shim's markers.
  const env: Record<string, string | undefined> = { ...compiled.env, ...codex.env };
  for (const k of codex.unsetEnv) env[k] = undefined;
  return { codexHome, cwd, bin: codex.path, args, env };
}

async function bareOnce(launch: BareLaunch, resume: string | undefined): Promise<{ ms: number; result?: BareTurnResult; error?: string }> {
  const t0 = performance.now();
  try {
    const result = await runBareTurn({ ...launch, prompt: PROMPT, ...(resume ? { resume } : {}) });
    const elapsed = performance.now() - t0;
    if (result.status !== 'completed' || result.text !== ANSWER) return { ms: elapsed, error: `turn ${result.status}: ${JSON.stringify(result.error ?? result.text).slice(0, 160)}` };
    return { ms: elapsed, result };
  } catch (e) {
    return { ms: performance.now() - t0, error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
}

/**
 * Phases of one probed `angelia run`, ms, from the probe's marks and the run's wall time; undefined when a
 * mark is missing. All but `total` and `angeliaOnly` add up to `total`; `angeliaOnly` sums the phases the
 * bare client has no counterpart for.
 */
export function angeliaPhases(marks: ProbeMark[], wallMs: number): Record<BPhase, number> | undefined {
  const at = (name: string): number | undefined => marks.find((m) => m.name === name)?.at;
  const names = ['probe', 'spawn', '< initialize', '> config/read', '< config/read', '> thread/resume', '< thread/resume', '> turn/start', 'turn/completed', 'codex exit', 'node exit'] as const;
  const t: Partial<Record<(typeof names)[number], number>> = {};
  for (const n of names) {
    const v = at(n);
    if (v === undefined) return undefined;
    t[n] = v;
  }
  const v = t as Record<(typeof names)[number], number>;
  const out: Record<BPhase, number> = {
    nodeStart: v.probe,
    cliToSpawn: v.spawn - v.probe,
    initialize: v['< initialize'] - v.spawn,
    configRead: v['< config/read'] - v['> config/read'],
    thread: v['< thread/resume'] - v['> thread/resume'],
    turn: v['turn/completed'] - v['> turn/start'],
    codexExit: v['codex exit'] - v['turn/completed'],
    nodeExit: v['node exit'] - v['codex exit'],
    between: (v['> config/read'] - v['< initialize']) + (v['> thread/resume'] - v['< config/read']) + (v['> turn/start'] - v['< thread/resume']),
    rest: wallMs - v['node exit'],
    total: wallMs,
    angeliaOnly: 0,
  };
  out.angeliaOnly = out.nodeStart + out.cliToSpawn + out.configRead + out.nodeExit + out.between + out.rest;
  return out;
}

type BPhase = 'nodeStart' | 'cliToSpawn' | 'initialize' | 'configRead' | 'thread' | 'turn' | 'codexExit' | 'nodeExit' | 'between' | 'rest' | 'total' | 'angeliaOnly';
type APhase = keyof BareTurnResult['durations'];

/** Rows of the side-by-side phase table: label, A's phase (if A has it), B's phase. */
const PHASE_ROWS: { label: string; a?: APhase; b: BPhase }[] = [
  { label: 'Node start-up (process start → preload ran)', b: 'nodeStart' },
  { label: 'load CLI, table, launch plan (→ codex spawned)', b: 'cliToSpawn' },
  { label: 'spawn codex + `initialize`', a: 'initializeMs', b: 'initialize' },
  { label: '`config/read` (Angelia\'s config-layer check)', b: 'configRead' },
  { label: '`thread/resume`', a: 'threadStartMs', b: 'thread' },
  { label: '`turn/start` → `turn/completed`', a: 'turnMs', b: 'turn' },
  { label: 'after the turn → codex exited', a: 'exitMs', b: 'codexExit' },
  { label: 'codex exited → Node `exit` event', b: 'nodeExit' },
  { label: 'between requests (Angelia\'s own handling)', b: 'between' },
  { label: 'rest (exec before Node\'s clock, reaping)', b: 'rest' },
  { label: 'total', a: 'totalMs', b: 'total' },
  { label: 'of which B-only phases (start-up, CLI/plan, config/read, between, Node exit, rest; summed per run)', b: 'angeliaOnly' },
];

/** Runs the benchmark; see the module docstring. */
async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const dir = await freshDir('bench-turn');
  const model = await startScriptedModel({ script: () => ({ message: ANSWER, chunks: 3 }) });
  try {
    const codexHome = join(dir, 'codex-home');
    await writeOfflineCodexHome(codexHome, { modelBaseUrl: model.baseUrl });
    const env = { ...process.env };
    const bin = ctx.angeliaBin;
    const probeFile = join(dir, 'context-probe.mjs');
    await writeFile(probeFile, PROBE_SOURCE);

    const A: Series = { label: '(A) bare client, Angelia\'s compiled codex launch: spawn → initialize → thread/resume → turn → exit', samplesMs: [], failures: [] };
    const shown = relative(ctx.root, bin);
    const B: Series = { label: `(B) \`node ${shown} run <profile> <prompt> --json\` (resumes the chat; with the phase probe)`, samplesMs: [], failures: [] };
    const N: Series = { label: 'context: `node -e 0` (Node start-up)', samplesMs: [], failures: [] };
    const P: Series = { label: 'context: `node --import <phase probe> -e 0` (start-up + B\'s probe)', samplesMs: [], failures: [] };
    const V: Series = { label: `context: \`node ${shown} version\` (start-up + CLI load)`, samplesMs: [], failures: [] };
    const aPhases: Record<APhase, number[]> = { initializeMs: [], threadStartMs: [], turnMs: [], exitMs: [], totalMs: [] };
    const bPhases = Object.fromEntries(PHASE_ROWS.map((r) => [r.b, [] as number[]])) as Record<BPhase, number[]>;
    let bUnprobed = 0;

    ctx.log('turn-overhead: instance setup and warm-ups');
    const instance = await prepareAngelia({ root: ctx.root, bin, dir, codexHome, profile: 'bench', prompt: PROMPT, expect: ANSWER });
    let launch: BareLaunch | undefined;
    let aThread: string | undefined;
    let aWarmStartMs: number | undefined;
    if (!instance.ok) {
      B.unavailable = instance.reason;
      A.unavailable = `needs the instance's compiled launch: ${instance.reason}`;
    } else {
      try {
        launch = bareLaunch(await instance.compile(), instance.codexHome, instance.cwd);
        const warm = await bareOnce(launch, undefined);
        if (warm.error || !warm.result) A.unavailable = `bare client failed: ${warm.error ?? 'no result'}`;
        else {
          aThread = warm.result.threadId;
          aWarmStartMs = warm.result.durations.threadStartMs;
        }
      } catch (e) {
        A.unavailable = e instanceof Error ? e.message.split('\n')[0] ?? e.message : String(e);
      }
    }
    const version = await timeRun(process.execPath, [bin, 'version'], { cwd: ctx.root, env });
    if (version.code !== 0) V.unavailable = failureReason(version);

    const doA = async (): Promise<void> => {
      if (A.unavailable || !launch || !aThread) return;
      const r = await bareOnce(launch, aThread);
      if (r.error || !r.result) A.failures.push(r.error ?? 'no result');
      else if (r.result.threadId !== aThread) A.failures.push(`thread/resume answered another thread (${r.result.threadId})`);
      else {
        A.samplesMs.push(r.ms);
        for (const k of Object.keys(aPhases) as APhase[]) aPhases[k].push(r.result.durations[k]);
      }
    };
    const doB = async (): Promise<void> => {
      if (!instance.ok) return;
      const r = await instance.run(PROMPT, { probe: true });
      if (r.code === 0 && r.stdout.includes(ANSWER)) {
        B.samplesMs.push(r.ms);
        const ph = angeliaPhases(r.marks, r.ms);
        if (ph) for (const k of Object.keys(bPhases) as BPhase[]) bPhases[k].push(ph[k]);
        else bUnprobed += 1;
      } else B.failures.push(failureReason(r));
    };
    const context = async (s: Series, args: string[]): Promise<void> => {
      const r = await timeRun(process.execPath, args, { cwd: ctx.root, env });
      if (r.code === 0) s.samplesMs.push(r.ms); else s.failures.push(failureReason(r));
    };
    for (let i = 0; i < ctx.runs; i += 1) {
      ctx.log(`turn-overhead: round ${i + 1}/${ctx.runs}`);
      if (i % 2 === 0) { await doA(); await doB(); } else { await doB(); await doA(); }
      await context(N, ['-e', '0']);
      await context(P, ['--import', pathToFileURL(probeFile).href, '-e', '0']);
      if (!V.unavailable) await context(V, [bin, 'version']);
    }

    const loadAtEnd = loadavg();
    const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' / ');
    const loadLine = `Load average (1 / 5 / 15 min, \`os.loadavg()\`): ${load(loadAtStart)} at the start, ${load(loadAtEnd)} at the end.`;
    const sa = stats(A.samplesMs);
    const sb = stats(B.samplesMs);
    const ratio = sa && sb ? `${(sb.median / sa.median).toFixed(2)}× (B ${ms(sb.median)} ms / A ${ms(sa.median)} ms, medians; B − A = ${ms(sb.median - sa.median)} ms)` : 'not available (one side was not measured)';
    const cell = (xs: number[] | undefined): string => {
      const s = xs ? stats(xs) : undefined;
      return s ? `**${ms(s.median)}** (${ms(s.min)}–${ms(s.max)})` : '–';
    };
    const phaseRows = PHASE_ROWS.map((r) => `| ${r.label} | ${r.a ? cell(aPhases[r.a]) : '–'} | ${cell(bPhases[r.b])} |`);
    const markdown = [
      `## Turn overhead: \`angelia run\` vs a bare app-server client`,
      '',
      machineLine(ctx.machine),
      '',
      `Method: ${ctx.runs} interleaved rounds (A/B order alternates each round) after one unmeasured warm-up of each; `
        + 'every figure is the wall time of one whole run, spawn to exit, in milliseconds. Both sides run the same Codex work: '
        + 'the pinned codex with the profile\'s compiled flags and environment (`angelia compile bench --json`: '
        + `${launch?.args?.length ?? '?'} arguments before \`app-server\`), the profile's cwd, the same CODEX_HOME written by \`writeOfflineCodexHome\` (outside /tmp) `
        + 'and the same scripted model (one message, 3 deltas); each side resumes its own thread (`thread/resume`), which its warm-up started '
        + '(`thread/start` without a `sandbox` key). A runs in the benchmark process (no Node start-up); B is a fresh `node` process, so its '
        + 'figure includes Node start-up, loading the CLI and Angelia\'s `config/read` check (see the context rows and phases). '
        + 'Other processes may share the machine, so the load average is given with the figures.',
      '',
      loadLine,
      '',
      seriesTable([A, B, N, P, V]),
      '',
      `Ratio B/A: ${ratio}.`,
      '',
      'By phase, ms: **median** (min–max). A\'s "spawn codex + initialize" includes spawning the process; B\'s phases come from '
        + 'the probe\'s timestamps (ms since Node\'s time origin) and add up to its total in each run (the medians need not).'
        + (bUnprobed ? ` ${bUnprobed} B run(s) had no complete probe marks and are left out of B's phases.` : ''),
      '',
      '| phase | (A) bare client | (B) `angelia run` |',
      '|---|---|---|',
      ...phaseRows,
      ...(aWarmStartMs !== undefined ? ['', `(A) warm-up \`thread/start\` with the compiled flags: ${ms(aWarmStartMs)} ms (one sample).`] : []),
      ...(instance.notes.length ? ['', `(B) instance setup: ${instance.notes.join('; ')}.`] : []),
    ].join('\n');
    const line = (s: Series): string => {
      const st = stats(s.samplesMs);
      return s.unavailable ? `${s.label}: NOT MEASURED — ${s.unavailable}` : st ? `${s.label}: median ${ms(st.median)} ms (min ${ms(st.min)}, max ${ms(st.max)}, n=${st.n}${s.failures.length ? `, ${s.failures.length} failed` : ''})` : `${s.label}: all ${s.failures.length} runs failed: ${s.failures[0] ?? ''}`;
    };
    const med = (xs: number[] | undefined): string => {
      const s = xs ? stats(xs) : undefined;
      return s ? ms(s.median) : '–';
    };
    const phaseSummary = PHASE_ROWS.map((r) => `  ${r.label}: A ${r.a ? med(aPhases[r.a]) : '–'} / B ${med(bPhases[r.b])}`);
    return { markdown, summary: [line(A), line(B), line(N), line(P), line(V), `ratio B/A: ${ratio}`, loadLine, 'phases (medians, ms):', ...phaseSummary].join('\n') };
  } finally {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The turn-overhead benchmark module. */
export const turnOverhead: Benchmark = { id: 'turn-overhead', title: 'Turn overhead (angelia run vs bare client)', run };

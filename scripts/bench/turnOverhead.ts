/**
 * Turn overhead: what Angelia adds around one Codex turn. Interleaved runs of
 *  (A) the bare NDJSON client (test/fixtures/bareCodex.ts, in this process): spawn `codex app-server` →
 *      initialize → thread/start → one scripted message turn → close stdin → exit;
 *  (B) `node bin/angelia.js run <profile> <prompt> --json` on a throw-away instance, same scripted model;
 * plus two context series: `node -e 0` (Node start-up, which B pays and A does not) and
 * `node bin/angelia.js version` (start-up + loading the built CLI). Each figure is the wall time of one
 * whole run, spawn to exit. One unmeasured warm-up of each variant first.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel } from '../../src/main/demo/scriptedModel';
import { runBareTurn, type BareTurnResult } from '../../test/fixtures/bareCodex';
import { prepareAngelia } from './angeliaInstance';
import { machineLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series } from './benchmark';
import { failureReason, timeRun } from './proc';

const ANSWER = 'Benchmark answer from the scripted model.';
const PROMPT = 'Say something short.';

type Phase = keyof BareTurnResult['durations'];

async function bareOnce(codexHome: string, cwd: string): Promise<{ ms: number; result?: BareTurnResult; error?: string }> {
  const t0 = performance.now();
  try {
    const result = await runBareTurn({ codexHome, cwd, prompt: PROMPT, thread: { sandbox: 'workspace-write' } });
    const elapsed = performance.now() - t0;
    if (result.status !== 'completed' || result.text !== ANSWER) return { ms: elapsed, error: `turn ${result.status}: ${JSON.stringify(result.error ?? result.text).slice(0, 160)}` };
    return { ms: elapsed, result };
  } catch (e) {
    return { ms: performance.now() - t0, error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
}

/** Runs the benchmark; see the module docstring. */
async function run(ctx: BenchContext): Promise<BenchResult> {
  const dir = await freshDir('bench-turn');
  const model = await startScriptedModel({ script: () => ({ message: ANSWER, chunks: 3 }) });
  try {
    const codexHome = join(dir, 'codex-home');
    const bareCwd = join(dir, 'bare-cwd');
    await mkdir(bareCwd);
    await writeOfflineCodexHome(codexHome, { modelBaseUrl: model.baseUrl });
    const env = { ...process.env };
    const bin = ctx.angeliaBin;

    const A: Series = { label: '(A) bare client: spawn → initialize → thread/start → turn → exit', samplesMs: [], failures: [] };
    const shown = relative(ctx.root, bin);
    const B: Series = { label: `(B) \`node ${shown} run <profile> <prompt> --json\``, samplesMs: [], failures: [] };
    const N: Series = { label: 'context: `node -e 0` (Node start-up)', samplesMs: [], failures: [] };
    const V: Series = { label: `context: \`node ${shown} version\` (start-up + CLI load)`, samplesMs: [], failures: [] };
    const phases: Record<Phase, number[]> = { initializeMs: [], threadStartMs: [], turnMs: [], exitMs: [], totalMs: [] };

    ctx.log('turn-overhead: warm-up and instance setup');
    const warm = await bareOnce(codexHome, bareCwd);
    if (warm.error) A.unavailable = `bare client failed: ${warm.error}`;
    const instance = await prepareAngelia({ root: ctx.root, bin, dir, codexHome, profile: 'bench', prompt: PROMPT, expect: ANSWER });
    if (!instance.ok) B.unavailable = instance.reason;
    const version = await timeRun(process.execPath, [bin, 'version'], { cwd: ctx.root, env });
    if (version.code !== 0) V.unavailable = failureReason(version);

    const doA = async (): Promise<void> => {
      if (A.unavailable) return;
      const r = await bareOnce(codexHome, bareCwd);
      if (r.error || !r.result) A.failures.push(r.error ?? 'no result');
      else {
        A.samplesMs.push(r.ms);
        for (const k of Object.keys(phases) as Phase[]) phases[k].push(r.result.durations[k]);
      }
    };
    const doB = async (): Promise<void> => {
      if (!instance.ok) return;
      const r = await instance.run(PROMPT);
      if (r.code === 0 && r.stdout.includes(ANSWER)) B.samplesMs.push(r.ms);
      else B.failures.push(failureReason(r));
    };
    for (let i = 0; i < ctx.runs; i += 1) {
      ctx.log(`turn-overhead: round ${i + 1}/${ctx.runs}`);
      if (i % 2 === 0) { await doA(); await doB(); } else { await doB(); await doA(); }
      const n = await timeRun(process.execPath, ['-e', '0'], { cwd: ctx.root, env });
      if (n.code === 0) N.samplesMs.push(n.ms); else N.failures.push(failureReason(n));
      if (!V.unavailable) {
        const v = await timeRun(process.execPath, [bin, 'version'], { cwd: ctx.root, env });
        if (v.code === 0) V.samplesMs.push(v.ms); else V.failures.push(failureReason(v));
      }
    }

    const sa = stats(A.samplesMs);
    const sb = stats(B.samplesMs);
    const ratio = sa && sb ? `${(sb.median / sa.median).toFixed(2)}× (B ${ms(sb.median)} ms / A ${ms(sa.median)} ms, medians; B − A = ${ms(sb.median - sa.median)} ms)` : 'not available (one side was not measured)';
    const phaseRows = (Object.keys(phases) as Phase[]).map((k) => {
      const s = stats(phases[k]);
      return s ? `| ${k.replace(/Ms$/, '')} | ${ms(s.min)} | **${ms(s.median)}** | ${ms(s.max)} |` : `| ${k} | – | – | – |`;
    });
    const markdown = [
      `## Turn overhead: \`angelia run\` vs a bare app-server client`,
      '',
      machineLine(ctx.machine),
      '',
      `Method: ${ctx.runs} interleaved rounds (A/B order alternates each round) after one unmeasured warm-up of each; `
        + 'every figure is the wall time of one whole run, spawn to exit, in milliseconds. Both sides use the same '
        + 'scripted model (one message, 3 deltas) and a CODEX_HOME written by `writeOfflineCodexHome` (outside /tmp). '
        + 'A runs in the benchmark process (no Node start-up); B is a fresh `node` process, so its figure includes Node start-up '
        + 'and loading the CLI (see the context rows).',
      '',
      seriesTable([A, B, N, V]),
      '',
      `Ratio B/A: ${ratio}.`,
      '',
      '(A) by phase (ms; initialize includes spawning the process):',
      '',
      '| phase | min | median | max |',
      '|---|---|---|---|',
      ...phaseRows,
      ...(instance.notes.length ? ['', `(B) instance setup: ${instance.notes.join('; ')}.`] : []),
    ].join('\n');
    const line = (s: Series): string => {
      const st = stats(s.samplesMs);
      return s.unavailable ? `${s.label}: NOT MEASURED — ${s.unavailable}` : st ? `${s.label}: median ${ms(st.median)} ms (min ${ms(st.min)}, max ${ms(st.max)}, n=${st.n}${s.failures.length ? `, ${s.failures.length} failed` : ''})` : `${s.label}: all ${s.failures.length} runs failed: ${s.failures[0] ?? ''}`;
    };
    return { markdown, summary: [line(A), line(B), line(N), line(V), `ratio B/A: ${ratio}`].join('\n') };
  } finally {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The turn-overhead benchmark module. */
export const turnOverhead: Benchmark = { id: 'turn-overhead', title: 'Turn overhead (angelia run vs bare client)', run };

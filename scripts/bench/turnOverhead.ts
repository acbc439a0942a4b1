/**
 * Turn overhead: what Angelia adds around one Codex turn, with Codex doing the same work on both sides and
 * BOTH sides a fresh Node process (so both pay Node's start-up). Interleaved runs of
 *  (A) `node scripts/bench/bareClient.mjs <launch.json>`: a minimal standalone NDJSON client (no
 *      TypeScript, no dependencies) that spawns the pinned codex with the profile's compiled `codexArgs`
 *      and `env` from `angelia compile <profile> --json`, the profile's cwd and the same CODEX_HOME →
 *      initialize → thread/resume of A's own thread → one scripted message turn → close stdin → exit;
 *  (B) `node bin/angelia.js run <profile> <prompt> --json` on a throw-away instance, same scripted model;
 *      it resumes the profile's chat thread (started by its warm-up), like every `angelia run` after the first.
 * A's thread is started by A's unmeasured warm-up (thread/start) and is never B's. What B does and A does
 * not is Angelia's cost: loading the CLI, the table and launch plan, `config/read` and
 * `configRequirements/read` (the config-layer check), the gaps between requests, shutting down. The ratio
 * is B / A. A third run per round (B′) adds a preload (`--import`, angeliaInstance.ts `PROBE_SOURCE`) that
 * timestamps Codex's spawn and each request on its stdio; A prints its own marks: the phases, side by side. Context series: `node -e 0`
 * (Node start-up), `node --import <probe> -e 0` (start-up + B's probe) and `node bin/angelia.js version`
 * (start-up + loading the built CLI). Each figure is the wall time of one whole run, spawn to exit.
 * One unmeasured warm-up of each variant first.
 */
import { rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveCodexBin } from '../../src/main/core/codex/resolve';
import { freshDir, writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { startScriptedModel } from '../../src/main/demo/scriptedModel';
import { prepareAngelia, PROBE_SOURCE, type CompiledLaunch, type ProbeMark } from './angeliaInstance';
import { sectionHead, loadLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series, type Verdict } from './benchmark';
import { failureReason, timeRun } from './proc';

const ANSWER = 'Benchmark answer from the scripted model.';
/** The profile B′ (the probed runs) uses: its own chat and thread. */
const PROBED = 'bench-probe';
const PROMPT = 'Say something short.';
/** The target for B/A (medians). */
export const TURN_TARGET = 1.02;

/** What `bareClient.mjs` reads: the compiled launch plus the prompt and the thread to resume. */
export interface BareLaunchFile {
  bin: string;
  /** Codex's whole argv after the executable, ending with "app-server". */
  args: string[];
  cwd: string;
  /** Added to the client's environment; null removes a variable. */
  env: Record<string, string | null>;
  codexHome: string;
  prompt: string;
  resume?: string;
  /** Extra thread/start|resume params (Angelia's, so both sides ask Codex for the same thing). */
  thread?: Record<string, unknown>;
  /** The child's whole environment (Angelia's, as the probe saw it) instead of this process's + `env`. */
  fullEnv?: Record<string, string>;
}

/**
 * The bare client's launch from the compiled profile: the same executable Angelia resolves, the same argv
 * (ending with "app-server"), cwd, CODEX_HOME and the environment Angelia adds (the compiled env and the
 * npm shim's markers; the variables the shim unsets are removed).
 */
export function bareLaunch(compiled: CompiledLaunch, codexHome: string, cwd: string, prompt = PROMPT): BareLaunchFile {
  const codex = resolveCodexBin(undefined, { env: process.env });
  const env: Record<string, string | null> = { ...compiled.env, ...codex.env };
  for (const k of codex.unsetEnv) env[k] = null;
  return { bin: codex.path, args: [...compiled.codexArgs], cwd, env, codexHome, prompt };
}

/** The phases both sides are split into, in order; all but `total` add up to `total` in each run. */
export const PHASES = ['toSpawn', 'initialize', 'checks', 'thread', 'toTurn', 'turn', 'codexExit', 'nodeExit', 'rest', 'total'] as const;
export type Phase = (typeof PHASES)[number];

const PHASE_LABEL: Record<Phase, string> = {
  toSpawn: 'process start → codex spawned (Node start-up, loading the code, the launch plan)',
  initialize: 'spawn → `initialize` answered',
  checks: '`initialize` answered → thread request sent (Angelia: `config/read`, `configRequirements/read`, checks)',
  thread: '`thread/resume` (Codex)',
  toTurn: 'thread answered → `turn/start` sent (Angelia: attestation, sessions)',
  turn: '`turn/start` → `turn/completed`',
  codexExit: 'turn completed → codex exited',
  nodeExit: "codex exited → the process's last mark (Angelia: Node `exit` event)",
  rest: 'last mark → the process reaped (exit, pipes closed)',
  total: 'total (spawn → exit, wall)',
};

/**
 * Phases of one probed `angelia run` (B), ms, from the probe's marks (ms since Node's time origin) and the
 * run's wall time; undefined when a mark is missing. `checks` spans config/read, configRequirements/read
 * and whatever Angelia does between them.
 */
export function angeliaPhases(marks: ProbeMark[], wallMs: number): Record<Phase, number> | undefined {
  const at = (name: string): number | undefined => marks.find((m) => m.name === name)?.at;
  const names = ['spawn', '< initialize', '> thread/resume', '< thread/resume', '> turn/start', 'turn/completed', 'codex exit', 'node exit'] as const;
  const t: Partial<Record<(typeof names)[number], number>> = {};
  for (const n of names) {
    const v = at(n);
    if (v === undefined) return undefined;
    t[n] = v;
  }
  const v = t as Record<(typeof names)[number], number>;
  return {
    toSpawn: v.spawn,
    initialize: v['< initialize'] - v.spawn,
    checks: v['> thread/resume'] - v['< initialize'],
    thread: v['< thread/resume'] - v['> thread/resume'],
    toTurn: v['> turn/start'] - v['< thread/resume'],
    turn: v['turn/completed'] - v['> turn/start'],
    codexExit: v['codex exit'] - v['turn/completed'],
    nodeExit: v['node exit'] - v['codex exit'],
    rest: wallMs - v['node exit'],
    total: wallMs,
  };
}

/** The marks `bareClient.mjs` prints (ms since its time origin). */
export interface BareMarks {
  spawn: number;
  initialize: number;
  thread: number;
  turnStart: number;
  turnCompleted: number;
  codexExit: number;
  end: number;
}

/** Phases of one bare-client run (A), from its marks and the run's wall time. */
export function barePhases(m: BareMarks, wallMs: number): Record<Phase, number> {
  return {
    toSpawn: m.spawn,
    initialize: m.initialize - m.spawn,
    checks: 0,
    thread: m.thread - m.initialize,
    toTurn: m.turnStart - m.thread,
    turn: m.turnCompleted - m.turnStart,
    codexExit: m.codexExit - m.turnCompleted,
    nodeExit: m.end - m.codexExit,
    rest: wallMs - m.end,
    total: wallMs,
  };
}

/** The phases in which Codex works (the same work on both sides); every other phase is the client's own. */
export const CODEX_PHASES: readonly Phase[] = ['initialize', 'thread', 'turn'];

/**
 * Angelia's own time in one round: the sum over the phases where the client, not Codex, works (all but
 * `CODEX_PHASES` and `total`) of B′'s phase minus A's (both include Node's start-up, which cancels).
 * Codex's own time, whose run-to-run spread on a loaded machine is larger than Angelia's cost, is left out.
 */
export function ownMs(a: Record<Phase, number>, b: Record<Phase, number>): number {
  return PHASES.filter((p) => p !== 'total' && !CODEX_PHASES.includes(p)).reduce((sum, p) => sum + (b[p] - a[p]), 0);
}

/** The duration of one request in the probe's marks (`> m` → `< m`), or undefined. */
function requestMs(marks: ProbeMark[], method: string): number | undefined {
  const a = marks.find((m) => m.name === `> ${method}`)?.at;
  const b = marks.find((m) => m.name === `< ${method}`)?.at;
  return a !== undefined && b !== undefined ? b - a : undefined;
}

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
    const bareScript = join(ctx.root, 'scripts', 'bench', 'bareClient.mjs');
    const launchFile = join(dir, 'bare-launch.json');

    const A: Series = {
      label: "(A) `node scripts/bench/bareClient.mjs` — bare NDJSON client, Angelia's compiled codex launch: spawn → initialize → thread/resume → turn → exit",
      samplesMs: [],
      failures: [],
    };
    const shown = relative(ctx.root, bin);
    const B: Series = { label: `(B) \`node ${shown} run <profile> <prompt> --json\` (resumes the chat)`, samplesMs: [], failures: [] };
    const BP: Series = { label: '(B′) the same with the phase probe (`--import probe`; its phases are below)', samplesMs: [], failures: [] };
    const N: Series = { label: 'context: `node -e 0` (Node start-up)', samplesMs: [], failures: [] };
    const P: Series = { label: "context: `node --import <phase probe> -e 0` (start-up + B's probe)", samplesMs: [], failures: [] };
    const V: Series = { label: `context: \`node ${shown} version\` (start-up + CLI load)`, samplesMs: [], failures: [] };
    const aPhases = Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<Phase, number[]>;
    const bPhases = Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<Phase, number[]>;
    const bConfigRead: number[] = [];
    const bRequirements: number[] = [];
    let bUnprobed = 0;
    // Probed runs whose Codex was spawned more than once: the early start was not adopted (killed, spawned afresh).
    let bNotAdopted = 0;
    const pairedRatios: number[] = [];
    const own: number[] = [];

    ctx.log('turn-overhead: instance setup and warm-ups');
    // B′ runs on its own profile (own chat and thread), so each thread gains one turn a round, A's included.
    const instance = await prepareAngelia({ root: ctx.root, bin, dir, codexHome, profile: 'bench', extraProfiles: [PROBED], prompt: PROMPT, expect: ANSWER });
    let launch: BareLaunchFile | undefined;
    let threadParamKeys: string[] = [];
    let spawnedExactly = false;
    if (!instance.ok) {
      B.unavailable = instance.reason;
      A.unavailable = `needs the instance's compiled launch: ${instance.reason}`;
    } else {
      try {
        launch = bareLaunch(await instance.compile(), instance.codexHome, instance.cwd);
        // A sends exactly the thread parameters Angelia sends (a probed warm-up of B shows them).
        const probedWarm = await instance.run(PROMPT, { probe: true });
        // …and spawns exactly the child Angelia spawned: its argv (the launch plan adds the chat's mailbox
        // and the launch scan's deny entries to what \`compile --json\` shows), cwd and environment.
        if (probedWarm.spawned) {
          launch.bin = probedWarm.spawned.cmd;
          launch.args = probedWarm.spawned.args;
          launch.cwd = probedWarm.spawned.cwd;
          launch.fullEnv = probedWarm.spawned.env;
          spawnedExactly = true;
        }
        const resumeParams = probedWarm.requests.find((r) => r.method === 'thread/resume')?.params;
        if (resumeParams) {
          const { threadId: _threadId, ...rest } = resumeParams;
          launch.thread = rest;
          threadParamKeys = Object.keys(rest);
        }
        const warmProbed = await instance.run(PROMPT, { probe: true, profile: PROBED });
        if (warmProbed.code !== 0) BP.unavailable = `\`angelia run ${PROBED}\` failed: ${failureReason(warmProbed)}`;
        await writeFile(launchFile, JSON.stringify(launch));
        const warm = await timeRun(process.execPath, [bareScript, launchFile], { cwd: ctx.root, env });
        const out = JSON.parse(warm.stdout.trim().split('\n').pop() || '{}') as { ok?: boolean; threadId?: string; error?: string };
        if (!out.ok || !out.threadId) A.unavailable = `bare client failed: ${out.error ?? failureReason(warm)}`;
        else {
          launch.resume = out.threadId;
          await writeFile(launchFile, JSON.stringify(launch));
        }
      } catch (e) {
        A.unavailable = e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e);
      }
    }
    const version = await timeRun(process.execPath, [bin, 'version'], { cwd: ctx.root, env });
    if (version.code !== 0) V.unavailable = failureReason(version);

    const doA = async (): Promise<Record<Phase, number> | undefined> => {
      if (A.unavailable || !launch?.resume) return undefined;
      const r = await timeRun(process.execPath, [bareScript, launchFile], { cwd: ctx.root, env });
      let out: { ok?: boolean; threadId?: string; text?: string; error?: string; marks?: BareMarks } = {};
      try {
        out = JSON.parse(r.stdout.trim().split('\n').pop() || '{}') as typeof out;
      } catch {
        // reported below
      }
      if (r.code !== 0 || !out.ok || !out.marks) A.failures.push(out.error ?? failureReason(r));
      else if (out.text !== ANSWER) A.failures.push(`unexpected answer ${JSON.stringify(out.text).slice(0, 80)}`);
      else if (out.threadId !== launch.resume) A.failures.push(`thread/resume answered another thread (${out.threadId})`);
      else {
        A.samplesMs.push(r.ms);
        const ph = barePhases(out.marks, r.ms);
        for (const k of PHASES) aPhases[k].push(ph[k]);
        return ph;
      }
      return undefined;
    };
    const doB = async (): Promise<number | undefined> => {
      if (!instance.ok) return undefined;
      const r = await instance.run(PROMPT);
      if (r.code === 0 && r.stdout.includes(ANSWER)) {
        B.samplesMs.push(r.ms);
        return r.ms;
      }
      B.failures.push(failureReason(r));
      return undefined;
    };
    const doBProbed = async (): Promise<Record<Phase, number> | undefined> => {
      if (!instance.ok || BP.unavailable) return undefined;
      const r = await instance.run(PROMPT, { probe: true, profile: PROBED });
      if (r.code === 0 && r.stdout.includes(ANSWER)) {
        BP.samplesMs.push(r.ms);
        // Phases only from runs that used their early Codex: another run's first "codex exit" is the killed early child's.
        const spawns = r.marks.filter((m) => m.name === 'spawn').length;
        if (spawns > 1) bNotAdopted += 1;
        const ph = spawns === 1 ? angeliaPhases(r.marks, r.ms) : undefined;
        if (ph) for (const k of PHASES) bPhases[k].push(ph[k]);
        else if (spawns <= 1) bUnprobed += 1;
        const c = requestMs(r.marks, 'config/read');
        const q = requestMs(r.marks, 'configRequirements/read');
        if (c !== undefined) bConfigRead.push(c);
        if (q !== undefined) bRequirements.push(q);
        return ph;
      }
      BP.failures.push(failureReason(r));
      return undefined;
    };
    const context = async (s: Series, args: string[]): Promise<void> => {
      const r = await timeRun(process.execPath, args, { cwd: ctx.root, env });
      if (r.code === 0) s.samplesMs.push(r.ms);
      else s.failures.push(failureReason(r));
    };
    for (let i = 0; i < ctx.runs; i += 1) {
      ctx.log(`turn-overhead: round ${i + 1}/${ctx.runs}`);
      let a: Record<Phase, number> | undefined;
      let b: number | undefined;
      if (i % 2 === 0) {
        a = await doA();
        b = await doB();
      } else {
        b = await doB();
        a = await doA();
      }
      const bp = await doBProbed();
      if (a && b !== undefined) pairedRatios.push(b / a.total);
      if (a && bp) own.push(ownMs(a, bp));
      await context(N, ['-e', '0']);
      await context(P, ['--import', pathToFileURL(probeFile).href, '-e', '0']);
      if (!V.unavailable) await context(V, [bin, 'version']);
    }

    const load = loadLine(loadAtStart, loadavg());
    const sa = stats(A.samplesMs);
    const sb = stats(B.samplesMs);
    const ratioValue = sa && sb ? sb.median / sa.median : undefined;
    const ratio =
      sa && sb && ratioValue !== undefined
        ? `${ratioValue.toFixed(3)}× (B ${ms(sb.median)} ms / A ${ms(sa.median)} ms, medians; B − A = ${ms(sb.median - sa.median)} ms)`
        : 'not available (one side was not measured)';
    const probeCost = stats(P.samplesMs) && stats(N.samplesMs) ? (stats(P.samplesMs)?.median ?? 0) - (stats(N.samplesMs)?.median ?? 0) : undefined;
    const sp = stats(pairedRatios);
    const so = stats(own);
    const cliLoad = stats(V.samplesMs) && stats(N.samplesMs) ? (stats(V.samplesMs)?.median ?? 0) - (stats(N.samplesMs)?.median ?? 0) : undefined;
    const verdicts: Verdict[] = [
      {
        target: `\`angelia run\` / bare NDJSON client ≤ ${TURN_TARGET}× (medians)`,
        measured: ratioValue !== undefined ? `${ratioValue.toFixed(3)}×` : 'nothing',
        pass: ratioValue !== undefined ? ratioValue <= TURN_TARGET : undefined,
      },
    ];
    const cell = (xs: number[]): string => {
      const s = stats(xs);
      return s ? `**${ms(s.median)}** (${ms(s.min)}–${ms(s.max)})` : '–';
    };
    const diff = (p: Phase): string => {
      const a = stats(aPhases[p]);
      const b = stats(bPhases[p]);
      return a && b ? ms(b.median - a.median) : '–';
    };
    const phaseRows = PHASES.map((p) => `| ${PHASE_LABEL[p]} | ${cell(aPhases[p])} | ${cell(bPhases[p])} | ${diff(p)} |`);
    const markdown = [
      ...sectionHead('Turn overhead: `angelia run` vs a bare NDJSON client', ctx.machine, load, verdicts),
      `Method: ${ctx.runs} interleaved rounds (A/B order alternates each round) after one unmeasured warm-up of each; ` +
        'every figure is the wall time of one whole run, spawn to exit, in milliseconds (min, **median**, max). Both sides are a fresh `node` process ' +
        'and run the same Codex work: the pinned codex with ' +
        (spawnedExactly
          ? 'exactly the argv, cwd and environment Angelia spawned it with (seen by the probe in a warm-up of B'
          : "the profile's compiled flags and environment (`angelia compile bench --json`") +
        `: ${launch ? launch.args.length - 1 : '?'} arguments before \`app-server\`), the profile's cwd, the same CODEX_HOME written by \`writeOfflineCodexHome\` (outside /tmp) ` +
        'and the same scripted model (one message, 3 deltas); each side resumes its own thread (`thread/resume`), which its warm-up started, ' +
        `with the same parameters (A sends Angelia's, seen by the probe: ${threadParamKeys.length ? threadParamKeys.map((k) => `\`${k}\``).join(', ') : 'not captured'}); ` +
        'B′ has a profile (chat, thread) of its own, so every thread grows by one turn a round. ' +
        'A is `scripts/bench/bareClient.mjs`: plain JavaScript, Node built-ins only. The ratio compares A with B as a user runs it; a third run each round, B′, ' +
        "carries a preload that timestamps its codex child's stdio for the phase table (its own cost: the two `-e 0` context rows differ by " +
        `${probeCost !== undefined ? `${ms(probeCost)} ms` : '?'}, median). ` +
        'Other processes may share the machine: see the load average.',
      '',
      seriesTable([A, B, BP, N, P, V]),
      '',
      `Ratio B/A: ${ratio}. Paired, round by round (B / A of the same round): median ${sp ? `${sp.median.toFixed(3)}× (${sp.min.toFixed(3)}–${sp.max.toFixed(3)}, n=${sp.n})` : '–'}.`,
      '',
      `Angelia's own time per run (B′ − A over the phases where the client works, not Codex; see \`ownMs\`): median ${so ? `**${ms(so.median)} ms** (${ms(so.min)}–${ms(so.max)}, n=${so.n})` : '–'}` +
        (so && sa
          ? `, i.e. ${((sa.median + so.median) / sa.median).toFixed(3)}× of A's median if Codex's own time were the same on both sides (it varies by more than that from run to run on a loaded machine).`
          : '.') +
        ` Of it, loading the CLI (\`version\` − \`node -e 0\`, medians): ${cliLoad !== undefined ? `${ms(cliLoad)} ms` : '–'}; the rest of "process start → codex spawned" is the table, the launch plan ` +
        '(compile facts, launch guard, mailbox, tokens) and the orchestrator; then the config checks, the attestation and sessions write, and the shutdown.' +
        (sa && so
          ? ` The target leaves ${ms((TURN_TARGET - 1) * sa.median)} ms (${Math.round((TURN_TARGET - 1) * 100)} % of A's median) for all of that; ` +
            `the part before codex is spawned alone (B′ − A of the first phase, medians) is ${diff('toSpawn')} ms: Node loading and compiling the code that builds and ` +
            'checks the sandbox (the table schema, the compiler, the launch guard, the JSON-RPC client; zod schemas are built as their modules load) before Codex can be asked anything.'
          : ''),
      '',
      "By phase, ms: **median** (min–max); the last column is the difference of the medians. Both sides' phases come from timestamps " +
        "taken in the process (ms since its `performance.timeOrigin`; the first phase therefore includes Node's start-up) and add up to the total in each run." +
        (bUnprobed ? ` ${bUnprobed} B run(s) had no complete probe marks and are left out of B's phases.` : '') +
        ` Codex started early (core/codex/prespawn.ts) and adopted in ${BP.samplesMs.length - bNotAdopted} of ${BP.samplesMs.length} probed runs` +
        (bNotAdopted ? ` (the other ${bNotAdopted} spawned Codex twice and are left out of B's phases)` : '') +
        '.',
      '',
      '| phase | (A) bare client | (B′) `angelia run`, probed | B′ − A |',
      '|---|---|---|---|',
      ...phaseRows,
      '',
      `Inside B's checks: \`config/read\` ${cell(bConfigRead)} ms, \`configRequirements/read\` ${cell(bRequirements)} ms (request → answer).`,
      ...(instance.ok && instance.notes.length ? ['', `(B) instance setup: ${instance.notes.join('; ')}.`] : []),
    ].join('\n');
    const line = (s: Series): string => {
      const st = stats(s.samplesMs);
      return s.unavailable
        ? `${s.label}: NOT MEASURED — ${s.unavailable}`
        : st
          ? `${s.label}: median ${ms(st.median)} ms (min ${ms(st.min)}, max ${ms(st.max)}, n=${st.n}${s.failures.length ? `, ${s.failures.length} failed: ${s.failures[0]}` : ''})`
          : `${s.label}: all ${s.failures.length} runs failed: ${s.failures[0] ?? ''}`;
    };
    const med = (xs: number[]): string => {
      const s = stats(xs);
      return s ? ms(s.median) : '–';
    };
    const phaseSummary = PHASES.map((p) => `  ${PHASE_LABEL[p]}: A ${med(aPhases[p])} / B ${med(bPhases[p])}`);
    return {
      markdown,
      verdicts,
      summary: [
        line(A),
        line(B),
        line(BP),
        line(N),
        line(P),
        line(V),
        `ratio B/A: ${ratio}; paired median ${sp ? sp.median.toFixed(3) : '–'}; Angelia's own time median ${so ? ms(so.median) : '–'} ms`,
        load,
        'phases (medians, ms):',
        ...phaseSummary,
      ].join('\n'),
    };
  } finally {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The turn-overhead benchmark module. */
export const turnOverhead: Benchmark = { id: 'turn-overhead', title: 'Turn overhead (angelia run vs bare client)', run };

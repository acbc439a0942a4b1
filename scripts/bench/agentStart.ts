/**
 * Agent start: Angelia's whole start of an agent against a bare start of the same Codex, both in this
 * process, interleaved.
 *  (A) bare: spawn the pinned codex with EXACTLY the spawn spec Angelia's launch plan produced (executable,
 *      argv with the compiled `-c` flags, cwd, environment; rpcChild.ts) → `initialize` + `initialized` →
 *      `thread/start` with exactly the thread parameters Angelia sent (developer instructions, approval
 *      policy, …) → answered. Nothing else.
 *  (B) Angelia: `chat.restart()` on a new chat of the profile (`Orchestrator.createChat`, so a fresh
 *      session and `thread/start`), the code path every first message takes: the launch plan (table,
 *      compile facts, launch guard, mailbox, tokens), spawn (recorded in children.json), `initialize`,
 *      `config/read` + `configRequirements/read` and the config-layer checks, `thread/start`, the
 *      attestation of the answer and the sessions store → resolved.
 * The orchestrator is created once (as the app does at start-up) and is not timed; each B sample is a new
 * chat. Processes are stopped after each sample, outside the timing. One unmeasured warm-up of each.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import type { CodexConnection } from '../../src/main/core/codex/connection';
import { startCodexClient, type CodexStartSpec } from '../../src/main/core/codex/start';
import { makeInstance } from '../../test/fixtures/instance';
import { sectionHead, loadLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series, type Verdict } from './benchmark';
import { RpcChild, type SpawnSpec } from './rpcChild';

/** The target for B/A (medians). */
export const START_TARGET = 1.1;

type Marks = Record<string, number>;

/** B's phases (ms) from its marks; undefined when one is missing. plan + spawnInit + checks + thread + attest = total. */
export function startPhases(
  m: Marks,
): Record<'plan' | 'spawnInit' | 'checks' | 'configRead' | 'requirements' | 'thread' | 'attest' | 'total', number> | undefined {
  const need = [
    't0',
    'startCalled',
    'initialized',
    '> config/read',
    '< config/read',
    '> configRequirements/read',
    '< configRequirements/read',
    '> thread/start',
    '< thread/start',
    'done',
  ];
  if (need.some((k) => m[k] === undefined)) return undefined;
  const v = (k: string): number => m[k] as number;
  return {
    plan: v('startCalled') - v('t0'),
    spawnInit: v('initialized') - v('startCalled'),
    checks: v('> thread/start') - v('initialized'),
    configRead: v('< config/read') - v('> config/read'),
    requirements: v('< configRequirements/read') - v('> configRequirements/read'),
    thread: v('< thread/start') - v('> thread/start'),
    attest: v('done') - v('< thread/start'),
    total: v('done') - v('t0'),
  };
}

/**
 * Angelia's own time in one start: its launch plan, its config checks and the attestation with the
 * sessions write. Spawn + `initialize` and `thread/start` are Codex's work on both sides and are left out
 * (their run-to-run spread on a loaded machine is larger than Angelia's whole cost).
 */
export function ownStartMs(b: { plan: number; checks: number; attest: number }): number {
  return b.plan + b.checks + b.attest;
}

const B_ROWS: { key: keyof NonNullable<ReturnType<typeof startPhases>>; label: string }[] = [
  { key: 'plan', label: 'launch plan (restart() → startCodex called)' },
  { key: 'spawnInit', label: 'spawn + `initialize` (CodexClient.start)' },
  { key: 'checks', label: 'config checks (`initialize` answered → `thread/start` sent)' },
  { key: 'configRead', label: '  of which `config/read` (request → answer)' },
  { key: 'requirements', label: '  of which `configRequirements/read` (request → answer; sent with config/read)' },
  { key: 'thread', label: '`thread/start` (request → answer)' },
  { key: 'attest', label: 'attestation, sessions, state (answer → restart() resolved)' },
  { key: 'total', label: 'total' },
];

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const inst = await makeInstance({ bench: { permission_mode: 'default' } }, { privateHome: true });
  let orch: Orchestrator | null = null;
  const live: RpcChild[] = [];
  try {
    let marks: Marks = {};
    const now = (): number => performance.now();
    let spec: SpawnSpec | undefined;
    let threadParams: unknown;
    const startCodex = async (s: CodexStartSpec): Promise<CodexConnection> => {
      marks.startCalled = now();
      // The latest start's spec: the launch scan denies each file Codex keeps in CODEX_HOME, so a spec from
      // before Codex first wrote there has fewer sandbox entries and starts faster (measured ~+300 ms).
      spec = { bin: s.bin, args: [...s.args], cwd: s.cwd, env: { ...s.env } };
      const conn = await startCodexClient(s);
      marks.initialized = now();
      const request = conn.request.bind(conn) as CodexConnection['request'];
      const timed: CodexConnection['request'] = async (method, params, opts) => {
        marks[`> ${method}`] = now();
        if (method === 'thread/start') threadParams ??= params;
        try {
          return await request(method, params, opts);
        } finally {
          marks[`< ${method}`] = now();
        }
      };
      Object.defineProperty(conn, 'request', { value: timed, configurable: true, writable: true });
      return conn;
    };
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex, audit: memoryAudit(), watchTable: false });
    const o = orch;

    const A: Series = { label: "(A) bare: spawn → `initialize` → `thread/start` (Angelia's spawn spec and thread parameters)", samplesMs: [], failures: [] };
    const B: Series = {
      label: '(B) Angelia: `chat.restart()` on a new chat — plan, spawn, initialize, config/read, configRequirements/read, thread/start, attestation',
      samplesMs: [],
      failures: [],
    };
    const aPhase = { spawnInit: [] as number[], thread: [] as number[] };
    const bPhase = Object.fromEntries(B_ROWS.map((r) => [r.key, [] as number[]])) as Record<(typeof B_ROWS)[number]['key'], number[]>;

    const doB = async (record: boolean): Promise<ReturnType<typeof startPhases>> => {
      const chat = o.createChat('bench');
      marks = { t0: now() };
      let ok = false;
      try {
        ok = await chat.restart();
      } catch (e) {
        if (record) B.failures.push(e instanceof Error ? e.message : String(e));
      }
      marks.done = now();
      const view = chat.view();
      if (!ok || !view.threadId) {
        if (record) B.failures.push(`not started: ${view.refusal ?? view.state}`);
        else throw new Error(`Angelia's warm-up start failed: ${view.refusal ?? view.state}`);
      } else if (record) {
        B.samplesMs.push((marks.done as number) - (marks.t0 as number));
        const ph = startPhases(marks);
        if (ph) for (const r of B_ROWS) bPhase[r.key].push(ph[r.key]);
        await chat.dispose();
        return ph;
      }
      await chat.dispose();
      return undefined;
    };
    const doA = async (record: boolean): Promise<{ spawnInit: number; total: number } | undefined> => {
      if (!spec) throw new Error("no spawn spec captured from Angelia's warm-up");
      const t0 = now();
      const child = RpcChild.spawn(spec);
      live.push(child);
      try {
        await child.initialize();
        const t1 = now();
        const answer = await child.request('thread/start', threadParams);
        const t2 = now();
        const thread = answer.thread as { id?: string } | undefined;
        if (!thread?.id) throw new Error('thread/start answered no thread id');
        if (record) {
          A.samplesMs.push(t2 - t0);
          aPhase.spawnInit.push(t1 - t0);
          aPhase.thread.push(t2 - t1);
        }
        return { spawnInit: t1 - t0, total: t2 - t0 };
      } catch (e) {
        if (record) A.failures.push(e instanceof Error ? e.message : String(e));
        else throw e;
        return undefined;
      } finally {
        await child.close();
        live.splice(live.indexOf(child), 1);
      }
    };

    const pairedRatios: number[] = [];
    const own: number[] = [];
    ctx.log('agent-start: warm-ups');
    await doB(false);
    await doB(false);
    await doA(false);
    for (let i = 0; i < ctx.runs; i += 1) {
      ctx.log(`agent-start: round ${i + 1}/${ctx.runs}`);
      let a: Awaited<ReturnType<typeof doA>>;
      let b: Awaited<ReturnType<typeof doB>>;
      if (i % 2 === 0) {
        a = await doA(true);
        b = await doB(true);
      } else {
        b = await doB(true);
        a = await doA(true);
      }
      if (a && b) {
        pairedRatios.push(b.total / a.total);
        own.push(ownStartMs(b));
      }
    }

    const load = loadLine(loadAtStart, loadavg());
    const sa = stats(A.samplesMs);
    const sb = stats(B.samplesMs);
    const ratio = sa && sb ? sb.median / sa.median : undefined;
    const sp = stats(pairedRatios);
    const so = stats(own);
    const verdicts: Verdict[] = [
      {
        target: `agent start (Angelia) / bare spawn + initialize + thread/start ≤ ${START_TARGET.toFixed(2)}× (medians)`,
        measured:
          ratio !== undefined && sa && sb
            ? `${ratio.toFixed(3)}× (B ${ms(sb.median)} ms / A ${ms(sa.median)} ms; B − A = ${ms(sb.median - sa.median)} ms)`
            : 'nothing',
        pass: ratio !== undefined ? ratio <= START_TARGET : undefined,
      },
    ];
    const cell = (xs: number[]): string => {
      const s = stats(xs);
      return s ? `**${ms(s.median)}** (${ms(s.min)}–${ms(s.max)})` : '–';
    };
    const aFor: Partial<Record<string, number[]>> = { spawnInit: aPhase.spawnInit, thread: aPhase.thread, total: A.samplesMs };
    const markdown = [
      ...sectionHead("Agent start: Angelia's start vs bare spawn + initialize + thread/start", ctx.machine, load, verdicts),
      `Method: ${ctx.runs} interleaved rounds (A/B order alternates) after one unmeasured warm-up of each, both in the benchmark process ` +
        "(so neither includes Node's start-up or loading code). A spawns exactly the spawn spec Angelia's launch plan gave its warm-up " +
        `(${spec ? `${spec.args.length - 1} arguments before \`app-server\`` : '?'}, same cwd and environment) and sends exactly Angelia's \`thread/start\` parameters; ` +
        'B is `chat.restart()` on a new chat of the profile (fresh session → `thread/start`), i.e. the full start the first message of a chat triggers. ' +
        'The orchestrator (table loaded once) is created before, as the app does at start-up. Wall time, ms; processes are stopped outside the timing.',
      '',
      seriesTable([A, B]),
      '',
      `Paired, round by round (B / A of the same round): median ${sp ? `${sp.median.toFixed(3)}× (${sp.min.toFixed(3)}–${sp.max.toFixed(3)}, n=${sp.n})` : '–'}. ` +
        `Angelia's own time per start (launch plan + config checks + attestation and sessions; Codex's spawn, \`initialize\` and \`thread/start\` left out): median ${so ? `**${ms(so.median)} ms** (${ms(so.min)}–${ms(so.max)})` : '–'}` +
        (so && sa
          ? `, i.e. ${((sa.median + so.median) / sa.median).toFixed(3)}× of A's median if \`thread/start\` took the same time on both sides (it varies by more than that from run to run on a loaded machine).`
          : '.'),
      '',
      'By phase, ms: **median** (min–max).',
      '',
      '| phase | (A) bare | (B) Angelia |',
      '|---|---|---|',
      ...B_ROWS.map((r) => `| ${r.label} | ${aFor[r.key] ? cell(aFor[r.key] as number[]) : '–'} | ${cell(bPhase[r.key])} |`),
    ].join('\n');
    const summary = [
      `A: ${sa ? `median ${ms(sa.median)} ms (${ms(sa.min)}–${ms(sa.max)}), n=${sa.n}` : 'no samples'}${A.failures.length ? `, ${A.failures.length} failed: ${A.failures[0]}` : ''}`,
      `B: ${sb ? `median ${ms(sb.median)} ms (${ms(sb.min)}–${ms(sb.max)}), n=${sb.n}` : 'no samples'}${B.failures.length ? `, ${B.failures.length} failed: ${B.failures[0]}` : ''}`,
      ...B_ROWS.map(
        (r) => `  ${r.label}: A ${aFor[r.key] ? ms(stats(aFor[r.key] as number[])?.median ?? NaN) : '–'} / B ${ms(stats(bPhase[r.key])?.median ?? NaN)}`,
      ),
      `ratio: ${verdicts[0]?.measured}; paired median ${sp ? sp.median.toFixed(3) : '–'}; Angelia's own time median ${so ? ms(so.median) : '–'} ms`,
      load,
    ].join('\n');
    return { markdown, summary, verdicts };
  } finally {
    for (const c of live) c.kill();
    await orch?.shutdown();
    await inst.cleanup();
  }
}

/** The agent-start benchmark module. */
export const agentStart: Benchmark = { id: 'agent-start', title: 'Agent start (Angelia vs bare spawn + initialize + thread/start)', run };

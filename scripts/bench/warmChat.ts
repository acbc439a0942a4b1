/**
 * Warm chats (docs/architecture.md "Warm agents"): what a person waits for between opening a chat and
 * the first streamed token of its answer, typing for 1.5 s in between, all in this process, interleaved.
 *  (C) cold: the chat's Codex does not run; the chat is shown (`chats:shown`, as the window reports it),
 *      its message sent 1.5 s later (`Chat.send`), until the first `chat:delta` of the answer. Its agent
 *      starts when shown (a warm start: the plan, spawn, proof, `thread/resume`), and the message joins it.
 *  (W) warm: the same, on a chat whose warm agent was already up when it was shown.
 *  (B) bare: a bare client with Angelia's spawn spec: spawn → `initialize` → `thread/resume` of a thread of
 *      its own → `turn/start` → the first `item/agentMessage/delta`, from the spawn (no typing time: the
 *      whole cold start of a plain client).
 * The scripted model answers every turn alike, so the model's time is the same on every side.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AppEvent } from '../../src/shared/contract';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import type { CodexConnection } from '../../src/main/core/codex/connection';
import { startCodexClient, type CodexStartSpec } from '../../src/main/core/codex/start';
import { makeInstance, turnOn } from '../../test/fixtures/instance';
import { sectionHead, loadLine, ms, seriesTable, stats, type Benchmark, type BenchContext, type BenchResult, type Series, type Verdict } from './benchmark';
import { RpcChild, type SpawnSpec } from './rpcChild';

/** Cold / warm first token (medians) at most this. */
export const COLD_WARM_TARGET = 1.2;
/** Cold first token / bare spawn + resume + turn (medians) at most this. */
export const COLD_BARE_TARGET = 0.5;
/** The typing time between opening a chat and sending, ms. */
export const TYPING_MS = 1500;

const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

/** Resolves when `ok()` holds, polled every 10 ms; rejects after `limitMs`. */
async function until(what: string, ok: () => boolean, limitMs = 120_000): Promise<void> {
  const end = performance.now() + limitMs;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`never happened: ${what}`);
    await sleep(10);
  }
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const inst = await makeInstance({ bench: { permission_mode: 'default' } }, { privateHome: true, defaults: { warm_agents: 3 } });
  let orch: Orchestrator | null = null;
  const live: RpcChild[] = [];
  try {
    let spec: SpawnSpec | undefined;
    let resumeParams: Record<string, unknown> | undefined;
    const startCodex = async (s: CodexStartSpec): Promise<CodexConnection> => {
      spec = { bin: s.bin, args: [...s.args], cwd: s.cwd, env: { ...s.env } };
      const conn = await startCodexClient(s);
      const request = conn.request.bind(conn) as CodexConnection['request'];
      const seen: CodexConnection['request'] = async (method, params, opts) => {
        if (method === 'thread/resume') resumeParams = { ...(params as Record<string, unknown>) };
        return request(method, params, opts);
      };
      Object.defineProperty(conn, 'request', { value: seen, configurable: true, writable: true });
      return conn;
    };
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex, audit: memoryAudit(), watchTable: false });
    const o = orch;
    const chat = o.chat('bench');
    let firstDelta: number | null = null;
    let startedAt: number | null = null;
    o.subscribe((e: AppEvent) => {
      if (e.event === 'chat:delta' && e.payload.chatId === 'bench' && firstDelta === null) firstDelta = performance.now();
      if (startedAt === null && chat.conn !== null && chat.view().mode?.source === 'attested') startedAt = performance.now();
    });
    const shown = (): Promise<unknown> => o.api().handlers['chats:shown']({ chatId: 'bench' });
    const answer = (): void => inst.model.enqueue({ message: 'a short answer, streamed in a few deltas' });

    // A past session, so every start of the chat resumes it (as reopening a chat used before does).
    ctx.log('warm-chat: a first turn');
    answer();
    await turnOn(o, 'bench', 'hello');
    /** The chat shown at `t0`, a message sent TYPING_MS later; ms from `t0` to the first streamed token (the turn then ends). */
    const typedTurn = async (t0: number): Promise<number> => {
      void shown();
      await sleep(TYPING_MS);
      answer();
      chat.send('hi');
      await until('a first delta', () => firstDelta !== null);
      const total = (firstDelta as unknown as number) - t0;
      await chat.idle();
      return total;
    };
    const cold = async (): Promise<{ total: number; start: number }> => {
      await chat.stopProcess();
      await until('no codex', () => chat.conn === null && chat.starting === null);
      firstDelta = null;
      startedAt = null;
      const t0 = performance.now();
      const total = await typedTurn(t0);
      return { total, start: startedAt !== null ? startedAt - t0 : NaN };
    };
    const warm = async (): Promise<number> => {
      await chat.stopProcess();
      await until('no codex', () => chat.conn === null && chat.starting === null);
      void shown();
      await until('a warm agent', () => chat.conn !== null && chat.warm !== null && chat.state === 'idle');
      firstDelta = null;
      return typedTurn(performance.now());
    };

    // The bare client's own thread (a turn on it, so it has a rollout to resume), with Angelia's spawn spec.
    await cold();
    if (!spec || !resumeParams) throw new Error("no spawn spec or thread/resume parameters seen from Angelia's start");
    const bareSpec: SpawnSpec = spec;
    const bareThread = await (async () => {
      const child = RpcChild.spawn(bareSpec);
      live.push(child);
      await child.initialize();
      const { threadId: _t, ...startParams } = resumeParams;
      void _t;
      const started = await child.request('thread/start', startParams);
      const id = (started.thread as { id: string }).id;
      const done = new Promise<void>((r) => child.onNotification((m) => m === 'turn/completed' && r()));
      answer();
      await child.request('turn/start', { threadId: id, input: [{ type: 'text', text: 'hello', text_elements: [] }] });
      await done;
      await child.close();
      live.splice(live.indexOf(child), 1);
      return id;
    })();
    // B₀: the same without this version's cheaper start (compile/projectRoot.ts): Codex walks up for a project root.
    const at = bareSpec.args.indexOf('project_root_markers=[]');
    const walkSpec: SpawnSpec = at > 0 ? { ...bareSpec, args: [...bareSpec.args.slice(0, at - 1), ...bareSpec.args.slice(at + 1)] } : bareSpec;
    const bare = async (spawnSpec: SpawnSpec = bareSpec): Promise<number> => {
      const t0 = performance.now();
      const child = RpcChild.spawn(spawnSpec);
      live.push(child);
      try {
        let delta: number | null = null;
        const ended = new Promise<void>((r) =>
          child.onNotification((m) => {
            if (m === 'item/agentMessage/delta' && delta === null) delta = performance.now();
            if (m === 'turn/completed') r();
          }),
        );
        await child.initialize();
        await child.request('thread/resume', { ...resumeParams, threadId: bareThread });
        answer();
        await child.request('turn/start', { threadId: bareThread, input: [{ type: 'text', text: 'hi', text_elements: [] }] });
        await ended;
        if (delta === null) throw new Error('the turn ended with no delta');
        return (delta as number) - t0;
      } finally {
        await child.close();
        live.splice(live.indexOf(child), 1);
      }
    };

    const C: Series = { label: `(C) cold chat: shown → message sent ${TYPING_MS} ms later → first streamed token`, samplesMs: [], failures: [] };
    const W: Series = {
      label: `(W) warm chat: shown (agent already up) → message sent ${TYPING_MS} ms later → first streamed token`,
      samplesMs: [],
      failures: [],
    };
    const B: Series = { label: '(B) bare client: spawn → `initialize` → `thread/resume` → `turn/start` → first delta', samplesMs: [], failures: [] };
    const B0: Series = {
      label: '(B₀) context: the same bare client without `project_root_markers = []` (the launch before the cheaper start)',
      samplesMs: [],
      failures: [],
      ...(at > 0 ? {} : { unavailable: 'the launch had no project_root_markers flag' }),
    };
    const coldStart: number[] = [];
    const sides: [Series, () => Promise<number>][] = [
      [
        C,
        async () => {
          const c = await cold();
          coldStart.push(c.start);
          return c.total;
        },
      ],
      [W, warm],
      [B, () => bare()],
      ...(at > 0 ? ([[B0, () => bare(walkSpec)]] as [Series, () => Promise<number>][]) : []),
    ];
    ctx.log('warm-chat: warm-up');
    await warm();
    await bare();
    if (at > 0) await bare(walkSpec);
    for (let i = 0; i < ctx.runs; i += 1) {
      ctx.log(`warm-chat: round ${i + 1}/${ctx.runs}`);
      for (let k = 0; k < sides.length; k += 1) {
        const [series, side] = sides[(i + k) % sides.length] as [Series, () => Promise<number>];
        try {
          series.samplesMs.push(await side());
        } catch (e) {
          series.failures.push(e instanceof Error ? e.message : String(e));
        }
      }
    }

    const load = loadLine(loadAtStart, loadavg());
    const [sc, sw, sb, ss, sb0] = [
      stats(C.samplesMs),
      stats(W.samplesMs),
      stats(B.samplesMs),
      stats(coldStart.filter((x) => !Number.isNaN(x))),
      stats(B0.samplesMs),
    ];
    const cw = sc && sw ? sc.median / sw.median : undefined;
    const cb = sc && sb ? sc.median / sb.median : undefined;
    const verdicts: Verdict[] = [
      {
        target: `cold chat first token / warm chat first token ≤ ${COLD_WARM_TARGET.toFixed(1)}× (medians, scripted model)`,
        measured: cw !== undefined && sc && sw ? `${cw.toFixed(2)}× (C ${ms(sc.median)} ms / W ${ms(sw.median)} ms)` : 'nothing',
        pass: cw !== undefined ? cw <= COLD_WARM_TARGET : undefined,
      },
      {
        target: `cold chat first token ≤ ${COLD_BARE_TARGET}× a bare client's spawn + resume + turn (medians)`,
        measured: cb !== undefined && sc && sb ? `${cb.toFixed(2)}× (C ${ms(sc.median)} ms / B ${ms(sb.median)} ms)` : 'nothing',
        pass: cb !== undefined ? cb <= COLD_BARE_TARGET : undefined,
      },
    ];
    const markdown = [
      ...sectionHead('Warm chats: opening a chat and typing, to the first streamed token', ctx.machine, load, verdicts),
      `Method: ${ctx.runs} rounds after one unmeasured warm-up of each side, the order of the three sides rotating each round, all in the benchmark process ` +
        `(the orchestrator created once, as the app does at start-up; \`[defaults] warm_agents = 3\`). The chat has a past session, so every start resumes its thread. ` +
        `"Shown" is the contract's \`chats:shown\`, which the window sends when a chat is opened or its window focused; the message is \`Chat.send\` ${TYPING_MS} ms later (a person typing); ` +
        "the first token is the first `chat:delta` event of the answer. B spawns exactly the spawn spec of Angelia's last start " +
        `(${spec ? `${spec.args.length - 1} arguments before \`app-server\`` : '?'}) and resumes a thread of its own with Angelia's \`thread/resume\` parameters; its time runs from the spawn. ` +
        'Wall time, ms; processes are stopped between samples, outside the timing.',
      '',
      seriesTable([C, W, B, B0]),
      '',
      `In C, the chat's agent was started and attested (shown → its thread resumed and checked) after **${ss ? ms(ss.median) : '–'} ms** (median; ${ss ? `${ms(ss.min)}–${ms(ss.max)}` : '–'}), ` +
        `against the ${TYPING_MS} ms of typing: when it is shorter, the message finds the agent up and C is W. ` +
        `C can never be shorter than the typing plus the turn's first token (W), while B has no typing: half of B is ${sb ? ms(sb.median / 2) : '–'} ms. ` +
        `Against B₀ (Codex walking up for a project root, as every launch did before this version) C is ${sc && sb0 ? `${(sc.median / sb0.median).toFixed(2)}×` : '–'}.`,
    ].join('\n');
    const summary = [
      ...[C, W, B, B0].map((s) => {
        const st = stats(s.samplesMs);
        return `${s.label.slice(0, 40)}: ${st ? `median ${ms(st.median)} ms (${ms(st.min)}–${ms(st.max)}), n=${st.n}` : 'no samples'}${s.failures.length ? `, ${s.failures.length} failed: ${s.failures[0]}` : ''}`;
      }),
      `cold start (shown → attested): ${ss ? ms(ss.median) : '–'} ms`,
      ...verdicts.map((v) => `${v.target}: ${v.measured}`),
      load,
    ].join('\n');
    return { markdown, summary, verdicts };
  } finally {
    for (const c of live) c.kill();
    await orch?.shutdown();
    await inst.cleanup();
  }
}

/** The warm-chat benchmark module. */
export const warmChat: Benchmark = { id: 'warm-chat', title: 'Warm chats (cold vs warm chat vs bare client, first streamed token)', run };

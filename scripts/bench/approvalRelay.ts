/**
 * Approval relay: how long Angelia takes to pass a Codex approval request to its subscribers, and an answer
 * back to Codex. Real codex (pinned, real sandbox) with the scripted model asking for command approvals:
 * every model request of a turn answers with an `exec_command` that needs escalation
 * (`sandbox_permissions: "require_escalated"`), until the turn has asked `PER_TURN`; the benchmark denies
 * each (Codex gets `decline` and asks the model again), so approvals come one at a time, many per turn.
 * The orchestrator is the app's (default file audit and approval records in the instance's state folder).
 *
 * Timestamps, all `performance.now()` in this process:
 *  - arrival: a `data` listener put FIRST on the app-server child's stdout (the spawn is wrapped, see
 *    `installSpawnSpy`), when the chunk holding the JSON-RPC server request (`…/requestApproval`) arrives,
 *    before Angelia's JSON-RPC layer (NdjsonMessageReader → vscode-jsonrpc) parses it;
 *  - event hub: a subscriber of `orch.hub` receives `approval:updated` (state pending) for it;
 *  - notification router: the Electron `NotificationRouter` (src/main/electron/notifications.ts, fed by a
 *    hub subscriber as the desktop app does; its Notification factory is a stand-in whose `show()` stamps);
 *  - host WebSocket client: a `ws` client of the headless host (`startHost` over `orch.api()`, as
 *    `angelia serve` runs it — what the browser's store receives), message parsed;
 *  - answer: `broker.answer(id, 'deny', 'window')` is called (one macrotask after the hub event, the way a
 *    click arrives) → the response line is written to codex's stdin (`child.stdin.write` wrapped).
 */
import cp from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import type { AppEvent, WsServerMessage } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { turnToolCalls } from '../../src/main/demo/scriptedModel';
import { NotificationRouter, type NotificationLike } from '../../src/main/electron/notifications';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { makeInstance } from '../../test/fixtures/instance';
import { sectionHead, distribution, distributionTable, loadLine, ms, type Benchmark, type BenchContext, type BenchResult, type Verdict } from './benchmark';

/** Approvals asked per turn (the turn then ends with a message). */
export const PER_TURN = 50;
/** The targets, ms at p99. */
export const RELAY_TARGET_MS = 5;
export const ANSWER_TARGET_MS = 2;

/** Stdio events of app-server children seen by the spy. */
export interface SpawnSpy {
  /** A chunk of a child's stdout arrived (`at`), holding these complete lines. */
  onStdoutLines(lines: string[], at: number): void;
  /** A chunk is about to be written to a child's stdin (`at`). */
  onStdinWrite(chunk: string, at: number): void;
}

/**
 * Wraps `child_process.spawn` (and re-syncs the ESM named export the launcher imports) so that, for a
 * child whose argv ends with "app-server", a `data` listener is added to its stdout before anyone else's
 * and `stdin.write` is wrapped. Returns the function that restores the original spawn.
 */
export function installSpawnSpy(spy: SpawnSpy): () => void {
  const original = cp.spawn;
  const wrapped = function (this: unknown, ...a: Parameters<typeof cp.spawn>) {
    const child = (original as (...x: unknown[]) => cp.ChildProcess).apply(this, a);
    const args = a[1];
    if (!Array.isArray(args) || args[args.length - 1] !== 'app-server' || !child.stdout || !child.stdin) return child;
    let buf = '';
    child.stdout.on('data', (c: Buffer | string) => {
      const at = performance.now();
      buf += typeof c === 'string' ? c : c.toString('utf8');
      const nl = buf.lastIndexOf('\n');
      if (nl < 0) return;
      const lines = buf.slice(0, nl).split('\n');
      buf = buf.slice(nl + 1);
      spy.onStdoutLines(lines, at);
    });
    const stdin = child.stdin;
    const write = stdin.write;
    stdin.write = function (this: unknown, chunk: unknown, ...more: unknown[]) {
      spy.onStdinWrite(typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk), performance.now());
      return (write as (...x: unknown[]) => boolean).call(this, chunk, ...more);
    } as typeof stdin.write;
    return child;
  } as typeof cp.spawn;
  cp.spawn = wrapped;
  syncBuiltinESMExports();
  return () => {
    cp.spawn = original;
    syncBuiltinESMExports();
  };
}

/** One approval's timestamps (ms, this process's clock). */
interface Sample {
  rpcId: string;
  arrival: number;
  hub?: number;
  router?: number;
  ws?: number;
  answer?: number;
  returned?: number;
  written?: number;
}

async function run(ctx: BenchContext): Promise<BenchResult> {
  const loadAtStart = loadavg();
  const target = ctx.quick ? 40 : Math.max(200, ctx.runs * 30);
  const turns = Math.ceil(target / PER_TURN);
  const inst = await makeInstance(
    { bench: { permission_mode: 'default' } },
    {
      privateHome: true,
      script: (body) =>
        turnToolCalls(body).length < PER_TURN
          ? {
              exec: {
                cmd: `echo hi > ${join(inst.outside, 'out.txt')}`,
                login: false,
                sandbox_permissions: 'require_escalated',
                justification: 'benchmark: write outside',
              },
            }
          : { message: 'done asking' },
    },
  );
  const samples: Sample[] = [];
  const byRpc = new Map<string, Sample>();
  let pendingOrder: Sample[] = [];
  const problems: string[] = [];
  const restore = installSpawnSpy({
    onStdoutLines(lines, at) {
      for (const line of lines) {
        if (!line.includes('requestApproval')) continue;
        let m: { id?: unknown; method?: unknown };
        try {
          m = JSON.parse(line) as typeof m;
        } catch {
          continue;
        }
        if (m.id === undefined || typeof m.method !== 'string') continue;
        const s: Sample = { rpcId: String(m.id), arrival: at };
        samples.push(s);
        byRpc.set(s.rpcId, s);
        pendingOrder.push(s);
      }
    },
    onStdinWrite(chunk, at) {
      for (const line of chunk.split('\n')) {
        if (!line.includes('"result"') && !line.includes('"error"')) continue;
        try {
          const m = JSON.parse(line) as { id?: unknown; method?: unknown };
          const s = m.method === undefined && m.id !== undefined ? byRpc.get(String(m.id)) : undefined;
          if (s && s.written === undefined) s.written = at;
        } catch {
          // not a whole JSON line
        }
      }
    },
  });
  let orch: Orchestrator | null = null;
  let host: RunningHost | null = null;
  let ws: WebSocket | null = null;
  try {
    orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, watchTable: false });
    const o = orch;
    // approval id → sample: the k-th request to arrive is the k-th pending event (one at a time).
    const byApproval = new Map<string, Sample>();
    const sampleFor = (approvalId: string): Sample | undefined => {
      let s = byApproval.get(approvalId);
      if (!s) {
        s = pendingOrder.shift();
        if (!s) {
          problems.push(`approval ${approvalId} reached the hub with no request seen on stdout`);
          return undefined;
        }
        byApproval.set(approvalId, s);
      }
      return s;
    };
    // 1. A plain hub subscriber (first), which also answers one macrotask later.
    o.hub.subscribe((e: AppEvent) => {
      if (e.event !== 'approval:updated' || e.payload.state !== 'pending') return;
      const at = performance.now();
      const s = sampleFor(e.payload.id);
      if (!s || s.hub !== undefined) return;
      s.hub = at;
      const id = e.payload.id;
      setTimeout(() => {
        s.answer = performance.now();
        o.broker.answer(id, 'deny', 'window');
        s.returned = performance.now();
      }, 0);
    });
    // 2. The desktop's notification router, fed every event as the app does (handle() is synchronous, so
    //    the approval being routed is known while its Notification is shown).
    let routing: string | null = null;
    const router = new NotificationRouter({
      platform: 'darwin',
      isSupported: () => true,
      openChat: () => undefined,
      answer: () => ({ ok: true, value: { outcome: 'answered', answer: 'deny', by: 'notification' } }),
      create: (): NotificationLike => ({
        show: () => {
          const at = performance.now();
          const s = routing ? byApproval.get(routing) : undefined;
          if (s && s.router === undefined) s.router = at;
        },
        close: () => undefined,
        on: () => undefined,
      }),
    });
    o.hub.subscribe((e) => {
      routing = e.event === 'approval:updated' ? e.payload.id : null;
      router.handle(e);
      routing = null;
    });
    // 3. The headless host and one WebSocket client (the browser's side).
    host = await startHost({ core: o.api(), rendererDir: join(ctx.root, 'out', 'renderer') });
    const h = host;
    ws = await new Promise<WebSocket>((resolve, reject) => {
      const c = new WebSocket(`ws://127.0.0.1:${h.port}/ws?token=${h.token}`);
      c.once('open', () => resolve(c));
      c.once('error', reject);
    });
    ws.on('message', (data) => {
      const at = performance.now();
      const m = JSON.parse(String(data)) as WsServerMessage;
      if (m.type !== 'event' || m.event.event !== 'approval:updated' || m.event.payload.state !== 'pending') return;
      const s = byApproval.get(m.event.payload.id);
      if (s && s.ws === undefined) s.ws = at;
    });

    const chat = o.chat('bench');
    for (let t = 0; t < turns; t += 1) {
      ctx.log(`approval-relay: turn ${t + 1}/${turns} (${PER_TURN} approvals each; ${samples.length} so far)`);
      pendingOrder = [];
      chat.send(`ask for approval ${PER_TURN} times (${t + 1})`);
      await chat.idle();
      const view = chat.view();
      if (view.refusal) throw new Error(`the chat refused to start: ${view.refusal}`);
    }
    // Let the last WebSocket messages arrive.
    await new Promise((r) => setTimeout(r, 200));

    const complete = samples.filter((s) => s.hub !== undefined && s.answer !== undefined && s.written !== undefined);
    const hubMs = complete.map((s) => (s.hub as number) - s.arrival);
    const routerMs = complete.filter((s) => s.router !== undefined).map((s) => (s.router as number) - s.arrival);
    const wsMs = complete.filter((s) => s.ws !== undefined).map((s) => (s.ws as number) - s.arrival);
    const answerMs = complete.map((s) => (s.written as number) - (s.answer as number));
    const answerSyncMs = complete.filter((s) => s.returned !== undefined).map((s) => (s.returned as number) - (s.answer as number));
    const relayWorst = [...hubMs, ...routerMs];
    const dHub = distribution(hubMs);
    const dRouter = distribution(routerMs);
    const dWs = distribution(wsMs);
    const dAns = distribution(answerMs);
    const p99Relay = dHub && dRouter ? Math.max(dHub.p99, dRouter.p99) : dHub?.p99;
    const verdicts: Verdict[] = [
      {
        target: `server request arrives → event at a subscriber (event hub, notification router): p99 ≤ ${RELAY_TARGET_MS} ms`,
        measured:
          p99Relay !== undefined
            ? `p99 ${ms(p99Relay)} ms (hub ${dHub ? ms(dHub.p99) : '–'}, router ${dRouter ? ms(dRouter.p99) : '–'}; n=${hubMs.length})`
            : 'nothing',
        pass: p99Relay !== undefined && relayWorst.length >= 1 ? p99Relay <= RELAY_TARGET_MS : undefined,
      },
      {
        target: `answer() → response written to codex's stdin: p99 ≤ ${ANSWER_TARGET_MS} ms`,
        measured: dAns ? `p99 ${ms(dAns.p99)} ms (n=${dAns.n})` : 'nothing',
        pass: dAns ? dAns.p99 <= ANSWER_TARGET_MS : undefined,
      },
    ];
    const load = loadLine(loadAtStart, loadavg());
    const markdown = [
      ...sectionHead('Approval relay: Codex request → subscribers, answer → Codex', ctx.machine, load, verdicts),
      `Method: real codex in the real sandbox, one chat; the scripted model answers every model request of a turn with an \`exec_command\` that needs escalation until the turn has asked ${PER_TURN}, ` +
        `so approvals come one at a time; ${turns} turns, ${samples.length} requests seen, ${complete.length} complete samples. Each request is denied one macrotask after the hub event ` +
        '(`broker.answer(id, "deny", "window")`). Timestamps are `performance.now()` in the benchmark process: arrival = the app-server\'s stdout chunk holding the request, ' +
        "seen by a listener placed before Angelia's reader; subscriber = when the event reaches it; written = the response line handed to the child's `stdin.write`. " +
        "The notification router is the desktop app's `NotificationRouter` with a stand-in Notification; the host WebSocket client is a `ws` client of the headless host " +
        "(`startHost` over the same orchestrator, loopback TCP), i.e. what the browser's store receives. The orchestrator uses the app's default file audit and approval records.",
      '',
      distributionTable([
        { label: 'arrival → event hub subscriber', xs: hubMs },
        { label: 'arrival → notification router (Notification shown)', xs: routerMs },
        { label: "arrival → host WebSocket client (the browser's side, context)", xs: wsMs },
        { label: 'answer() → response written to codex stdin', xs: answerMs },
        { label: 'of which answer() itself (audit line, record, events to every subscriber; synchronous)', xs: answerSyncMs },
      ]),
      ...(problems.length ? ['', `Problems: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (+${problems.length - 3})` : ''}.`] : []),
    ].join('\n');
    const d = (name: string, x: ReturnType<typeof distribution>): string =>
      `${name}: ${x ? `p50 ${ms(x.p50)} / p99 ${ms(x.p99)} / max ${ms(x.max)} ms (n=${x.n})` : 'no samples'}`;
    const summary = [
      d('arrival → hub', dHub),
      d('arrival → router', dRouter),
      d('arrival → ws client', dWs),
      d('answer → written', dAns),
      ...problems.slice(0, 3),
      load,
    ].join('\n');
    return { markdown, summary, verdicts };
  } finally {
    restore();
    ws?.close();
    await host?.close();
    await orch?.shutdown();
    await inst.cleanup();
  }
}

/** The approval-relay benchmark module. */
export const approvalRelay: Benchmark = { id: 'approval-relay', title: 'Approval relay (request → subscribers, answer → codex)', run };

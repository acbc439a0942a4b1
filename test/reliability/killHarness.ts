/**
 * Fault injection on real Codex: one run kills the chat's `codex app-server` with SIGKILL (by the pid
 * recorded in `<state>/private/children.json`, never by name) at one point of a turn, then checks what
 * must hold afterwards (docs/reliability.md "Codex killed"): the turn fails with its cause, approvals are
 * withdrawn, no process of the chat is left (its session and every /proc descendant, bwrap and
 * codex-run-as-fs-helper included), the next message works (the thread resumed, or a fresh session the
 * chat says it started), and the scripted model never got a user prompt twice.
 * Used by test/reliability/kill.test.ts (twenty seeded runs) and test/integration/fault-kill.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { ChildLedger, childrenFile, type ChildRecord } from '../../src/main/core/codex/children';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { writeOfflineCodexHome } from '../../src/main/demo/codexHome';
import { isCompactionRequest, lastUserText, turnToolCalls, type Step } from '../../src/main/demo/scriptedModel';
import type { CapturedRequest } from '../../src/main/demo/scriptedModel';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { isRunning, treeMembers, waitFor } from '../core/codex/processes';

/**
 * Where a run kills Codex:
 * - `before-thread`: a resumed chat (new Angelia over an existing session), as soon as its Codex is recorded
 *   (before `initialize` and `thread/resume`);
 * - `fresh-start`: a new chat's first message, as soon as its Codex is recorded (before `thread/start`);
 * - `mid-stream`: the agent's answer has begun streaming (the scripted model holds the rest);
 * - `approval`: an escalated command waits for its approval;
 * - `compact`: `/compact` (Codex's `thread/compact/start`) while the model holds the summary request;
 * - `auto-compact`: Codex's own compaction before a turn (`model_auto_compact_token_limit` in config.toml,
 *   the previous turn reporting more tokens), while the model holds the summary request;
 * - `first-turn`: a new chat's first turn, once the model holds its request (Angelia must not resend it).
 */
export type KillPoint = 'before-thread' | 'fresh-start' | 'mid-stream' | 'approval' | 'compact' | 'auto-compact' | 'first-turn';

/** Every kill point, in the order the docs list them. */
export const KILL_POINTS: readonly KillPoint[] = ['before-thread', 'fresh-start', 'mid-stream', 'approval', 'compact', 'auto-compact', 'first-turn'];

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` kill points drawn from `points` with the seed: every point once first (in a seeded order) while n
 * allows, the rest drawn at random, so twenty runs cover each point.
 */
export function pickPoints(seed: number, n: number, points: readonly KillPoint[]): KillPoint[] {
  const rnd = seededRandom(seed);
  const first = [...points].sort(() => rnd() - 0.5).slice(0, n);
  const rest = Array.from({ length: Math.max(0, n - first.length) }, () => points[Math.floor(rnd() * points.length)] as KillPoint);
  return [...first, ...rest];
}

/** What one run found, for the summary (docs/reliability.md). */
export interface KillRunResult {
  run: number;
  point: KillPoint;
  /** The error item the chat showed for the killed Codex. */
  cause: string;
  approvalsWithdrawn: number;
  approvalsPending: number;
  /** Processes of the chat seen before the kill (Codex, its sandbox helpers, commands). */
  processesBefore: number;
  processesLeft: number;
  /** How the next message went on: the same thread, or a fresh session the chat announced. */
  next: 'resumed' | 'fresh-session';
  /** Largest number of times one user prompt started a model request (must be ≤ 1). */
  maxDeliveries: number;
  durationMs: number;
}

const ESCALATION = (target: string): Step => ({
  exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated', justification: 'write the report outside' },
});

/**
 * The scripted model of a run: the warm-up and "after" prompts get a message, the fault prompt what the
 * kill point needs (a slow stream, an escalation, a held request), compaction a held request when the run
 * kills during it (the first summary request only). For `auto-compact` the warm-up reports 60 000 input tokens (over the
 * limit of 20 000 set in config.toml), so Codex 0.171.0 compacts before the next turn's first request (measured).
 */
function responder(point: KillPoint, target: () => string) {
  let held = false;
  return (body: unknown): Step => {
    if (isCompactionRequest(body)) {
      // Only the first summary request is held (the one the run kills); a later compaction gets its summary.
      if ((point === 'compact' || point === 'auto-compact') && !held) {
        held = true;
        return { hang: true };
      }
      return { message: 'SUMMARY: so far.' };
    }
    const text = lastUserText(body) ?? '';
    if (text.startsWith('warm-up'))
      return point === 'auto-compact' ? { withUsage: { input: 60_000, output: 10 }, step: { message: 'warm answer' } } : { message: 'warm answer' };
    if (text.startsWith('fault')) {
      if (turnToolCalls(body).length > 0) return { message: 'the command ran' };
      if (point === 'mid-stream') return { message: 'a long answer that streams slowly, '.repeat(8), chunks: 40, delayMs: 400 };
      if (point === 'approval') return ESCALATION(target());
      if (point === 'first-turn') return { hang: true };
      return { message: 'fault answer' };
    }
    return { message: 'after answer' };
  };
}

/** Requests that started a turn on `prompt`: its last user message is the prompt and no tool output follows. */
export function deliveries(requests: CapturedRequest[], prompt: string): number {
  return requests.filter((r) => !isCompactionRequest(r.body) && lastUserText(r.body) === prompt && turnToolCalls(r.body).length === 0).length;
}

/** Every user prompt the model got, with how many requests started a turn on it. */
export function deliveryCounts(requests: CapturedRequest[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of requests) {
    if (isCompactionRequest(r.body) || turnToolCalls(r.body).length > 0) continue;
    const t = lastUserText(r.body);
    if (t !== undefined) out.set(t, (out.get(t) ?? 0) + 1);
  }
  return out;
}

function ppidOf(pid: number): number | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Every live descendant of `pid` through /proc parent links (bwrap and the fs helper re-parent nothing). */
export function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const n of readdirSync('/proc')) if (/^\d+$/.test(n) && isRunning(Number(n))) parent.set(Number(n), ppidOf(Number(n)) ?? 0);
  const out: number[] = [];
  for (const p of parent.keys()) {
    let up = parent.get(p);
    while (up !== undefined && up > 1 && up !== pid) up = parent.get(up);
    if (up === pid) out.push(p);
  }
  return out;
}

/** The process of `pid` and everything of its group, session and descendants. */
function chatProcesses(rec: ChildRecord): number[] {
  return [...new Set([rec.pid, ...treeMembers(rec.sid), ...treeMembers(rec.pgid), ...descendants(rec.pid)])];
}

async function recorded(i: TestInstance, except: Set<number>): Promise<ChildRecord> {
  const ledger = new ChildLedger(childrenFile(i.paths.stateDir));
  let rec: ChildRecord | undefined;
  const ok = await waitFor(() => (rec = ledger.list().find((r) => r.chatId === 'coder' && !except.has(r.pid))) !== undefined, 120_000);
  if (!ok || !rec) throw new Error('no Codex child of coder recorded in children.json');
  return rec;
}

/** Runs `fn` against a fresh instance with the orchestrators it made shut down and the instance removed afterwards. */
async function withInstance<T>(point: KillPoint, fn: (i: TestInstance, open: () => Promise<Orchestrator>, target: string) => Promise<T>): Promise<T> {
  const made: Orchestrator[] = [];
  let target = '';
  const inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true, script: responder(point, () => target) });
  target = join(inst.outside, 'out.txt');
  if (point === 'auto-compact') {
    await writeOfflineCodexHome(inst.env.CODEX_HOME ?? '', { modelBaseUrl: inst.model.baseUrl, extra: { model_auto_compact_token_limit: 20_000 } });
  }
  const open = async () => {
    const o = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit() });
    made.push(o);
    return o;
  };
  try {
    return await fn(inst, open, target);
  } finally {
    for (const o of made) await o.shutdown().catch(() => undefined);
    await inst.cleanup().catch(() => undefined);
  }
}

const since = (items: ChatItem[], n: number) => items.slice(n);

/** One kill run at `point`; asserts everything that must hold and answers the figures. */
export async function killRun(run: number, point: KillPoint): Promise<KillRunResult> {
  const t0 = Date.now();
  return withInstance(point, async (inst, open, target) => {
    let o = await open();
    const warm = point !== 'fresh-start' && point !== 'first-turn';
    if (warm) {
      const items = await turnOn(o, 'coder', 'warm-up');
      expect(
        items.find((i) => i.type === 'turnEnd'),
        JSON.stringify(items),
      ).toMatchObject({ status: 'completed' });
    }
    const thread = o.chat('coder').view().threadId;
    const old = new Set(new ChildLedger(childrenFile(inst.paths.stateDir)).list().map((r) => r.pid));
    if (point === 'before-thread') {
      await o.shutdown();
      o = await open();
    }
    const chat = o.chat('coder');
    const mark = chat.transcript.all().length;
    const prompt = `fault ${run}`;
    chat.send(point === 'compact' ? '/compact' : prompt);
    const holds = (): boolean => {
      const now = since(chat.transcript.all(), mark);
      if (point === 'mid-stream') return now.some((i) => i.type === 'agent' && i.text.length > 0);
      if (point === 'approval') return o.broker.pending().some((a) => a.chatId === 'coder');
      if (point === 'compact' || point === 'auto-compact') return inst.model.modelRequests().some((r) => isCompactionRequest(r.body));
      if (point === 'first-turn') return deliveries(inst.model.modelRequests(), prompt) > 0;
      return true;
    };
    const child = await recorded(inst, point === 'before-thread' ? old : new Set());
    expect(await waitFor(holds, 120_000), `kill point ${point} never reached: ${JSON.stringify(since(chat.transcript.all(), mark))}`).toBe(true);
    const before = chatProcesses(child);
    process.kill(child.pid, 'SIGKILL');
    await chat.idle();
    const after = since(chat.transcript.all(), mark);
    const threadAfterKill = chat.view().threadId;
    const why = JSON.stringify(after);

    // The cause: one error item naming Codex's exit (or the start it cut short), and the work ended as failed.
    const errors = after.filter((i): i is Extract<ChatItem, { type: 'error' }> => i.type === 'error');
    expect(errors.length, why).toBeGreaterThan(0);
    const cause = errors.map((e) => e.message).join(' | ');
    expect(cause, why).toMatch(/Codex exited|not started|exited/);
    if (point !== 'compact')
      expect(
        after.filter((i) => i.type === 'turnEnd').every((i) => i.type === 'turnEnd' && i.status !== 'completed'),
        why,
      ).toBe(true);

    // Approvals: none pending; the one asked is withdrawn.
    const mine = o.broker.all().filter((a) => a.chatId === 'coder');
    expect(mine.filter((a) => a.state === 'pending')).toEqual([]);
    if (point === 'approval') expect(mine.map((a) => a.state)).toEqual(['withdrawn']);
    expect(chat.view().pendingApprovals).toBe(0);

    // No process of the chat left: Codex, its session, and every descendant seen before the kill.
    await waitFor(() => before.every((p) => !isRunning(p)) && chatProcesses(child).every((p) => !isRunning(p)), 60_000);
    const left = [...new Set([...before, ...chatProcesses(child)])].filter(isRunning);
    expect(left, `processes left: ${left.join(' ')}`).toEqual([]);

    // The next message works: the same thread resumed, or a fresh session the chat said it started.
    const next = await turnOn(o, 'coder', `after ${run}`);
    expect(
      next.find((i) => i.type === 'turnEnd'),
      JSON.stringify(next),
    ).toMatchObject({ status: 'completed' });
    expect(next.find((i) => i.type === 'agent')).toMatchObject({ text: 'after answer' });
    const threadNow = chat.view().threadId;
    const announced = [...after, ...next].some((i) => i.type === 'notice' && /fresh|new session/i.test(i.text));
    const resumed = threadAfterKill !== null && threadNow === threadAfterKill;
    // A Codex killed before any thread existed leaves nothing to resume: the next message starts the first one.
    expect(resumed || announced || threadAfterKill === null, `thread ${threadAfterKill} → ${threadNow} without a notice: ${JSON.stringify(next)}`).toBe(true);
    if (thread !== null && point !== 'fresh-start') expect(threadNow === thread || announced, 'the warm-up session was left without a notice').toBe(true);
    expect(existsOutside(target)).toBe(false);

    // The model never got one user prompt twice.
    const counts = deliveryCounts(inst.model.modelRequests());
    const twice = [...counts].filter(([, n]) => n > 1);
    expect(twice, 'prompts the model received more than once').toEqual([]);
    return {
      run,
      point,
      cause,
      approvalsWithdrawn: mine.filter((a) => a.state === 'withdrawn').length,
      approvalsPending: mine.filter((a) => a.state === 'pending').length,
      processesBefore: before.length,
      processesLeft: left.length,
      next: resumed ? 'resumed' : 'fresh-session',
      maxDeliveries: Math.max(0, ...counts.values()),
      durationMs: Date.now() - t0,
    };
  });
}

function existsOutside(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

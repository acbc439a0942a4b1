/**
 * Chats in full on real Codex (pinned npm package) in the real Linux sandbox, with the scripted model:
 * sessions across processes, a missing rollout, commands, /compact, steer, interrupt with an approval
 * pending, the permission timeout, two answers to one request, the stall watchdog and the idle exit.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent, ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import type { ChatTiming } from '../../src/main/core/chats/watchdogs';
import type { CodexConnection, StartCodex } from '../../src/main/core/codex/connection';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

let inst: TestInstance | null = null;
let orchs: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchs.map((o) => o.shutdown()));
  orchs = [];
  await inst?.cleanup();
  inst = null;
});

/** What crossed the wire for server requests: ids Codex asked with, results written per id, ids Codex resolved itself. */
interface RequestLedger {
  asked: Set<string>;
  /** Results handed back to be written, per request id. */
  counts: Map<string, number>;
  resolved: Set<string>;
}

function ledger(): RequestLedger {
  return { asked: new Set(), counts: new Map(), resolved: new Set() };
}

/**
 * Every server request id gets exactly one response, unless Codex resolved it itself
 * (`serverRequest/resolved`), in which case none.
 */
function expectEveryRequestSettledOnce(l: RequestLedger): void {
  expect(l.asked.size).toBeGreaterThan(0);
  for (const id of l.asked) expect({ id, n: (l.counts.get(id) ?? 0) + (l.resolved.has(id) && !l.counts.has(id) ? 1 : 0) }).toEqual({ id, n: 1 });
}

/** Starts real Codex and records every server request, every result written, and every request Codex resolved. */
function countingStart(l: RequestLedger): StartCodex {
  return async (spec) => {
    const conn = await startCodexClient(spec);
    const wrapped: CodexConnection = Object.create(conn) as CodexConnection;
    wrapped.onServerRequest = (handler) =>
      conn.onServerRequest(async (method, params, id) => {
        l.asked.add(String(id));
        const result = await handler(method, params, id);
        l.counts.set(String(id), (l.counts.get(String(id)) ?? 0) + 1);
        return result;
      });
    wrapped.onEvent = (handler) =>
      conn.onEvent((event) => {
        if (event.method === 'serverRequest/resolved' && event.params.requestId !== null) l.resolved.add(String(event.params.requestId));
        handler(event);
      });
    return wrapped;
  };
}

async function orchestrator(i: TestInstance, opts: { timing?: Partial<ChatTiming>; startCodex?: StartCodex } = {}) {
  const audit = memoryAudit();
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: opts.startCodex ?? startCodexClient, audit, timing: opts.timing });
  orchs.push(o);
  const events: AppEvent[] = [];
  o.hub.subscribe((e) => events.push(e));
  return { o, events, audit };
}

const notices = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice').map((i) => i.text);
const turnEnd = (items: ChatItem[]) => items.find((i) => i.type === 'turnEnd');

function rolloutsOf(codexHome: string, threadId: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.includes(threadId)) out.push(p);
    }
  };
  if (existsSync(join(codexHome, 'sessions'))) walk(join(codexHome, 'sessions'));
  return out;
}

/** An escalated write outside the profile: Codex asks, the chat shows a pending approval. */
const escalation = (target: string) => ({
  exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated' as const, justification: 'write the report outside' },
});

describe('sessions', () => {
  it('a missing rollout starts a fresh session and says so once', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'first answer' }, { message: 'fresh answer' });
    const first = await orchestrator(inst);
    await turnOn(first.o, 'coder', 'first question');
    const old = first.o.chat('coder').view().threadId;
    expect(old).toBeTruthy();
    await first.o.shutdown();
    const files = rolloutsOf(inst.env.CODEX_HOME ?? '', old ?? '');
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) rmSync(f);

    const second = await orchestrator(inst);
    const items = await turnOn(second.o, 'coder', 'second question');
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
    expect(notices(items).filter((t) => /not found on disk, so this is a fresh start/.test(t))).toHaveLength(1);
    const view = second.o.chat('coder').view();
    expect(view.threadId).not.toBe(old);
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).not.toContain('first question');
    // The lost session stays in the history; the fresh one is active.
    const sessions = await second.o.api().handlers['chats:sessions']({ chatId: 'coder' });
    expect(sessions).toHaveLength(2);
    expect(sessions.find((s) => s.active)?.threadId).toBe(view.threadId);
  });

  it('/new, /resume and /status: a new session, the list, and back to the first (resumed in Codex)', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'one' }, { message: 'two' }, { message: 'three' });
    const { o } = await orchestrator(inst);
    const chat = o.chat('coder');
    await turnOn(o, 'coder', 'first question');
    const firstThread = chat.view().threadId;
    // No id yet: the row's id is provisional until Codex mints the thread with the next message.
    expect(notices(await turnOn(o, 'coder', '/new'))[0]).toBe(
      'New session started: it gets its id from Codex with your first message (then shown by /resume and /status). The previous one stays reachable with /resume.',
    );
    await turnOn(o, 'coder', 'second question');
    const secondThread = chat.view().threadId;
    expect(secondThread).not.toBe(firstThread);
    const list = notices(await turnOn(o, 'coder', '/resume'))[0] ?? '';
    // Ids are shown by their random end (UUIDv7 thread ids made together share their start).
    expect(list).toMatch(/1\. …[0-9a-f]{8,} \* · 1 turn · second question/);
    expect(list).toMatch(/2\. …[0-9a-f]{8,} · 1 turn · first question/);
    expect(notices(await turnOn(o, 'coder', `/resume ${(firstThread ?? '').slice(0, 5)}`))[0]).toMatch(
      /^"[0-9a-f]{5}" is ambiguous: matches 2 sessions \(…[0-9a-f]{8,} "second question", …[0-9a-f]{8,} "first question"\)/,
    );
    expect(notices(await turnOn(o, 'coder', '/resume 2'))[0]).toBe(
      `Resumed …${(firstThread ?? '').slice(-8)} · first question. The next message continues it.`,
    );
    await turnOn(o, 'coder', 'third question');
    expect(chat.view().threadId).toBe(firstThread);
    const last = JSON.stringify(inst.model.modelRequests().at(-1)?.body);
    expect(last).toContain('first question');
    expect(last).not.toContain('second question');
    const status = notices(await turnOn(o, 'coder', '/status'))[0] ?? '';
    expect(status).toMatch(/^angelia · profile coder · session …[0-9a-f]{8} · 2 turns · codex 0\.171\.0 · model gpt-5\.5/);
    expect(status).toContain('sandbox: managed');
    expect(status).toContain('2 sessions in history');
    expect(notices(await turnOn(o, 'coder', '/resume zzzzzz'))[0]).toBe(
      `No session of this chat matches "zzzzzz". Its sessions: …${(firstThread ?? '').slice(-8)} "first question", …${(secondThread ?? '').slice(-8)} "second question" (e.g. /resume ${(firstThread ?? '').slice(-8)}).`,
    );
    expect(notices(await turnOn(o, 'coder', '/frobnicate'))[0]).toMatch(/^Unknown command \/frobnicate/);
    expect(inst.model.modelRequests()).toHaveLength(3);
  });

  it('/model sets a session-only model sent with the next turn; /model default goes back', async () => {
    // Codex 0.169.0 compacts the thread (one extra model request) when the model changes between turns: answer every request.
    inst = await makeInstance({ coder: {} }, { script: () => ({ message: 'ok' }) });
    const { o } = await orchestrator(inst);
    const modelOf = (text: string) => {
      const req = inst?.model.modelRequests().find((r) => {
        const input = (r.body as { input?: unknown[] }).input;
        return JSON.stringify(input?.at(-1)).includes(text);
      });
      return (req?.body as { model?: string } | undefined)?.model;
    };
    await turnOn(o, 'coder', 'hello');
    expect(modelOf('hello')).toBe('gpt-5.5');
    const listing = notices(await turnOn(o, 'coder', '/model'))[0] ?? '';
    expect(listing).toContain('gpt-5.5');
    expect(notices(await turnOn(o, 'coder', '/model no-such-model'))[0]).toMatch(/no-such-model/);
    const models = listing.match(/gpt-[0-9a-z.-]+/g) ?? [];
    const other = models.find((m) => m !== 'gpt-5.5');
    expect(other).toBeTruthy();
    await turnOn(o, 'coder', `/model ${other}`);
    expect(o.chat('coder').view()).toMatchObject({ model: other, overrides: { model: other } });
    await turnOn(o, 'coder', 'with the other model');
    expect(modelOf('with the other model')).toBe(other);
    await turnOn(o, 'coder', '/model default');
    await turnOn(o, 'coder', 'back to default');
    expect(modelOf('back to default')).toBe('gpt-5.5');
    expect(o.chat('coder').view()).toMatchObject({ model: 'gpt-5.5', overrides: { model: null } });
  });

  it('a second chat on one profile has its own session; a thread open in another Codex client is an error that keeps the session', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'one' }, { message: 'two' });
    const { o } = await orchestrator(inst);
    await turnOn(o, 'coder', 'first chat');
    const created = await o.api().handlers['chats:create']({ profile: 'coder' });
    expect(created).toMatchObject({ id: 'coder-2', profile: 'coder', threadId: null });
    await turnOn(o, 'coder-2', 'second chat');
    expect(o.chat('coder-2').view().threadId).not.toBe(o.chat('coder').view().threadId);

    // Another Angelia (a second process on the same state) while the first still holds the thread.
    const other = await orchestrator(inst);
    const items = await turnOn(other.o, 'coder', 'me too');
    const error = items.find((i) => i.type === 'error');
    // Measured on 0.169.0: "thread <id> already has an active writer" (the thread is held by another app-server).
    expect(error).toMatchObject({
      kind: 'threadBusy',
      message: expect.stringMatching(
        /^This conversation \([0-9a-f-]{8}\) is open in another Codex client: .* it stays reachable with \/resume\. \(Codex said: thread [0-9a-f-]+ already has an active writer\)/,
      ),
    });
    const row = (await other.o.api().handlers['chats:sessions']({ chatId: 'coder' })).find((s) => s.active);
    expect(row?.threadId).toBe(o.chat('coder').view().threadId);
  });
});

describe('turns', () => {
  it('/compact waits for the compaction item, then says so', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'first answer' }, { message: 'SUMMARY: the user asked a question.' }, { message: 'after compaction' });
    const { o, events } = await orchestrator(inst);
    await turnOn(o, 'coder', 'question one');
    const items = await turnOn(o, 'coder', '/compact');
    expect(JSON.stringify(inst.model.modelRequests()[1]?.body)).toMatch(/CONTEXT CHECKPOINT COMPACTION/);
    const activities = events.filter((e): e is Extract<AppEvent, { event: 'chat:updated' }> => e.event === 'chat:updated').map((e) => e.payload.activity);
    expect(activities).toContain('Compacting…');
    expect(notices(items)).toContain('Compacted: the conversation so far was summarised.');
    expect(o.chat('coder').view().activity).toBeNull();
    await turnOn(o, 'coder', 'question two');
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toContain('SUMMARY: the user asked a question.');
  });

  it('steers a message into the running turn', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ exec: { cmd: 'sleep 2; echo slept', login: false } }, { message: 'done' });
    const { o, events } = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('start working');
    await until('the command started', () => events.some((e) => e.event === 'chat:item' && e.payload.item.type === 'command'));
    expect(chat.send('also mention the weather', { steer: true })).toMatchObject({ steered: true });
    await chat.idle();
    const items = chat.transcript.all();
    expect(items.find((i) => i.type === 'user' && i.via === 'steer')).toMatchObject({ text: 'also mention the weather' });
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toContain('also mention the weather');
    expect(inst.model.modelRequests()).toHaveLength(2);
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
  });

  it('interrupt while an approval is pending: the card is withdrawn, no answer is written, nothing runs', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const target = join(inst.outside, 'out.txt');
    inst.model.enqueue(escalation(target), { message: 'unused' });
    const wire = ledger();
    const { o, audit } = await orchestrator(inst, { startCodex: countingStart(wire) });
    const chat = o.chat('coder');
    chat.send('write outside');
    const pending = await until('an approval', () => o.broker.pending()[0]);
    expect(chat.view().state).toBe('needs-you');
    expect(await chat.interrupt()).toBe(true);
    await chat.idle();
    // The reason names the request that was waiting, not a bare "aborted".
    expect(turnEnd(chat.transcript.all())).toMatchObject({
      status: 'interrupted',
      reason: expect.stringMatching(/^stopped with Stop while "Run OUTSIDE the sandbox: .*echo hi.*" waited for an answer$/),
    });
    expect(o.broker.all().find((v) => v.id === pending.id)?.state).toBe('withdrawn');
    expect(o.broker.answer(pending.id, 'allow', 'notification').outcome).toBe('already-answered');
    await new Promise((r) => setTimeout(r, 300));
    // Codex resolved the request itself when the turn was interrupted: no response may follow.
    expect([...wire.counts.values()].reduce((a, b) => a + b, 0)).toBe(0);
    expect(wire.resolved.size).toBe(1);
    expectEveryRequestSettledOnce(wire);
    expect(existsSync(target)).toBe(false);
    expect(audit.records.filter((r) => r.approvalId === pending.id).map((r) => r.event)).toEqual(['requested', 'withdrawn']);
  });

  it('an unanswered request is declined at permission_timeout_minutes and the chat says so', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { defaults: { permission_timeout_minutes: 0.01 } });
    const target = join(inst.outside, 'out.txt');
    inst.model.enqueue(escalation(target), { message: 'it was declined' });
    const wire = ledger();
    const { o } = await orchestrator(inst, { startCodex: countingStart(wire) });
    const items = await turnOn(o, 'coder', 'write outside');
    expectEveryRequestSettledOnce(wire);
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
    expect(o.broker.all()[0]).toMatchObject({ state: 'timedOut', answer: 'deny', by: 'timeout' });
    expect(notices(items).some((t) => /^No answer to the permission request in time, so it was denied\. \([0-9a-f-]{8}\)$/.test(t))).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('two answers to one request: exactly one response is written, the second is told "already answered"', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const target = join(inst.outside, 'out.txt');
    inst.model.enqueue(escalation(target), { message: 'declined' });
    const wire = ledger();
    const { o, audit } = await orchestrator(inst, { startCodex: countingStart(wire) });
    const chat = o.chat('coder');
    chat.send('write outside');
    const pending = await until('an approval', () => o.broker.pending()[0]);
    const [a, b] = await Promise.all([
      Promise.resolve().then(() => o.broker.answer(pending.id, 'deny', 'notification')),
      Promise.resolve().then(() => o.broker.answer(pending.id, 'allow', 'window')),
    ]);
    expect(a).toEqual({ outcome: 'answered', answer: 'deny', by: 'notification' });
    expect(b).toEqual({ outcome: 'already-answered', answer: 'deny', by: 'notification' });
    await chat.idle();
    expect([...wire.counts.values()]).toEqual([1]);
    expectEveryRequestSettledOnce(wire);
    expect(audit.records.filter((r) => r.event === 'answered')).toHaveLength(1);
    expect(existsSync(target)).toBe(false);
  });

  it('a reason typed with a Deny reaches the agent after the decline, shown as the user\u2019s message', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const target = join(inst.outside, 'out.txt');
    inst.model.enqueue(escalation(target), { message: 'ok, I will use make clean' }, { message: 'noted' });
    const { o } = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('clean up');
    const pending = await until('an approval', () => o.broker.pending()[0]);
    o.broker.answer(pending.id, 'deny', 'window', { reason: 'use make clean instead' });
    await chat.idle();
    const items = chat.transcript.all();
    const reason = items.find((i) => i.type === 'user' && i.via === 'denyReason');
    expect(reason).toMatchObject({ text: 'use make clean instead' });
    const bodies = inst.model.modelRequests().map((r) => JSON.stringify(r.body));
    expect(bodies.some((b) => b.includes('use make clean instead'))).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('the stall watchdog tells the user at half time and stops the turn at full time', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ hang: true });
    const { o } = await orchestrator(inst, { timing: { stallMs: 3000 } });
    const items = await turnOn(o, 'coder', 'think forever');
    const texts = notices(items);
    expect(
      texts.some((t) => /^No output from the agent for 0\.0\d? min; the turn is stopped at 0\.1 min/.test(t) || /^No output from the agent for/.test(t)),
    ).toBe(true);
    expect(texts.some((t) => /^Stopped: no output from the agent for/.test(t))).toBe(true);
    expect(turnEnd(items)).toMatchObject({ status: 'interrupted' });
  });

  it('an idle Codex exits after idle_exit_minutes; the next message resumes the same thread in a new process', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'first' }, { message: 'second' });
    let starts = 0;
    const { o } = await orchestrator(inst, {
      timing: { idleMs: 300 },
      startCodex: async (spec) => {
        starts++;
        return startCodexClient(spec);
      },
    });
    const chat = o.chat('coder');
    await turnOn(o, 'coder', 'first question');
    const thread = chat.view().threadId;
    await until('the idle exit', () => chat.liveThread === null);
    expect(chat.view().state).toBe('stopped');
    expect(notices(await turnOn(o, 'coder', '/status'))[0]).toContain('Codex stopped (it exited after idle_exit_minutes; the next message starts it again)');
    await turnOn(o, 'coder', 'second question');
    expect(starts).toBe(2);
    expect(chat.view().threadId).toBe(thread);
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toContain('first question');
  });
});

/**
 * On real Codex (pinned npm package, 0.169.0) in the real Linux sandbox with the scripted model:
 * field report C1 — a message steered into a turn that then stops (Deny and stop) before Codex took it
 * is named in the chat as not delivered, and only then (the scripted model's requests show whether the
 * text reached the model); field report C3 — a chat opened by a new Orchestrator on the same state shows
 * its session's past turns (read from Codex), not "No messages yet".
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
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

async function orchestrator(i: TestInstance, startCodex: StartCodex = startCodexClient): Promise<Orchestrator> {
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex, audit: memoryAudit() });
  orchs.push(o);
  return o;
}

/** Real Codex, counting the processes started and the requests sent on each. */
function countingStart(log: { starts: number; methods: string[] }): StartCodex {
  return async (spec) => {
    const conn: CodexConnection = await startCodexClient(spec);
    log.starts++;
    const wrapped: CodexConnection = Object.create(conn) as CodexConnection;
    wrapped.request = (method, params, opts) => {
      log.methods.push(method);
      return conn.request(method, params, opts);
    };
    return wrapped;
  };
}

const notices = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice').map((i) => i.text);
const escalation = (target: string) => ({
  exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated' as const, justification: 'write the report outside' },
});

describe('a steer the agent never read (C1)', () => {
  it('steered while an approval waits, then "Deny and stop": named as not delivered, and it reached no model request', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    inst.model.enqueue(escalation(join(inst.outside, 'out.txt')), { message: 'unused' });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('write outside');
    const pending = await until('an approval', () => o.broker.pending()[0]);
    expect(chat.send('also check the READ ME twice', { steer: true })).toMatchObject({ steered: true });
    // The steer is accepted by Codex (turn/steer answered) before the stop.
    await new Promise((r) => setTimeout(r, 300));
    o.broker.answer(pending.id, 'cancel', 'window');
    await chat.idle();
    const items = chat.transcript.all();
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({
      status: 'interrupted',
      reason: expect.stringMatching(/^"Deny and stop" was chosen for "Run OUTSIDE the sandbox/),
    });
    expect(inst.model.modelRequests().some((r) => JSON.stringify(r.body).includes('also check the READ ME twice'))).toBe(false);
    expect(notices(items)).toContain(
      'Not delivered: “also check the READ ME twice” — the turn stopped before the agent read it. Send it again if you still want it.',
    );
    // The notice comes after the turn's end line.
    expect(items.findIndex((i) => i.type === 'turnEnd')).toBeLessThan(items.findIndex((i) => i.type === 'notice' && i.text.startsWith('Not delivered')));
  });

  it('steered right before "Deny and stop": said not delivered exactly when no model request carried it', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    inst.model.enqueue(escalation(join(inst.outside, 'out.txt')), { message: 'unused' });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('write outside');
    const pending = await until('an approval', () => o.broker.pending()[0]);
    chat.send('a late thought', { steer: true });
    await new Promise((r) => setTimeout(r, 30));
    o.broker.answer(pending.id, 'cancel', 'window');
    await chat.idle();
    await new Promise((r) => setTimeout(r, 300));
    const items = chat.transcript.all();
    const reached = inst.model.modelRequests().some((r) => JSON.stringify(r.body).includes('a late thought'));
    const named = notices(items).some((t) => t.startsWith('Not delivered: “a late thought”'));
    const requeued = notices(items).some((t) => t.startsWith('It could not go into the running turn'));
    // Exactly one account of it: it reached the model, or it is named as not delivered, or it was queued as a message of its own.
    expect([reached, named, requeued].filter(Boolean)).toHaveLength(1);
    expect(reached).toBe(false);
  });

  it('a steer Codex takes is not named as lost', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ exec: { cmd: 'sleep 2; echo slept', login: false } }, { message: 'done' });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('start working');
    await until('the command started', () => chat.transcript.all().some((i) => i.type === 'command'));
    expect(chat.send('also mention the weather', { steer: true })).toMatchObject({ steered: true });
    await chat.idle();
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toContain('also mention the weather');
    expect(notices(chat.transcript.all()).filter((t) => t.startsWith('Not delivered'))).toEqual([]);
  });
});

describe('past turns after a restart (C3)', () => {
  it("a new Orchestrator on the same state shows the session's past user message, command and agent reply", async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ exec: { cmd: 'echo from-history', login: false } }, { message: 'the earlier answer' });
    const first = await orchestrator(inst);
    await turnOn(first, 'coder', 'the earlier question');
    await first.shutdown();
    orchs = orchs.filter((x) => x !== first);
    const requestsBefore = inst.model.modelRequests().length;

    const log = { starts: 0, methods: [] as string[] };
    const second = await orchestrator(inst, countingStart(log));
    expect(second.chat('coder').transcript.all()).toEqual([]);
    const items = await second.api().handlers['chats:items']({ chatId: 'coder' });
    expect(items[0]).toMatchObject({ type: 'notice', text: expect.stringMatching(/^Earlier in this session \(1 turn, read from Codex's record of thread /) });
    expect(items.find((i) => i.type === 'user')).toMatchObject({ text: 'the earlier question', id: expect.stringMatching(/^history-/) });
    expect(items.find((i) => i.type === 'command')).toMatchObject({ output: expect.stringContaining('from-history'), exitCode: 0, status: 'completed' });
    expect(items.find((i) => i.type === 'agent')).toMatchObject({ text: 'the earlier answer', done: true });
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(second.chat('coder').view().lastLine).not.toBe('');
    // Read with a short-lived app-server: no thread resumed, no turn started, the model never asked.
    expect(log.starts).toBe(1);
    expect(log.methods.filter((m) => m === 'turn/start' || m === 'thread/resume' || m === 'thread/start')).toEqual([]);
    expect(log.methods).toContain('thread/turns/list');
    expect(inst.model.modelRequests()).toHaveLength(requestsBefore);
    // Read once: a second view returns the same items without asking Codex again.
    const again = await second.api().handlers['chats:items']({ chatId: 'coder' });
    expect(again).toEqual(items);
    expect(log.starts).toBe(1);

    // The next message continues the session; the past stays in front of it.
    inst.model.enqueue({ message: 'the new answer' });
    await turnOn(second, 'coder', 'a new question');
    const after = second.chat('coder').transcript.all();
    expect(after.filter((i) => i.type === 'user').map((i) => (i as { text: string }).text)).toEqual(['the earlier question', 'a new question']);
  });
});

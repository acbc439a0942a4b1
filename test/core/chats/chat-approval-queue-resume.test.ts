/**
 * The chat against scripted connections, for its approval, queue and resume rules: "Deny and stop" drops the queue like
 * /stop (1); an approval names the item it is about, so the window can show the command waiting (2); a
 * settled approval records when and why it ended (3); /resume shows the resumed session's turns, read
 * from Codex (4); the chat's last line is kept with its session row and shown after a restart (5); a
 * command to run outside the sandbox carries how many places stay denied (6). On real Codex:
 * test/integration/chat-approval-queue-resume.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../src/shared/contract';
import { ApprovalBroker } from '../../../src/main/core/approvals/broker';
import { memoryAudit } from '../../../src/main/core/approvals/audit';
import { classifyServerRequest, type AskRequest } from '../../../src/main/core/codex/serverRequests';
import { LAST_LINE_MAX, SessionStore } from '../../../src/main/core/chats/sessions';
import { baseAnswers, completing, deferred, FakeConn, itemsOf, makeChat, notices, sandboxedAnswers, sandboxedPlan, until, type Answer } from './fakes';

/** The items as "type: text" (the fake plan's FULL ACCESS warning at each start left out). */
const texts = (items: ChatItem[]) =>
  items.filter((i) => i.type !== 'warning').map((i) => (i.type === 'user' || i.type === 'agent' || i.type === 'notice' ? `${i.type}: ${i.text}` : i.type));
const askParams = (threadId: string | null, extra: Record<string, unknown> = {}) => ({
  threadId,
  turnId: 'turn-1',
  itemId: 'call_10',
  command: "/bin/bash -lc 'make deploy'",
  cwd: '/w',
  availableDecisions: ['accept', 'cancel'],
  ...extra,
});

/** turn/start answered with `turn-1`; the turn says `reply` and completes on the next tick. */
function replying(reply: string, id = 'turn-1'): Answer {
  return (p, conn) => {
    setTimeout(() => {
      conn.notify('item/completed', { threadId: p.threadId, turnId: id, item: { type: 'agentMessage', id: `msg-${id}`, text: reply } });
      conn.notify('turn/completed', { threadId: p.threadId, turn: { id, status: 'completed', error: null } });
    }, 5);
    return { turn: { id } };
  };
}

describe('"Deny and stop" drops the queue, as /stop does', () => {
  it('the messages waiting behind the turn are dropped and named; none of them starts', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker } = await makeChat([conn]);
    chat.send('deploy it');
    await until('the turn', () => conn.sent('turn/start').length === 1 && chat.view().state === 'working');
    chat.send('then tag the release');
    chat.send('/compact');
    chat.send('and write the notes');
    await until('queued', () => chat.view().queued === 3);
    const reply = conn.serverRequest?.('item/commandExecution/requestApproval', askParams(chat.view().threadId), 7);
    const pending = await until('pending', () => broker.pending()[0]);
    broker.answer(pending.id, 'cancel', 'window');
    expect(await reply).toEqual({ decision: 'cancel' });
    expect(chat.view().queued).toBe(0);
    expect(notices(chat.transcript.all())).toContain(
      '"Deny and stop" ends the turn; like /stop, it drops the queue. Dropped 3 queued: "then tag the release", /compact, "and write the notes".',
    );
    // Codex interrupts the turn after a `cancel` decision (item/commandExecution/requestApproval, measured on 0.169.0).
    conn.notify('turn/completed', { threadId: chat.view().threadId, turn: { id: 'turn-1', status: 'interrupted', error: null } });
    await chat.idle();
    await new Promise((r) => setTimeout(r, 30));
    expect(conn.sent('turn/start')).toHaveLength(1);
    expect(conn.sent('thread/compact/start')).toHaveLength(0);
    expect(itemsOf(chat.transcript.all(), 'turnEnd').at(-1)).toMatchObject({
      status: 'interrupted',
      reason: '"Deny and stop" was chosen for "Run OUTSIDE the sandbox: /bin/bash -lc \'make deploy\'"',
    });
    expect(chat.view()).toMatchObject({ state: 'idle', queued: 0 });
  });

  it('a plain Deny leaves the queue alone: the next message runs after the turn', async () => {
    let n = 0;
    const conn = new FakeConn({
      ...baseAnswers(),
      'turn/start': (p, c) => (++n === 1 ? { turn: { id: 'turn-1' } } : completing('completed', null, 'turn-2')(p, c)),
    });
    const { chat, broker } = await makeChat([conn]);
    chat.send('deploy it');
    await until('the turn', () => conn.sent('turn/start').length === 1);
    chat.send('then tag the release');
    const reply = conn.serverRequest?.('item/commandExecution/requestApproval', askParams(chat.view().threadId), 7);
    broker.answer((await until('pending', () => broker.pending()[0])).id, 'deny', 'window');
    expect(await reply).toEqual({ decision: 'decline' });
    expect(chat.view().queued).toBe(1);
    conn.notify('turn/completed', { threadId: chat.view().threadId, turn: { id: 'turn-1', status: 'completed', error: null } });
    await chat.idle();
    expect(conn.sent('turn/start').map((p) => (p.input as Array<{ text: string }>)[0]?.text)).toEqual(['deploy it', 'then tag the release']);
    expect(notices(chat.transcript.all()).filter((t) => t.includes('Dropped'))).toEqual([]);
  });
});

describe('what an approval view carries', () => {
  it('the item it is about, and, withdrawn at the turn end, when and why', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker } = await makeChat([conn]);
    chat.send('deploy it');
    await until('the turn', () => conn.sent('turn/start').length === 1);
    // Codex announces the command before it asks (codex 0.169.0): the item is running, the request names it.
    conn.notify('item/started', {
      threadId: chat.view().threadId,
      turnId: 'turn-1',
      item: { type: 'commandExecution', id: 'call_10', command: 'make deploy', cwd: '/w', status: 'inProgress' },
    });
    void conn.serverRequest?.('item/commandExecution/requestApproval', askParams(chat.view().threadId), 7);
    const pending = await until('pending', () => broker.pending()[0]);
    expect(pending.itemId).toBe('call_10');
    expect(itemsOf(chat.transcript.all(), 'command')[0]).toMatchObject({ id: 'call_10', status: 'running' });
    expect(pending.settledAt).toBeUndefined();
    conn.notify('turn/completed', { threadId: chat.view().threadId, turn: { id: 'turn-1', status: 'interrupted', error: null } });
    await chat.idle();
    const after = broker.all()[0];
    expect(after).toMatchObject({ state: 'withdrawn', by: 'codex', withdrawnWhy: 'the turn ended' });
    expect(Date.parse(after?.settledAt ?? '')).toBeGreaterThanOrEqual(Date.parse(pending.createdAt));
  });

  it('an answer and a timeout record when the request was settled', async () => {
    const ask = classifyServerRequest('item/commandExecution/requestApproval', askParams('t'), { fileChanges: new Map(), onRequest: true }) as AskRequest;
    let now = Date.parse('2025-01-01T00:00:00Z');
    const broker = new ApprovalBroker({ timeoutMs: 30, audit: memoryAudit(), onUpdate: () => {}, now: () => new Date(now) });
    const answered = broker.open({ chatId: 'c', profile: 'p', ask, rpcId: 1 });
    now += 4_000;
    broker.answer(answered.id, 'allow', 'window');
    expect(broker.all()[0]).toMatchObject({ state: 'answered', createdAt: '2025-01-01T00:00:00.000Z', settledAt: '2025-01-01T00:00:04.000Z' });
    const timed = broker.open({ chatId: 'c', profile: 'p', ask, rpcId: 2 });
    now += 600_000;
    await timed.response;
    expect(broker.all()[1]).toMatchObject({
      state: 'timedOut',
      by: 'timeout',
      answer: 'deny',
      createdAt: '2025-01-01T00:00:04.000Z',
      settledAt: '2025-01-01T00:10:04.000Z',
    });
  });

  it('under a sandboxed launch an escalation says how many places stay denied; with more access or full access it is no escalation', async () => {
    const conn = new FakeConn({ ...sandboxedAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker } = await makeChat([conn], {}, { plan: sandboxedPlan });
    chat.send('deploy it');
    await until('the turn', () => conn.sent('turn/start').length === 1);
    expect(chat.view().enforcement).toBe('managed');
    void conn.serverRequest?.('item/commandExecution/requestApproval', askParams(chat.view().threadId), 7);
    expect(await until('pending', () => broker.pending()[0])).toMatchObject({
      title: "Run OUTSIDE the sandbox: /bin/bash -lc 'make deploy'",
      outsideSandbox: { denied: 3 },
    });
    void conn.serverRequest?.(
      'item/commandExecution/requestApproval',
      askParams(chat.view().threadId, { itemId: 'call_11', additionalPermissions: { network: { enabled: true } } }),
      8,
    );
    const more = await until('the second', () => broker.pending()[1]);
    expect(more.outsideSandbox).toBeUndefined();
    expect(more.title).toBe('Run with more access (network)');

    // The classifier alone: no sandbox in context (a full-access launch) → no escalation to explain.
    const full = classifyServerRequest('item/commandExecution/requestApproval', askParams('t'), { fileChanges: new Map(), onRequest: true }) as AskRequest;
    expect(full.outsideSandbox).toBeNull();
    const unknown = classifyServerRequest('item/commandExecution/requestApproval', askParams('t'), {
      fileChanges: new Map(),
      onRequest: true,
      sandbox: { denied: null },
    }) as AskRequest;
    expect(unknown.outsideSandbox).toEqual({ denied: null });
    const legacy = classifyServerRequest(
      'execCommandApproval',
      { conversationId: 't', command: ['make', 'deploy'], cwd: '/w' },
      { fileChanges: new Map(), onRequest: true, sandbox: { denied: 2 } },
    ) as AskRequest;
    expect(legacy.outsideSandbox).toEqual({ denied: 2 });
  });
});

describe('/resume shows the resumed session', () => {
  /** A turn of thread history as `thread/turns/list` (itemsView "full") gives it. */
  const pastTurn = (id: string, question: string, answer: string) => ({
    id,
    status: 'completed',
    startedAt: 1,
    error: null,
    items: [
      { type: 'userMessage', id: `u-${id}`, content: [{ type: 'text', text: question }] },
      { type: 'agentMessage', id: `a-${id}`, text: answer },
    ],
  });

  it('its past turns are read from Codex (a short-lived app-server) and shown after the "Resumed" notice, before the next message', async () => {
    const first = new FakeConn({ ...baseAnswers(), 'turn/start': replying('the first answer') });
    const second = new FakeConn({ ...baseAnswers(), 'turn/start': replying('the second answer') });
    const listed = deferred<unknown>();
    const reader = new FakeConn({ ...baseAnswers(), 'thread/turns/list': () => listed.promise });
    const resumed = new FakeConn({ ...baseAnswers(), 'turn/start': replying('the third answer', 'turn-3') });
    const { chat } = await makeChat([first, second, reader, resumed]);
    chat.send('the first question');
    await chat.idle();
    const firstSession = chat.view().sessionId ?? '';
    chat.send('/new');
    await chat.idle();
    chat.send('the second question');
    await chat.idle();
    expect(chat.view().sessionId).not.toBe(firstSession);

    chat.send(`/resume ${firstSession}`);
    await until('the turns asked for', () => reader.sent('thread/turns/list').length === 1);
    // A message sent while they are read waits for them.
    chat.send('the third question');
    await new Promise((r) => setTimeout(r, 30));
    expect(resumed.sent('turn/start')).toHaveLength(0);
    listed.resolve({ data: [pastTurn('turn-1', 'the first question', 'the first answer')], nextCursor: null });
    await chat.idle();

    expect(reader.sent('thread/turns/list')[0]).toMatchObject({ threadId: firstSession, itemsView: 'full' });
    expect(reader.calls.map((c) => c.method).filter((m) => m === 'thread/resume' || m === 'thread/start' || m === 'turn/start')).toEqual([]);
    expect(reader.stopped).toBe(true);
    const all = texts(chat.transcript.all());
    const at = all.findIndex((t) => t.startsWith('notice: Resumed '));
    expect(at).toBeGreaterThan(0);
    expect(all.slice(at + 1)).toEqual([
      expect.stringMatching(/^notice: This session so far \(1 turn, read from Codex's record of thread /),
      'user: the first question',
      'agent: the first answer',
      'turnEnd',
      'user: the third question',
      'agent: the third answer',
      'turnEnd',
    ]);
    // The next message continues the resumed thread.
    expect(resumed.sent('thread/resume')).toEqual([expect.objectContaining({ threadId: firstSession })]);
    expect(resumed.sent('turn/start')[0]).toMatchObject({ threadId: firstSession });
    // The first view does not read the session again.
    const items = await chat.items();
    expect(items.filter((i) => i.type === 'user' && i.text === 'the first question')).toHaveLength(2);
  });

  it('a read that fails is said in the chat, and the session is still resumed', async () => {
    const first = new FakeConn({ ...baseAnswers(), 'turn/start': replying('one') });
    const second = new FakeConn({ ...baseAnswers(), 'turn/start': replying('two') });
    const reader = new FakeConn({ ...baseAnswers(), 'thread/turns/list': () => Promise.reject(new Error('no rollout found for thread')) });
    const { chat } = await makeChat([first, second, reader]);
    chat.send('one');
    await chat.idle();
    const firstSession = chat.view().sessionId ?? '';
    chat.send('/new');
    await chat.idle();
    chat.send('two');
    await chat.idle();
    chat.send(`/resume ${firstSession}`);
    await chat.idle();
    expect(notices(chat.transcript.all()).at(-1)).toBe('The earlier turns of this session could not be read from Codex: no rollout found for thread');
    expect(chat.view().sessionId).toBe(firstSession);
  });
});

describe('the last line after a restart', () => {
  it('is kept with the session row and shown by a new chat object before its transcript is read', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': replying('All 42 tests pass.\nNothing else   to do.') });
    const { chat, dir } = await makeChat([a]);
    chat.send('run the tests');
    await chat.idle();
    expect(chat.view().lastLine).toBe('All 42 tests pass. Nothing else to do.');
    const file = `${dir}/sessions.json`;
    const row = new SessionStore(file).active('c');
    expect(row?.last_line).toBe('All 42 tests pass. Nothing else to do.');
    await chat.dispose();

    // A restart: a new chat object on the same sessions file, nothing read from Codex yet.
    const { chat: again } = await makeChat([], {}, { sessions: file });
    expect(again.transcript.all()).toEqual([]);
    expect(again.view().lastLine).toBe('All 42 tests pass. Nothing else to do.');
  });

  it('at most LAST_LINE_MAX characters, one line; a file without the field (an older Angelia) still loads', async () => {
    const long = `${'abcdefghij'.repeat(20)}\n\nend`;
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': replying(long) });
    const { chat, dir } = await makeChat([a]);
    chat.send('talk');
    await chat.idle();
    const file = `${dir}/sessions.json`;
    const kept = new SessionStore(file).active('c')?.last_line ?? '';
    expect(kept).toHaveLength(LAST_LINE_MAX);
    expect(kept).toBe('abcdefghij'.repeat(12));
    await chat.dispose();
    // The same file as an older Angelia wrote it: no last_line anywhere.
    const data = JSON.parse(readFileSync(file, 'utf8')) as { chats: Record<string, { history: Array<Record<string, unknown>> }> };
    for (const c of Object.values(data.chats)) for (const r of c.history) delete r.last_line;
    writeFileSync(file, JSON.stringify(data));
    const { chat: older } = await makeChat([], {}, { sessions: file });
    expect(older.view().lastLine).toBe('');
    expect(older.view().label).toBe('talk');
  });
});

/**
 * The chat's lifecycle against scripted connections: /stop and Stop while a turn is still
 * starting, stale notifications of a detached process, "Deny and stop" with a reason, Stop dropping the
 * queue, /new and /resume while a message starts, the effort re-checked on a model change, and the state
 * shown after an idle exit or a crash. The same on real Codex: test/integration/chat-stop.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../src/shared/contract';
import { crashDetail } from '../../../src/main/core/chats/process';
import { baseAnswers, completing, deferred, FakeConn, interrupting, itemsOf, makeChat, notices, until } from './fakes';

const lastTurnEnd = (items: ChatItem[]) => itemsOf(items, 'turnEnd').at(-1);

describe('stop while a turn is starting', () => {
  it('/stop while Codex is still starting: turn/start is never sent, and the chat says so', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const gate = deferred();
    const { chat } = await makeChat([conn], {}, { gate: () => gate.promise });
    chat.send('hello');
    await until('starting', () => chat.view().state === 'starting');
    chat.send('/stop');
    await until('the /stop reply', () => notices(chat.transcript.all()).length === 1);
    gate.resolve();
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual(['Stopped: the message "hello" was not sent to the agent (Codex goes on starting, for the next message).']);
    expect(conn.sent('turn/start')).toHaveLength(0);
    expect(chat.view().state).toBe('idle');
    // The process that started stays for the next message.
    chat.send('again');
    await chat.idle();
    expect(conn.sent('turn/start').map((p) => p.input)).toEqual([[{ type: 'text', text: 'again', text_elements: [] }]]);
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'completed' });
  });

  it('Stop after turn/start went out but before its answer: turn/interrupt goes out once the turn is active', async () => {
    const answer = deferred<unknown>();
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => answer.promise, 'turn/interrupt': interrupting() });
    const { chat } = await makeChat([conn], { interruptGraceMs: 60_000 });
    chat.send('hello');
    await until('turn/start sent', () => conn.sent('turn/start').length === 1);
    expect(await chat.interrupt()).toBe(true);
    expect(notices(chat.transcript.all())).toEqual([
      'Stopping: the message "hello" had just been handed to Codex; its turn is interrupted as soon as Codex confirms it started.',
    ]);
    // Codex 0.169.0 answers turn/start before the turn is active: an interrupt now would fail "no active turn".
    answer.resolve({ turn: { id: 'turn-7' } });
    await until('the answer taken', () => chat.view().state === 'working' && conn.calls.length > 0);
    await new Promise((r) => setTimeout(r, 30));
    expect(conn.sent('turn/interrupt')).toHaveLength(0);
    conn.notify('turn/started', { threadId: chat.view().threadId, turn: { id: 'turn-7' } });
    await chat.idle();
    expect(conn.sent('turn/interrupt')).toEqual([{ threadId: chat.view().threadId, turnId: 'turn-7' }]);
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'interrupted', reason: 'stopped with Stop' });
    expect(chat.view().state).toBe('idle');
  });

  it('a turn/started that comes before turn/start\u2019s answer is enough to interrupt a cancelled turn', async () => {
    const answer = deferred<unknown>();
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => answer.promise, 'turn/interrupt': interrupting() });
    const { chat } = await makeChat([conn]);
    chat.send('hello');
    await until('turn/start sent', () => conn.sent('turn/start').length === 1);
    chat.send('/stop');
    await until('the /stop reply', () => notices(chat.transcript.all()).length === 1);
    conn.notify('turn/started', { threadId: chat.view().threadId, turn: { id: 'turn-3' } });
    await until('turn/interrupt', () => conn.sent('turn/interrupt').length === 1);
    expect(conn.sent('turn/interrupt')[0]).toMatchObject({ turnId: 'turn-3' });
    answer.resolve({ turn: { id: 'turn-3' } });
    await chat.idle();
    expect(conn.sent('turn/interrupt')).toHaveLength(1);
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'interrupted', reason: 'stopped with /stop' });
  });

  it('a cancelled turn whose turn/started never comes is interrupted after interruptGraceMs', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-5' } }), 'turn/interrupt': interrupting() });
    const { chat } = await makeChat([conn], { interruptGraceMs: 100 });
    let stopped: Promise<boolean> | null = null;
    chat.send('hello');
    // Stopped in the same tick turn/start goes out, so before its answer.
    await until('turn/start sent', () => conn.sent('turn/start').length === 1 && (stopped ??= chat.interrupt()));
    expect(await stopped).toBe(true);
    await chat.idle();
    expect(conn.sent('turn/interrupt')).toEqual([{ threadId: chat.view().threadId, turnId: 'turn-5' }]);
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'interrupted', reason: 'stopped with Stop' });
  });
});

describe('a detached connection', () => {
  it('notifications and requests of the process /new replaced are ignored; the next turn ends normally', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const b = new FakeConn({ ...baseAnswers(), 'turn/start': completing('completed', null, 'turn-9') });
    const { chat, broker } = await makeChat([a, b]);
    chat.send('one');
    await chat.idle();
    const oldThread = chat.view().threadId;
    chat.send('/new');
    await chat.idle();
    expect(a.stopped).toBe(true);
    const before = chat.transcript.all().length;
    // The old process still speaks after /new (threadId is null now): none of it may count.
    a.notify('turn/started', { threadId: oldThread, turn: { id: 'stale-turn' } });
    a.notify('item/started', { threadId: oldThread, turnId: 'stale-turn', item: { type: 'agentMessage', id: 'stale-msg', text: 'from the old process' } });
    await expect(
      a.serverRequest?.(
        'item/commandExecution/requestApproval',
        { threadId: oldThread, turnId: 'stale-turn', itemId: 'x', command: 'rm -rf /', availableDecisions: ['accept', 'decline'] },
        1,
      ),
    ).rejects.toThrow(/no longer attached/);
    expect(broker.pending()).toHaveLength(0);
    expect(chat.transcript.all()).toHaveLength(before);
    chat.send('two');
    await chat.idle();
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'completed' });
    expect(chat.view().state).toBe('idle');
    expect(b.sent('turn/start')).toHaveLength(1);
  });
});

describe('approvals that end the turn', () => {
  const ask = (chat: { view(): { threadId: string | null } }) => ({
    threadId: chat.view().threadId,
    turnId: 'turn-1',
    itemId: 'x',
    command: 'rm -rf build',
    availableDecisions: ['accept', 'decline', 'cancel'],
  });

  it('"Deny and stop" with a reason: the reason is audited, nothing is steered or queued', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker, audit } = await makeChat([conn]);
    chat.send('clean up');
    await until('the turn', () => conn.sent('turn/start').length === 1);
    const answer = conn.serverRequest?.('item/commandExecution/requestApproval', ask(chat), 7);
    const pending = await until('pending', () => broker.pending()[0]);
    broker.answer(pending.id, 'cancel', 'window', { reason: 'not on a Friday' });
    expect(await answer).toEqual({ decision: 'cancel' });
    conn.notify('turn/completed', { threadId: chat.view().threadId, turn: { id: 'turn-1', status: 'interrupted', error: null } });
    await chat.idle();
    await new Promise((r) => setTimeout(r, 30));
    expect(conn.sent('turn/steer')).toHaveLength(0);
    expect(conn.sent('turn/start')).toHaveLength(1);
    expect(chat.view().queued).toBe(0);
    expect(chat.transcript.all().filter((i) => i.type === 'user' && i.via === 'denyReason')).toHaveLength(0);
    expect(notices(chat.transcript.all())).toContain(
      `Your reason was recorded with the request, not sent to the agent: "Deny and stop" ended the turn. (${pending.id.slice(0, 8)})`,
    );
    expect(audit.records.find((r) => r.event === 'answered')).toMatchObject({ answer: 'cancel', denyReason: 'not on a Friday' });
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({
      status: 'interrupted',
      reason: '"Deny and stop" was chosen for "Run OUTSIDE the sandbox: rm -rf build"',
    });
  });

  it('a plain Deny with a reason steers it into the running turn', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker } = await makeChat([conn]);
    chat.send('clean up');
    await until('the turn', () => conn.sent('turn/start').length === 1);
    const answer = conn.serverRequest?.('item/commandExecution/requestApproval', ask(chat), 7);
    const pending = await until('pending', () => broker.pending()[0]);
    broker.answer(pending.id, 'deny', 'window', { reason: 'use make clean' });
    expect(await answer).toEqual({ decision: 'decline' });
    await until('the steer', () => conn.sent('turn/steer').length === 1);
    expect(conn.sent('turn/steer')[0]).toMatchObject({
      expectedTurnId: 'turn-1',
      input: [{ type: 'text', text: 'I denied that request. use make clean', text_elements: [] }],
    });
  });
});

describe('Stop is /stop', () => {
  it('Stop interrupts the turn and drops the queue, naming what it dropped', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }), 'turn/interrupt': interrupting() });
    const { chat } = await makeChat([conn]);
    chat.send('one');
    chat.send('two');
    chat.send('three');
    await until('the turn', () => chat.view().state === 'working' && conn.sent('turn/start').length === 1);
    conn.notify('turn/started', { threadId: chat.view().threadId, turn: { id: 'turn-1' } });
    expect(chat.view().queued).toBe(2);
    expect(await chat.interrupt()).toBe(true);
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual(['Stopped. Dropped 2 queued: "two", "three".']);
    expect(conn.sent('turn/interrupt')).toHaveLength(1);
    expect(conn.sent('turn/start')).toHaveLength(1);
    expect(chat.view()).toMatchObject({ queued: 0, state: 'idle' });
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'interrupted', reason: 'stopped with Stop' });
  });

  it('Stop with nothing running says so and answers false', async () => {
    const conn = new FakeConn(baseAnswers());
    const { chat } = await makeChat([conn]);
    expect(await chat.interrupt()).toBe(false);
    expect(notices(chat.transcript.all())).toEqual(['Nothing running.']);
  });
});

describe('/new and /resume while a message starts', () => {
  it('/new is refused while a message is starting; the message still runs, nothing is lost', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const gate = deferred();
    const { chat } = await makeChat([conn], {}, { gate: () => gate.promise });
    chat.send('hello');
    await until('starting', () => chat.view().state === 'starting');
    chat.send('/new');
    await until('the reply', () => notices(chat.transcript.all()).length === 1);
    gate.resolve();
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual([
      'A message is still starting in this chat, so /new did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then /new again.',
    ]);
    expect(conn.sent('turn/start')).toHaveLength(1);
    expect(lastTurnEnd(chat.transcript.all())).toMatchObject({ status: 'completed' });
    expect(chat.view().state).toBe('idle');
  });

  it('/resume is refused while a turn runs and a message waits; both go on', async () => {
    let n = 0;
    // /new replaces the process: the second one runs "two" until the test ends it, then "three" at once.
    const first = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const conn = new FakeConn({
      ...baseAnswers(),
      'turn/start': (p, c) => (++n === 1 ? { turn: { id: 'turn-2' } } : completing('completed', null, 'turn-3')(p, c)),
    });
    const { chat } = await makeChat([first, conn]);
    chat.send('one');
    await chat.idle();
    chat.send('/new');
    await chat.idle();
    chat.send('two');
    chat.send('three');
    await until('the turn of "two"', () => conn.sent('turn/start').length === 1);
    const session = chat.view().sessionId;
    chat.send('/resume 2');
    await until('the reply', () => notices(chat.transcript.all()).length === 2);
    expect(notices(chat.transcript.all())[1]).toBe(
      'A turn is running (and 1 queued) in this chat, so /resume did not run and nothing was dropped. Send /stop first (it stops the turn and drops the queue), or wait until it ends; then /resume again.',
    );
    conn.notify('turn/completed', { threadId: chat.view().threadId, turn: { id: 'turn-2', status: 'completed', error: null } });
    await chat.idle();
    expect(conn.sent('turn/start').map((p) => (p.input as Array<{ text: string }>)[0]?.text)).toEqual(['two', 'three']);
    expect(chat.view().sessionId).toBe(session);
  });

  it('/stop then /new while Codex starts: nothing is sent, the new session is active, the chat is not left "starting"', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const b = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const gate = deferred();
    const { chat } = await makeChat([a, b], {}, { gate: () => gate.promise });
    chat.send('hello');
    await until('starting', () => chat.view().state === 'starting');
    const before = chat.view().sessionId;
    chat.send('/stop');
    chat.send('/new');
    await until('the /stop reply', () => notices(chat.transcript.all()).length === 1);
    gate.resolve();
    await chat.idle();
    expect(notices(chat.transcript.all())[1]).toMatch(/^New session started/);
    expect(a.sent('turn/start')).toHaveLength(0);
    expect(a.stopped).toBe(true);
    expect(chat.view()).toMatchObject({ state: 'idle', threadId: null });
    expect(chat.view().sessionId).not.toBe(before);
    chat.send('fresh');
    await chat.idle();
    expect(b.sent('thread/start')).toHaveLength(1);
    expect(b.sent('turn/start')).toHaveLength(1);
  });
});

describe('the effort in force', () => {
  const effort = (e: string) => ({ reasoningEffort: e, description: e });
  const catalog = {
    data: [
      {
        id: 'gpt-5.5',
        model: 'gpt-5.5',
        displayName: 'gpt-5.5',
        hidden: false,
        isDefault: true,
        supportedReasoningEfforts: ['low', 'medium', 'high', 'xhigh'].map(effort),
        defaultReasoningEffort: 'medium',
      },
      {
        id: 'tiny',
        model: 'tiny',
        displayName: 'tiny',
        hidden: false,
        isDefault: false,
        supportedReasoningEfforts: ['low', 'medium'].map(effort),
        defaultReasoningEffort: 'low',
      },
      {
        id: 'deep',
        model: 'deep',
        displayName: 'deep',
        hidden: false,
        isDefault: false,
        supportedReasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'].map(effort),
        defaultReasoningEffort: 'high',
      },
    ],
    nextCursor: null,
  };

  it('/model clears a session effort the new model does not offer; the view, /status and turn/start agree', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'model/list': () => catalog, 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.send('/effort xhigh');
    await chat.idle();
    chat.send('/model deep');
    await chat.idle();
    expect(notices(chat.transcript.all()).at(-1)).toMatch(/ Effort from the next turn: xhigh \(this session\)\.$/);
    chat.send('/model tiny');
    await chat.idle();
    expect(notices(chat.transcript.all()).at(-1)).toMatch(
      /^Model tiny for this session, from the next turn .* Effort xhigh \(set for this session\) is not offered by tiny \(it offers low, medium\), so it was cleared\. Effort from the next turn: low \(default of tiny\)\.$/,
    );
    expect(chat.view()).toMatchObject({ model: 'tiny', effort: 'low', overrides: { model: 'tiny', effort: null } });
    chat.send('/status');
    await chat.idle();
    expect(notices(chat.transcript.all()).at(-1)).toContain('model tiny (this session) · effort low (default of tiny)');
    chat.send('go');
    await chat.idle();
    expect(conn.sent('turn/start')[0]).toMatchObject({ model: 'tiny', effort: 'low' });
  });
});

describe('after an idle exit or a crash', () => {
  it('an idle exit shows the chat stopped, and /status says Codex is not running and why', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([a], { idleMs: 50 });
    chat.send('one');
    await chat.idle();
    expect(chat.view().state).toBe('idle');
    await until('idle exit', () => a.stopped);
    expect(chat.view().state).toBe('stopped');
    chat.send('/status');
    await chat.idle();
    const status = notices(chat.transcript.all()).at(-1) ?? '';
    expect(status).toContain('Codex stopped (it exited after idle_exit_minutes; the next message starts it again)');
    expect(status).toContain('sandbox: none in force now (Codex is not running); it was OFF (the table says sandbox = false) when it last ran');
    expect(status).toContain('codex 0.169.0');
  });

  it('a crash marks the running command interrupted; Restart says which turn was cut off', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': (p) => ({ turn: { id: `turn-${String((p.input as Array<{ text: string }>)[0]?.text)}` } }) });
    const b = new FakeConn(baseAnswers());
    const { chat } = await makeChat([a, b]);
    chat.send('first');
    await until('first turn', () => a.sent('turn/start').length === 1);
    a.notify('turn/completed', { threadId: chat.view().threadId, turn: { id: 'turn-first', status: 'completed', error: null } });
    await chat.idle();
    chat.send('second');
    await until('second turn', () => a.sent('turn/start').length === 2);
    a.notify('item/started', {
      threadId: chat.view().threadId,
      turnId: 'turn-second',
      item: { type: 'commandExecution', id: 'cmd-1', command: 'sleep 100', cwd: '/w', status: 'inProgress' },
    });
    a.die(null, { signal: 'SIGKILL', stderrTail: '2026-01-01T00:00:00Z ERROR codex_core: an old unrelated failure\nsome old plain line' });
    await chat.idle();
    const items = chat.transcript.all();
    expect(itemsOf(items, 'command')[0]).toMatchObject({ id: 'cmd-1', status: 'interrupted' });
    // Killed by a signal: the old stderr lines say nothing about it.
    expect(itemsOf(items, 'error').find((e) => e.kind === 'crashed')).toMatchObject({
      message: expect.stringMatching(/^Codex exited \(signal SIGKILL\)/),
      detail: null,
    });
    expect(chat.view().state).toBe('error');
    chat.send('/status');
    await chat.idle();
    expect(notices(chat.transcript.all()).at(-1)).toContain('Codex stopped (it crashed; Restart or the next message starts it again)');
    expect(await chat.restart()).toBe(true);
    expect(notices(chat.transcript.all()).slice(-2)).toEqual([
      'Codex runs again. The turn of "second" was cut off when Codex exited and did not finish; send it again if you still want it.',
      'Codex is running again; the conversation continues where it was.',
    ]);
    expect(chat.view().state).toBe('idle');
  });

  it('the crash detail comes from this process\u2019s recent stderr only', () => {
    const routine = Array.from({ length: 20 }, (_, i) => `2026-01-01T00:00:${String(i).padStart(2, '0')}Z  INFO codex_app_server: tick ${i}`);
    // An old plain line far up the tail, and a launcher cause that is no longer in the tail: neither is shown.
    expect(crashDetail({ code: 1, signal: null, stderrTail: ['an old plain line', ...routine].join('\n'), cause: 'an old plain line' })).toBeNull();
    expect(crashDetail({ code: 1, signal: null, stderrTail: routine.join('\n'), cause: 'Error: long gone' })).toBeNull();
    // A fatal line at the end is the cause, with or without the launcher's.
    expect(crashDetail({ code: 1, signal: null, stderrTail: [...routine, 'Error: out of memory'].join('\n') })).toBe('Error: out of memory');
    expect(
      crashDetail({ code: 1, signal: null, stderrTail: [...routine, 'Error: bad config', 'in `model`'].join('\n'), cause: 'Error: bad config\nin `model`' }),
    ).toBe('Error: bad config\nin `model`');
    // A signal: only a fatal line explains it (a panic aborts with SIGABRT).
    expect(crashDetail({ code: null, signal: 'SIGKILL', stderrTail: 'a recent plain line' })).toBeNull();
    expect(crashDetail({ code: null, signal: 'SIGABRT', stderrTail: "thread 'main' panicked at src/x.rs:1:1:\nboom" })).toBe(
      "thread 'main' panicked at src/x.rs:1:1:\nboom",
    );
  });
});

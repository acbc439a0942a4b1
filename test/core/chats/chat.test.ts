/**
 * The chat's own logic against a scripted connection (no Codex process): the watchdogs (stall, idle
 * exit, an approval Codex waits on but never sent), a first turn whose process dies (failed, never sent again),
 * commands that never reach the agent, the queue limit and steer. Real-Codex behaviour is covered in
 * test/integration/chat-lifecycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../src/shared/contract';
import { MAX_QUEUE } from '../../../src/main/core/chats/notices';
import { baseAnswers, completing, FakeConn, makeChat, notices, until } from './fakes';

describe('chat commands', () => {
  it('never sends a command or an unknown /word to the agent', async () => {
    const conn = new FakeConn(baseAnswers());
    const { chat } = await makeChat([conn]);
    chat.send('/help');
    chat.send('/frobnicate now');
    chat.send('/status');
    await chat.idle();
    const texts = notices(chat.transcript.all());
    expect(texts[0]).toMatch(/^Commands \(answered by Angelia, no model tokens\):\n\/new — /);
    expect(texts[1]).toMatch(/^Unknown command \/frobnicate\. \/help lists the commands; start with \/\/ to send it as a message/);
    expect(texts[2]).toMatch(/^angelia · profile p · no session yet · codex not started yet\n0 queued\nsandbox: not started yet\n0 sessions in history$/);
    expect(conn.calls.some((c) => c.method === 'turn/start')).toBe(false);
  });

  it('/stop with nothing running says so; "//" sends a text that starts with "/" to the agent', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.send('/stop');
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual(['Nothing running.']);
    chat.send('//usr/bin is missing');
    await chat.idle();
    expect(conn.calls.find((c) => c.method === 'turn/start')?.params.input).toEqual([{ type: 'text', text: '/usr/bin is missing', text_elements: [] }]);
  });

  it('an unknown /word, alone or followed by text, never reaches the agent and says to start with //', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.send('/usr is missing');
    chat.send('/modle gpt-5.5');
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual([
      'Unknown command /usr. /help lists the commands; start with // to send it as a message (//usr … is sent as /usr …).',
      'Unknown command /modle. /help lists the commands; start with // to send it as a message (//modle … is sent as /modle …).',
    ]);
    expect(conn.calls).toHaveLength(0);
    expect(chat.transcript.all().filter((i) => i.type === 'user')).toHaveLength(0);
  });

  it('refuses the eleventh message', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => new Promise(() => {}) });
    const { chat } = await makeChat([conn]);
    for (let n = 0; n < MAX_QUEUE; n++) chat.send(`m${n}`);
    expect(() => chat.send('one too many')).toThrow(/already holds 10 messages/);
  });

  it('steer with no turn running queues the text as its own turn', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    expect(chat.send('hello', { steer: true })).toEqual({ queued: 0 });
    await chat.idle();
    expect(conn.calls.filter((c) => c.method === 'turn/steer')).toHaveLength(0);
    expect(conn.calls.filter((c) => c.method === 'turn/start')).toHaveLength(1);
  });
});

describe('chat watchdogs', () => {
  it('stall: told at half time, interrupted at full time; output in between re-arms it', async () => {
    const conn = new FakeConn({
      ...baseAnswers(),
      'turn/start': () => ({ turn: { id: 'turn-1' } }),
      'turn/interrupt': (p, c) => {
        setTimeout(() => c.notify('turn/completed', { threadId: p.threadId, turn: { id: 'turn-1', status: 'interrupted', error: null } }), 5);
        return {};
      },
    });
    const { chat } = await makeChat([conn], { stallMs: 200 });
    chat.send('work');
    await until('half-time notice', () => notices(chat.transcript.all()).length === 1);
    expect(chat.view().activity).toBe('No output for 0 s');
    conn.notify('item/started', { threadId: chat.view().threadId, turnId: 'turn-1', item: { type: 'agentMessage', id: 'a1', text: '' } });
    expect(chat.view().activity).toBeNull();
    await chat.idle();
    const texts = notices(chat.transcript.all());
    expect(texts[0]).toMatch(/^No output from the agent for 0 s; the turn is stopped at 0 s \(turn_stall_minutes\)/);
    expect(texts.at(-1)).toMatch(/^Stopped: no output from the agent for 0 s/);
    expect(conn.calls.filter((c) => c.method === 'turn/interrupt')).toHaveLength(1);
    expect(chat.transcript.all().at(-1)).toMatchObject({ type: 'turnEnd', status: 'interrupted' });
  });

  it('the stall watchdog does not run while an approval waits for the user', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker } = await makeChat([conn], { stallMs: 100 });
    chat.send('work');
    await until('the turn', () => conn.calls.some((c) => c.method === 'turn/start'));
    const answer = conn.serverRequest?.(
      'item/commandExecution/requestApproval',
      { threadId: chat.view().threadId, turnId: 'turn-1', itemId: 'x', command: 'rm -rf build', availableDecisions: ['accept', 'decline'] },
      7,
    );
    await until('pending', () => broker.pending().length === 1);
    await new Promise((r) => setTimeout(r, 250));
    expect(conn.calls.filter((c) => c.method === 'turn/interrupt')).toHaveLength(0);
    const id = broker.pending()[0]?.id ?? '';
    broker.answer(id, 'deny', 'window');
    expect(await answer).toEqual({ decision: 'decline' });
  });

  it('tells the user when Codex waits on an approval it never sent', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat } = await makeChat([conn]);
    chat.send('work');
    await until('the turn', () => conn.calls.some((c) => c.method === 'turn/start'));
    conn.notify('thread/status/changed', { threadId: chat.view().threadId, status: { type: 'active', activeFlags: ['waitingOnApproval'] } });
    await until('the notice', () => notices(chat.transcript.all()).length === 1);
    expect(notices(chat.transcript.all())[0]).toMatch(/^Codex says this turn waits for an approval, but Angelia never received that request/);
    expect(chat.view().activity).toBe('Waiting on an approval Codex never sent');
  });

  it('idle exit stops the process; the next message starts one and resumes the thread', async () => {
    const first = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const second = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat, starts } = await makeChat([first, second], { idleMs: 50 });
    chat.send('one');
    await chat.idle();
    const thread = chat.view().threadId;
    await until('idle exit', () => first.stopped);
    expect(chat.liveThread).toBeNull();
    chat.send('two');
    await chat.idle();
    expect(starts()).toBe(2);
    expect(second.calls.find((c) => c.method === 'thread/resume')?.params.threadId).toBe(thread);
    expect(chat.transcript.all().filter((i) => i.type === 'error')).toHaveLength(0);
  });
});

describe('chat failures', () => {
  it('a first turn whose process dies fails with the exit as its reason; nothing is sent again, Restart is offered', async () => {
    const a = new FakeConn({
      ...baseAnswers(),
      'turn/start': (_p, conn) => {
        setTimeout(() => conn.die(101), 5);
        return { turn: { id: 'turn-1' } };
      },
    });
    const b = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat, starts } = await makeChat([a, b]);
    chat.send('hello');
    await chat.idle();
    expect(starts()).toBe(1);
    expect(a.calls.filter((c) => c.method === 'turn/start')).toHaveLength(1);
    const items = chat.transcript.all();
    expect(notices(items).join('\n')).not.toMatch(/trying once more/);
    const errors = items.filter((i): i is Extract<ChatItem, { type: 'error' }> => i.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: 'crashed', action: 'restart' });
    expect(errors[0]?.message).toMatch(/^Codex exited \(exit code 101\)/);
    expect(items.filter((i) => i.type === 'turnEnd')).toEqual([expect.objectContaining({ status: 'failed', reason: 'Codex exited (exit code 101)' })]);
    expect(chat.view().state).toBe('error');
    // The next message is the user's own: it resumes the thread on a new process, which names the turn cut off.
    chat.send('again');
    await chat.idle();
    expect(starts()).toBe(2);
    expect(b.calls.filter((c) => c.method === 'turn/start').map((c) => c.params.input)).toEqual([[expect.objectContaining({ text: 'again' })]]);
    expect(notices(chat.transcript.all()).at(-1)).toMatch(/^Codex runs again\. The turn of "hello" was cut off/);
  });

  it('a failed turn is told by codexErrorInfo, not shown as the agent\u2019s message', async () => {
    const conn = new FakeConn({
      ...baseAnswers(),
      'turn/start': completing('failed', { message: 'You\u2019ve hit your usage limit. Try again at 6:42 PM.', codexErrorInfo: 'usageLimitExceeded' }),
    });
    const { chat } = await makeChat([conn]);
    chat.send('hello');
    await chat.idle();
    const items = chat.transcript.all();
    expect(items.some((i) => i.type === 'agent')).toBe(false);
    const error = items.find((i) => i.type === 'error');
    expect(error).toMatchObject({ kind: 'usageLimit' });
    expect(error?.type === 'error' && error.message).toContain('6:42 PM');
    expect(error?.type === 'error' && error.detail).toMatch(/\/model/);
  });

  it('restart after a crash resumes the thread without sending a message', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const b = new FakeConn(baseAnswers());
    const { chat } = await makeChat([a, b]);
    chat.send('hello');
    await chat.idle();
    const thread = chat.view().threadId;
    a.die(1);
    await until('the crash', () => chat.view().state === 'error');
    expect(await chat.restart()).toBe(true);
    expect(b.calls.find((c) => c.method === 'thread/resume')?.params.threadId).toBe(thread);
    expect(b.calls.some((c) => c.method === 'turn/start')).toBe(false);
    expect(chat.view().state).toBe('idle');
  });
});

/**
 * A server request that comes between turns (an MCP server's elicitation, or any request Codex sends
 * with no turn running) makes the chat "needs you"; once it is answered or withdrawn the chat is idle
 * again, not "working" with nothing running (chats/chatEvents.ts `leaveNeedsYou`). Found by the property
 * test test/properties/chat-approvals.property.test.ts. Scripted connections.
 */
import { describe, expect, it } from 'vitest';
import { baseAnswers, FakeConn, makeChat, until } from './fakes';

const command = (threadId: string | null) => ({ threadId, turnId: null, itemId: 'x', command: 'ls', cwd: '/w', availableDecisions: ['accept', 'decline'] });

async function afterATurn() {
  const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
  const made = await makeChat([conn]);
  made.chat.send('go');
  await until('the turn', () => made.chat.turn.turnId);
  const thread = made.chat.view().threadId;
  conn.notify('turn/completed', { threadId: thread, turn: { id: 'turn-1', status: 'completed', error: null } });
  await until('idle', () => !made.chat.turn.current && made.chat.view().state === 'idle');
  return { conn, thread, ...made };
}

describe('a request between turns', () => {
  it('answered: the chat is idle again', async () => {
    const { conn, thread, chat, broker } = await afterATurn();
    const reply = conn.serverRequest?.('item/commandExecution/requestApproval', command(thread), 5);
    const pending = await until('pending', () => broker.pending()[0]);
    expect(chat.view().state).toBe('needs-you');
    broker.answer(pending.id, 'allow', 'window');
    expect(await reply).toEqual({ decision: 'accept' });
    expect(chat.view().state).toBe('idle');
  });

  it('withdrawn by Codex (serverRequest/resolved): the chat is idle again', async () => {
    const { conn, thread, chat, broker } = await afterATurn();
    void conn.serverRequest?.('item/commandExecution/requestApproval', command(thread), 6);
    await until('pending', () => broker.pending()[0]);
    conn.notify('serverRequest/resolved', { threadId: thread, requestId: 6 });
    expect(broker.pending()).toEqual([]);
    expect(chat.view().state).toBe('idle');
  });

  it('during a turn, the last answer makes it "working" again', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, broker } = await makeChat([conn]);
    chat.send('go');
    await until('the turn', () => chat.turn.turnId);
    const reply = conn.serverRequest?.('item/commandExecution/requestApproval', { ...command(chat.view().threadId), turnId: 'turn-1' }, 7);
    const pending = await until('pending', () => broker.pending()[0]);
    broker.answer(pending.id, 'deny', 'tray');
    expect(await reply).toEqual({ decision: 'decline' });
    expect(chat.view().state).toBe('working');
  });
});

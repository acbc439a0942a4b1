/**
 * At most 5 elicitations of one MCP server wait in one chat at once (codex/askLimits.ts `limitOpen`,
 * applied in chats/chatEvents.ts): the next is declined at once, with a notice. Scripted connections.
 */
import { describe, expect, it } from 'vitest';
import { baseAnswers, FakeConn, makeChat, notices, until } from './fakes';

const elicitation = (threadId: string | null, meta: unknown) => ({
  threadId,
  turnId: 'turn-1',
  serverName: 'evil',
  mode: 'form',
  message: 'Allow the evil MCP server to run tool?',
  requestedSchema: { type: 'object', properties: {} },
  _meta: meta,
});

async function working() {
  const a = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
  const made = await makeChat([a]);
  made.chat.send('go');
  await until('the turn', () => a.sent('turn/start').length === 1 && made.chat.view().state === 'working');
  return { a, ...made, thread: made.chat.view().threadId };
}

describe('elicitations of one server waiting at once', () => {
  it('the sixth while five wait is declined at once, with a notice', async () => {
    const { a, chat, broker, thread } = await working();
    const form = { ...elicitation(thread, null), turnId: null, requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } };
    for (let i = 1; i <= 5; i++) void a.serverRequest?.('mcpServer/elicitation/request', form, i);
    await until('five waiting', () => broker.pending().length === 5);
    expect(await a.serverRequest?.('mcpServer/elicitation/request', form, 6)).toEqual({ action: 'decline', content: null, _meta: null });
    expect(broker.pending()).toHaveLength(5);
    expect(notices(chat.transcript.all()).at(-1)).toBe(
      'evil asked for input again while 5 of its requests were waiting in this chat (at most 5 at once); Angelia declined the new one.',
    );
  });
});

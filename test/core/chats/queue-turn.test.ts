/**
 * `Chat.queueTurn`, the loopback API's way into a chat (scripted connections, no Codex): the text is a
 * message as written (a leading `/` is never a chat command), the API turn id rides the queue onto the
 * turn's `user` and `turnEnd` items, two queued turns with the same text keep their own ids, and an app
 * turn always ends with a `turnEnd` (also when its agent never started), which normal turns do not get.
 */
import { describe, expect, it } from 'vitest';
import { baseAnswers, completing, FakeConn, itemsOf, makeChat, notices } from './fakes';

describe('Chat.queueTurn', () => {
  it("queues the text as written, never as a command, and carries the API turn id onto the turn's items", async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.queueTurn('/status', { apiTurn: 'api-1' });
    chat.queueTurn('/status', { apiTurn: 'api-2', app: true });
    await chat.idle();
    const items = chat.transcript.all();
    expect(notices(items)).toEqual([]);
    expect(conn.sent('turn/start').map((p) => (p.input as { text: string }[])[0]?.text)).toEqual(['/status', '/status']);
    expect(itemsOf(items, 'user').map((u) => [u.text, u.apiTurn, u.app ?? false])).toEqual([
      ['/status', 'api-1', false],
      ['/status', 'api-2', true],
    ]);
    expect(itemsOf(items, 'turnEnd').map((e) => [e.status, e.apiTurn])).toEqual([
      ['completed', 'api-1'],
      ['completed', 'api-2'],
    ]);
  });

  it('an app turn whose agent never started still ends with a turn end; an ordinary one does not get one', async () => {
    const { chat } = await makeChat([]);
    chat.queueTurn('plain one', { apiTurn: 'api-1' });
    await chat.idle();
    expect(itemsOf(chat.transcript.all(), 'turnEnd')).toEqual([]);
    chat.queueTurn('app one', { apiTurn: 'api-2', app: true });
    await chat.idle();
    const items = chat.transcript.all();
    expect(items.at(-2)).toMatchObject({ type: 'error', kind: 'startFailed' });
    expect(items.at(-1)).toMatchObject({ type: 'turnEnd', status: 'failed', reason: 'it did not run', apiTurn: 'api-2' });
  });

  it('refuses the 11th turn: the chat holds at most 10 (running and waiting)', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'never-ends' } }) });
    const { chat } = await makeChat([conn]);
    for (let i = 0; i < 10; i++) chat.queueTurn(`t${i}`, { apiTurn: `api-${i}` });
    expect(() => chat.queueTurn('one more', { apiTurn: 'api-x' })).toThrow(/already holds 10 messages/);
    expect(chat.view().queued).toBe(9);
  });
});

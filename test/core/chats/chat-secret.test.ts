/**
 * A secret answer (`isSecret`) is remembered with the thread's session row (chats/chatEvents.ts
 * `keepSecret`, sessions.ts `secret_answer`), so `/ask` from an agent is answered by a fresh thread
 * (chats/ask.ts `threadToAsk`; docs/security-model.md "Questions and elicitations"). Scripted connections.
 */
import { describe, expect, it } from 'vitest';
import { threadToAsk } from '../../../src/main/core/chats/ask';
import { SessionStore } from '../../../src/main/core/chats/sessions';
import { baseAnswers, FakeConn, makeChat, until } from './fakes';

async function working() {
  const a = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
  const made = await makeChat([a]);
  made.chat.send('go');
  await until('the turn', () => a.sent('turn/start').length === 1 && made.chat.view().state === 'working');
  return { a, ...made, thread: made.chat.view().threadId };
}

describe('a secret answer', () => {
  const secretQuestion = (threadId: string | null) => ({
    threadId,
    turnId: 'turn-1',
    itemId: 'q-1',
    questions: [{ id: 'token', header: 'Token', question: 'Your token?', isOther: true, isSecret: true, options: null }],
  });

  it("is remembered with the thread's session row; a skipped secret question is not", async () => {
    const { a, broker, thread, dir } = await working();
    const store = new SessionStore(`${dir}/sessions.json`);
    const skipped = a.serverRequest?.('item/tool/requestUserInput', secretQuestion(thread), 1);
    broker.answer((await until('the question', () => broker.pending()[0])).id, 'deny', 'window');
    await skipped;
    expect(store.active('c')?.secret_answer).toBeUndefined();

    const answered = a.serverRequest?.('item/tool/requestUserInput', secretQuestion(thread), 2);
    broker.answer((await until('the question', () => broker.pending()[0])).id, 'allow', 'window', { answers: { token: ['tok-SECRET'] } });
    expect(await answered).toEqual({ answers: { token: { answers: ['tok-SECRET'] } } });
    expect(store.active('c')).toMatchObject({ threadId: thread, secret_answer: true });
  });

  it('threadToAsk: a thread with a secret answer is copied only for the owner', () => {
    const row = { started: true, threadId: 't1' };
    const cases: [string, Parameters<typeof threadToAsk>[0], boolean, string | null][] = [
      ['a started thread, an agent asks', row, false, 't1'],
      ['a started thread, the owner asks', row, true, 't1'],
      ['a secret answer, an agent asks: a fresh thread', { ...row, secret_answer: true }, false, null],
      ['a secret answer, the owner asks', { ...row, secret_answer: true }, true, 't1'],
      ['not started yet', { ...row, started: false }, true, null],
      ['no row', null, true, null],
    ];
    for (const [what, r, owner, out] of cases) expect(threadToAsk(r, owner), what).toBe(out);
  });
});

/**
 * A chat's start asks its own app-server `account/read` (codex/signInGate.ts): signed out where the model
 * provider needs an OpenAI sign-in, the start is refused `not-signed-in` and no thread or turn is sent;
 * signed in, or an answer that refuses nothing, the chat runs as before. Real Codex: test/integration/sign-in-gate.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { baseAnswers, completing, FakeConn, itemsOf, makeChat, SIGNED_OUT } from './fakes';

/** A connection whose kill ends the process (a refused start kills Codex and waits for its exit). */
class KillableConn extends FakeConn {
  override kill(): void {
    void this.stop();
  }
}

describe('the sign-in gate of a chat start', () => {
  it('signed out where OpenAI sign-in is needed: refused with the fix, no thread/start, no turn/start', async () => {
    const conn = new KillableConn({ ...baseAnswers(), 'account/read': () => SIGNED_OUT, 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.send('hello');
    await chat.idle();
    const view = chat.view();
    expect(view.refusal).toMatch(
      /^Codex is not signed in, and its model provider needs an OpenAI sign-in, so no turn was sent\. Fix: Sign in with `angelia login`/,
    );
    expect(view.state).toBe('error');
    const errors = itemsOf(chat.transcript.all(), 'error');
    expect(errors.at(-1)?.message).toMatch(/^This chat's agent was not started: Codex is not signed in/);
    // No Restart offered: signing in is the fix, and the next message starts the agent.
    expect(errors.at(-1)).not.toHaveProperty('action');
    expect(conn.sent('account/read')).toHaveLength(1);
    expect(conn.sent('thread/start')).toHaveLength(0);
    expect(conn.sent('turn/start')).toHaveLength(0);
    expect(conn.stopped).toBe(true);
  });

  it('signed in: the turn runs', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.send('hello');
    await chat.idle();
    expect(chat.view().refusal).toBeNull();
    expect(conn.sent('account/read')).toHaveLength(1);
    expect(conn.sent('turn/start')).toHaveLength(1);
  });

  it.each([
    ['no OpenAI sign-in needed', () => ({ account: null, requiresOpenaiAuth: false })],
    ['account/read failed', () => Promise.reject(new Error('method not found'))],
  ])('%s: the turn runs', async (_name, answer) => {
    const conn = new FakeConn({ ...baseAnswers(), 'account/read': answer, 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    chat.send('hello');
    await chat.idle();
    expect(chat.view().refusal).toBeNull();
    expect(conn.sent('turn/start')).toHaveLength(1);
  });
});

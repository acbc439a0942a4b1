/**
 * Commands that take no text refuse text after them (field report: `/new fix the bug` dropped "fix the
 * bug" silently): pure rule in commands.ts, and the chat against a scripted connection (no Codex process).
 */
import { describe, expect, it } from 'vitest';
import { extraTextRefusal, NO_ARG_COMMANDS, parseCommand, type ParsedCommand } from '../../../src/main/core/chats/commands';
import { baseAnswers, completing, FakeConn, makeChat, notices } from './fakes';

describe('extraTextRefusal', () => {
  it('refuses text after every command that takes none, naming the command', () => {
    for (const name of ['new', 'help', 'export', 'compact', 'stop', 'status'] as const) {
      expect(NO_ARG_COMMANDS).toContain(name);
      expect(extraTextRefusal(parseCommand(`/${name} fix the bug`) as ParsedCommand)).toMatch(
        new RegExp(`^/${name} takes no text; send the message after /${name}\\.`),
      );
      expect(extraTextRefusal(parseCommand(`/${name}`) as ParsedCommand)).toBeNull();
      expect(extraTextRefusal(parseCommand(`/${name}   `) as ParsedCommand)).toBeNull();
    }
  });

  it('lets /resume, /model and /effort take their argument', () => {
    for (const line of ['/resume 2', '/model gpt-5', '/effort high']) expect(extraTextRefusal(parseCommand(line) as ParsedCommand)).toBeNull();
  });
});

describe('chat: a command given text it does not take', () => {
  it('/new fix the bug: no new session, nothing sent, and the chat says how to send it', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': completing() });
    const { chat } = await makeChat([conn]);
    expect(chat.send('/new fix the bug')).toMatchObject({ command: '/new' });
    chat.send('/stop now');
    await chat.idle();
    expect(notices(chat.transcript.all())).toEqual([
      '/new takes no text; send the message after /new. Nothing was done and nothing was sent (to send it as a message, start it with //).',
      '/stop takes no text; send the message after /stop. Nothing was done and nothing was sent (to send it as a message, start it with //).',
    ]);
    expect(conn.calls.some((c) => c.method === 'turn/start')).toBe(false);
    expect(chat.view().sessionId).toBeNull();
  });
});

/**
 * chats/ghostApproval.ts: what a turn waits on when Codex says it waits for an approval Angelia never
 * received (table), and, on a chat with a scripted connection, the notice naming it and its audit line.
 */
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../src/shared/contract';
import { waitingOn } from '../../../src/main/core/chats/ghostApproval';
import { baseAnswers, FakeConn, makeChat, notices, until } from './fakes';

const cmd = (command: string, status: 'running' | 'completed'): ChatItem => ({
  type: 'command',
  id: `c-${command}`,
  command,
  cwd: '/w',
  output: '',
  exitCode: null,
  status,
});
const change = (paths: string[], status: 'running' | 'completed'): ChatItem => ({
  type: 'fileChange',
  id: `f-${paths.join()}`,
  changes: paths.map((path) => ({ path, kind: 'update', diff: '' })),
  status,
});
const turnEnd: ChatItem = { type: 'turnEnd', id: 't', status: 'completed', reason: null };

describe('waitingOn', () => {
  it.each<[string, ChatItem[], ReturnType<typeof waitingOn>]>([
    [
      'a running command',
      [cmd('ls', 'completed'), cmd('rm -rf\n build', 'running')],
      { kind: 'command', title: 'the command `rm -rf build`', command: 'rm -rf\n build' },
    ],
    ['a running file change', [cmd('ls', 'running'), change(['a.txt', 'b.txt'], 'running')], { kind: 'fileChange', title: 'the change of a.txt, b.txt' }],
    ['nothing running', [cmd('ls', 'completed')], { kind: 'unknown', title: null }],
    ['a command left running by an earlier turn', [cmd('sleep 9', 'running'), turnEnd], { kind: 'unknown', title: null }],
    [
      'a very long command, cut',
      [cmd('x'.repeat(200), 'running')],
      { kind: 'command', title: `the command \`${'x'.repeat(119)}…\``, command: 'x'.repeat(200) },
    ],
    ['no items', [], { kind: 'unknown', title: null }],
  ])('%s', (_name, items, expected) => {
    expect(waitingOn(items)).toEqual(expected);
  });
});

describe('an approval Codex never sent', () => {
  it('the notice names the command Codex waits on, and the audit log gets a never-sent line', async () => {
    const conn = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
    const { chat, audit } = await makeChat([conn]);
    chat.send('work');
    await until('the turn', () => conn.calls.some((c) => c.method === 'turn/start'));
    const threadId = chat.view().threadId;
    conn.notify('item/started', {
      threadId,
      turnId: 'turn-1',
      item: { type: 'commandExecution', id: 'call_1', command: 'make deploy', cwd: '/w', status: 'inProgress' },
    });
    conn.notify('thread/status/changed', { threadId, status: { type: 'active', activeFlags: ['waitingOnApproval'] } });
    await until('the notice', () => notices(chat.transcript.all()).length === 1);
    expect(notices(chat.transcript.all())[0]).toBe(
      'Codex says this turn waits for an approval, but Angelia never received that request (it waits on the command `make deploy`), so there is nothing to answer. /stop ends the turn.',
    );
    expect(chat.view().activity).toBe('Waiting on an approval Codex never sent (the command `make deploy`)');
    expect(audit.records.filter((r) => r.event === 'never-sent')).toEqual([
      expect.objectContaining({ chatId: 'c', profile: 'p', kind: 'command', title: 'the command `make deploy`', command: 'make deploy' }),
    ]);
  });
});

/**
 * The chat keeps what it granted for writing (chat.ts `grants`): no later grant is given in a place an
 * earlier grant made writable, since the agent could replace a path there with a symbolic link after the
 * answer and Codex follows it at each later command (approvals/privateReach.ts). A turn grant lasts
 * until its turn completes, a session grant until the Codex process ends. Scripted connections; the
 * exploit itself on real Codex: test/integration/permissions-private.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { baseAnswers, FakeConn, makeChat, notices, until, type Answer } from './fakes';

/** turn/start answered with `turn-1`, `turn-2`, …; the test completes each turn itself. */
function numberedTurns(): Answer {
  let n = 0;
  return () => ({ turn: { id: `turn-${++n}` } });
}

/** A codex 0.169.0 `item/permissions/requestApproval` for `read` and `write` paths. */
const permissions = (threadId: string | null, turnId: string, read: string[], write: string[]) => ({
  threadId,
  turnId,
  itemId: 'call_1',
  cwd: '/w',
  reason: 'need it',
  permissions: { network: null, fileSystem: { read: read.length ? read : null, write: write.length ? write : null } },
});

describe('later grants inside an earlier write grant', () => {
  it('a session grant refuses later requests inside it, across turns, until the process ends', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': numberedTurns() });
    const b = new FakeConn({ ...baseAnswers(), 'turn/start': numberedTurns() });
    const { chat, broker, audit } = await makeChat([a, b]);
    chat.send('share it');
    await until('turn 1', () => a.sent('turn/start').length === 1 && chat.view().state === 'working');
    const thread = chat.view().threadId;

    const first = a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', [], ['/data/shared']), 1);
    const card = await until('the card', () => broker.pending()[0]);
    broker.answer(card.id, 'allowForSession', 'window');
    expect(await first).toEqual({ permissions: { fileSystem: { read: null, write: ['/data/shared'] } }, scope: 'session' });

    // Same turn: read inside it is answered at once with an empty grant, as already writable.
    const inside = await a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', ['/data/shared/sub'], []), 2);
    expect(inside).toEqual({ permissions: {}, scope: 'turn' });
    expect(broker.pending()).toEqual([]);
    expect(audit.records.at(-1)).toMatchObject({
      event: 'answered-immediately',
      kind: 'permissions',
      refused: [
        {
          access: 'read',
          path: '/data/shared/sub',
          why: 'already writable, not granted again: it lies in /data/shared (write granted earlier in this chat)',
          already: true,
        },
      ],
    });
    expect(notices(chat.transcript.all()).at(-1)).toMatch(
      /^The agent asked for read \/data\/shared\/sub \(already writable, not granted again: .*\)\. It can already write there, so Angelia answered with an empty grant without asking you/,
    );

    // The next turn: still in force.
    a.notify('turn/completed', { threadId: thread, turn: { id: 'turn-1', status: 'completed', error: null } });
    await chat.idle();
    chat.send('again');
    await until('turn 2', () => a.sent('turn/start').length === 2 && chat.view().state === 'working');
    expect(await a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-2', ['/data/shared/sub'], []), 3)).toEqual({
      permissions: {},
      scope: 'turn',
    });
    // A folder beside it is asked as usual.
    void a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-2', ['/data/other'], []), 4);
    const beside = await until('the card beside', () => broker.pending()[0]);
    expect(beside.requested).toEqual({ read: ['/data/other'], write: [], network: false });
    broker.answer(beside.id, 'deny', 'window');
    a.notify('turn/completed', { threadId: thread, turn: { id: 'turn-2', status: 'completed', error: null } });
    await chat.idle();

    // A new Codex process holds no grant of the old one: the same path is asked again.
    a.die(1);
    await until('the crash', () => chat.view().state === 'error');
    expect(await chat.restart()).toBe(true);
    chat.send('once more');
    await until('turn on the new process', () => b.sent('turn/start').length === 1 && chat.view().state === 'working');
    void b.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', ['/data/shared/sub'], []), 5);
    const again = await until('asked again', () => broker.pending()[0]);
    expect(again.requested).toEqual({ read: ['/data/shared/sub'], write: [], network: false });
    broker.answer(again.id, 'deny', 'window');
  });

  it('a turn grant refuses later requests inside it in its turn only; a Deny grants nothing to remember', async () => {
    const a = new FakeConn({ ...baseAnswers(), 'turn/start': numberedTurns() });
    const { chat, broker } = await makeChat([a]);
    chat.send('write the report');
    await until('turn 1', () => a.sent('turn/start').length === 1 && chat.view().state === 'working');
    const thread = chat.view().threadId;

    const denied = a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', [], ['/data/denied']), 1);
    broker.answer((await until('card', () => broker.pending()[0])).id, 'deny', 'window');
    expect(await denied).toEqual({ permissions: {} });

    const granted = a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', [], ['/data/report', '/data/denied']), 2);
    const card = await until('card 2', () => broker.pending()[0]);
    // The earlier Deny left nothing behind: /data/denied is asked again.
    expect(card.requested).toEqual({ read: [], write: ['/data/report', '/data/denied'], network: false });
    broker.answer(card.id, 'allow', 'window', { grant: { read: [], write: ['/data/report'], network: false } });
    expect(await granted).toEqual({ permissions: { fileSystem: { read: null, write: ['/data/report'] } }, scope: 'turn' });

    expect(await a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', [], ['/data/report/x']), 3)).toEqual({
      permissions: {},
      scope: 'turn',
    });
    // Only what was granted is remembered: /data/denied (unchecked) is still asked.
    void a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-1', ['/data/denied/x'], []), 4);
    broker.answer((await until('card 3', () => broker.pending()[0])).id, 'deny', 'window');

    a.notify('turn/completed', { threadId: thread, turn: { id: 'turn-1', status: 'completed', error: null } });
    await chat.idle();
    chat.send('next');
    await until('turn 2', () => a.sent('turn/start').length === 2 && chat.view().state === 'working');
    // The turn grant ended with its turn (Codex drops a `scope: "turn"` grant too, measured on 0.169.0): asked again.
    void a.serverRequest?.('item/permissions/requestApproval', permissions(thread, 'turn-2', [], ['/data/report/x']), 5);
    const later = await until('card 4', () => broker.pending()[0]);
    expect(later.requested).toEqual({ read: [], write: ['/data/report/x'], network: false });
    broker.answer(later.id, 'deny', 'window');
  });
});

/**
 * The API's events derived from the contract's (src/main/api/turns.ts): each turn tagged with the id
 * `/turn` answered (carried by the chat on its `user` and `turnEnd` items, never matched by text), told
 * once however often an item is upserted, and every API turn ended — completed, failed when the agent did
 * not start, dropped when the chat dropped its queue.
 */
import { describe, expect, it } from 'vitest';
import type { AppEvent, ApprovalView, ChatItem, ChatView } from '../../src/shared/contract';
import type { ApiEvent } from '../../src/main/api/core';
import { TurnTracker } from '../../src/main/api/turns';

const AT = '2025-06-01T00:00:00.000Z';

function tracker(): { t: TurnTracker; out: ApiEvent[] } {
  const out: ApiEvent[] = [];
  let n = 0;
  const t = new TurnTracker(
    (e) => out.push(e),
    () => new Date(AT),
    () => `gen-${++n}`,
  );
  return { t, out };
}

const item = (chatId: string, it: ChatItem): AppEvent => ({ event: 'chat:item', payload: { chatId, item: it } });
const updated = (id: string, queued: number): AppEvent => ({
  event: 'chat:updated',
  payload: {
    id,
    profile: id,
    state: 'idle',
    threadId: null,
    enforcement: null,
    lastLine: '',
    refusal: null,
    pendingApprovals: 0,
    queued,
    label: '',
    sessionId: null,
    model: null,
    effort: null,
    overrides: { model: null, effort: null },
    activity: null,
  } satisfies ChatView,
});

function approval(state: ApprovalView['state'], answer: ApprovalView['answer'] = null, by: ApprovalView['by'] = null): AppEvent {
  return {
    event: 'approval:updated',
    payload: {
      id: 'ap-1',
      chatId: 'c',
      profile: 'c',
      kind: 'command',
      title: 'Run ls',
      command: 'ls',
      cwd: '/w',
      reason: null,
      changes: [],
      requested: null,
      answers: ['allow', 'deny'],
      createdAt: AT,
      state,
      answer,
      by,
      granted: null,
      denyReason: null,
    },
  };
}

describe('TurnTracker', () => {
  it("tags a turn's events with the API turn id and tells each item once", () => {
    const { t, out } = tracker();
    const id = t.expect('c');
    t.onAppEvent(updated('c', 1));
    t.onAppEvent(item('c', { type: 'user', id: 'u1', text: 'hello', via: 'turn', apiTurn: id }));
    t.onAppEvent(item('c', { type: 'agent', id: 'a1', text: 'Hi', done: false }));
    t.onAppEvent(item('c', { type: 'command', id: 'x1', command: 'ls', cwd: '/w', output: '', exitCode: null, status: 'running' }));
    t.onAppEvent(item('c', { type: 'command', id: 'x1', command: 'ls', cwd: '/w', output: 'a', exitCode: 0, status: 'completed' }));
    t.onAppEvent(item('c', { type: 'command', id: 'x1', command: 'ls', cwd: '/w', output: 'a', exitCode: 0, status: 'completed' }));
    t.onAppEvent(item('c', { type: 'agent', id: 'a1', text: 'Hi there', done: true }));
    t.onAppEvent(item('c', { type: 'agent', id: 'a1', text: 'Hi there', done: true }));
    t.onAppEvent(item('c', { type: 'turnEnd', id: 'e1', status: 'completed', reason: null, apiTurn: id }));
    expect(out).toEqual([
      { event: 'turn', key: 'c', at: AT, turn: id, text: 'hello' },
      { event: 'progress', key: 'c', at: AT, turn: id, kind: 'command', text: 'running: ls' },
      { event: 'progress', key: 'c', at: AT, turn: id, kind: 'command', text: 'completed: ls (exit 0)' },
      { event: 'out', key: 'c', at: AT, turn: id, text: 'Hi there' },
      { event: 'turn-end', key: 'c', at: AT, turn: id, status: 'completed', reason: null },
    ]);
  });

  it("gives a turn the window started an id of its own, and takes an API turn's id from its item", () => {
    const { t, out } = tracker();
    const b = t.expect('c');
    t.onAppEvent(item('c', { type: 'user', id: 'u0', text: 'second', via: 'turn' }));
    t.onAppEvent(item('c', { type: 'turnEnd', id: 'e0', status: 'completed', reason: null }));
    t.onAppEvent(item('c', { type: 'user', id: 'u1', text: 'second', via: 'turn', apiTurn: b }));
    t.onAppEvent(item('c', { type: 'user', id: 's1', text: 'steered in', via: 'steer' }));
    expect(out.filter((e) => e.event === 'turn').map((e) => e.turn)).toEqual(['gen-2', b]);
  });

  it('tells two queued turns with the same text apart by the id each carries', () => {
    const { t, out } = tracker();
    const first = t.expect('c');
    const second = t.expect('c');
    t.onAppEvent(item('c', { type: 'user', id: 'u1', text: 'same', via: 'turn', apiTurn: first }));
    t.onAppEvent(item('c', { type: 'agent', id: 'a1', text: 'one', done: true }));
    t.onAppEvent(item('c', { type: 'turnEnd', id: 'e1', status: 'completed', reason: null, apiTurn: first }));
    t.onAppEvent(item('c', { type: 'user', id: 'u2', text: 'same', via: 'turn', apiTurn: second }));
    t.onAppEvent(item('c', { type: 'agent', id: 'a2', text: 'two', done: true }));
    t.onAppEvent(item('c', { type: 'turnEnd', id: 'e2', status: 'failed', reason: 'x', apiTurn: second }));
    expect(out.map((e) => [e.event, 'turn' in e ? e.turn : null, 'text' in e ? e.text : e.event === 'turn-end' ? e.status : null])).toEqual([
      ['turn', first, 'same'],
      ['out', first, 'one'],
      ['turn-end', first, 'completed'],
      ['turn', second, 'same'],
      ['out', second, 'two'],
      ['turn-end', second, 'failed'],
    ]);
  });

  it('ends the turn failed when the agent does not start, and the queued API turns dropped', () => {
    const { t, out } = tracker();
    const first = t.expect('c');
    t.onAppEvent(item('c', { type: 'user', id: 'u1', text: 'one', via: 'turn', apiTurn: first }));
    const second = t.expect('c');
    t.onAppEvent(updated('c', 1));
    t.onAppEvent(item('c', { type: 'error', id: 'r1', message: "This chat's agent was not started: refused.", detail: null, kind: 'refused' }));
    t.onAppEvent(updated('c', 0));
    expect(out.filter((e) => e.event === 'turn-end')).toEqual([
      { event: 'turn-end', key: 'c', at: AT, turn: first, status: 'failed', reason: "This chat's agent was not started: refused." },
      { event: 'turn-end', key: 'c', at: AT, turn: second, status: 'dropped', reason: 'the message was dropped before its turn began' },
    ]);
  });

  it('closes a turn left open when the next one begins, and forgets a cancelled one', () => {
    const { t, out } = tracker();
    const first = t.expect('c');
    const gone = t.expect('c');
    t.cancel('c', gone);
    t.onAppEvent(item('c', { type: 'user', id: 'u1', text: 'one', via: 'turn', apiTurn: first }));
    t.onAppEvent(item('c', { type: 'user', id: 'u2', text: 'from the window', via: 'turn' }));
    t.onAppEvent(updated('c', 0));
    expect(out.filter((e) => e.event === 'turn-end')).toEqual([
      { event: 'turn-end', key: 'c', at: AT, turn: first, status: 'failed', reason: 'the turn ended without a turn end' },
    ]);
    expect(out.at(-1)).toMatchObject({ event: 'turn', turn: 'gen-3' });
  });

  it('tells approvals once: permission (with the running turn), then permission-answered', () => {
    const { t, out } = tracker();
    const id = t.expect('c');
    t.onAppEvent(item('c', { type: 'user', id: 'u1', text: 'go', via: 'turn', apiTurn: id }));
    t.onAppEvent(approval('pending'));
    t.onAppEvent(approval('pending'));
    t.onAppEvent(approval('answered', 'allow', 'api'));
    expect(out.slice(1)).toEqual([
      { event: 'permission', key: 'c', at: AT, turn: id, id: 'ap-1', tool: 'command', preview: 'Run ls', detail: 'ls', answers: ['allow', 'deny'] },
      { event: 'permission-answered', key: 'c', at: AT, id: 'ap-1', state: 'answered', allow: true, answer: 'allow', by: 'api' },
    ]);
  });
});

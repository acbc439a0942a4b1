import { describe, expect, it } from 'vitest';
import type { AppEvent, ApprovalView, ChatItem, ChatView, ProfileView } from '../../src/shared/contract';
import {
  applyAnswer,
  applyConnection,
  applyEvent,
  applyItems,
  applySelect,
  applySnapshot,
  initialState,
  type AppState,
} from '../../src/renderer/src/store/app';
import { accessDiff, answeredHere, answeredLine, outcomeNote } from '../../src/renderer/src/features/approvals/describe';
import { hashWithoutRoute, routeFromHash } from '../../src/renderer/src/store/panel';
import { rendererLocation, rendererUrlFor } from '../../src/main/electron/renderer';
import { displayTail } from '../../src/renderer/src/features/chat/CommandItem';
import { chatView } from '../fixtures/fakeCore/types';

const chat = (over: Partial<ChatView> = {}): ChatView => chatView('demo', over);
const profile: ProfileView = { name: 'demo', cwd: '/p/demo', permissionMode: 'default', sandboxed: true, addDirs: ['/p/shared'], model: null, effort: null };
const approval = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  id: 'a1',
  chatId: 'demo',
  profile: 'demo',
  kind: 'command',
  title: 'Run touch x',
  command: 'touch x',
  cwd: '/p/demo',
  reason: null,
  changes: [],
  requested: null,
  answers: ['allow', 'deny', 'cancel'],
  createdAt: '2025-01-01T00:00:00Z',
  state: 'pending',
  answer: null,
  by: null,
  granted: null,
  denyReason: null,
  ...over,
});
const item = (chatId: string, it: ChatItem): AppEvent => ({ event: 'chat:item', payload: { chatId, item: it } });
const delta = (itemId: string, field: 'text' | 'output', d: string): AppEvent => ({
  event: 'chat:delta',
  payload: { chatId: 'demo', itemId, field, delta: d },
});
const run = (events: AppEvent[], s: AppState = initialState): AppState => events.reduce(applyEvent, s);

describe('chats', () => {
  it('chat:updated adds a new chat to the list and replaces it on the next update', () => {
    const s1 = run([{ event: 'chat:updated', payload: chat() }]);
    expect(s1.chats.order).toEqual(['demo']);
    const s2 = applyEvent(s1, { event: 'chat:updated', payload: chat({ state: 'working' }) });
    expect(s2.chats.byId.demo?.state).toBe('working');
    expect(s2.chats.order).toEqual(['demo']);
  });

  it('an update that changes nothing returns the same state object', () => {
    const s1 = run([{ event: 'chat:updated', payload: chat() }]);
    expect(applyEvent(s1, { event: 'chat:updated', payload: chat() })).toBe(s1);
  });

  it('the snapshot loaded on connect replaces the lists and drops a selection whose chat is gone', () => {
    const s1 = applySelect(run([{ event: 'chat:updated', payload: chat({ id: 'old', profile: 'old' }) }]), 'old');
    const s2 = applySnapshot(s1, { profiles: [profile], chats: [chat()], approvals: [approval()] });
    expect(s2.chats.order).toEqual(['demo']);
    expect(s2.chats.profiles.demo?.cwd).toBe('/p/demo');
    expect(s2.approvals.byId.a1?.state).toBe('pending');
    expect(s2.selection.chatId).toBeNull();
    expect(applySnapshot(s2, { profiles: [profile], chats: [chat()], approvals: [approval()] })).toBe(s2);
  });
});

describe('items', () => {
  const agent: ChatItem = { type: 'agent', id: 'm1', text: '', done: false };
  const cmd: ChatItem = { type: 'command', id: 'c1', command: 'ls', cwd: '/p', output: '', exitCode: null, status: 'running' };

  it('chat:item appends new items in arrival order and upserts by id in place', () => {
    const s = run([
      item('demo', { type: 'user', id: 'u1', text: 'hi' }),
      item('demo', agent),
      item('demo', cmd),
      item('demo', { ...agent, text: 'Hello', done: true }),
    ]);
    expect(s.items.byChat.demo?.map((i) => i.id)).toEqual(['u1', 'm1', 'c1']);
    expect(s.items.byChat.demo?.[1]).toEqual({ ...agent, text: 'Hello', done: true });
  });

  it('chat:delta appends text to an agent message and output to a command', () => {
    const s = run([
      item('demo', agent),
      item('demo', cmd),
      delta('m1', 'text', 'Hel'),
      delta('m1', 'text', 'lo'),
      delta('c1', 'output', 'a\n'),
      delta('c1', 'output', 'b\n'),
    ]);
    expect(s.items.byChat.demo?.[0]).toMatchObject({ text: 'Hello' });
    expect(s.items.byChat.demo?.[1]).toMatchObject({ output: 'a\nb\n' });
  });

  it('a delta for an unknown item, the wrong field or an empty delta leaves the state unchanged', () => {
    const s = run([item('demo', agent), item('demo', cmd)]);
    expect(applyEvent(s, delta('nope', 'text', 'x'))).toBe(s);
    expect(applyEvent(s, delta('m1', 'output', 'x'))).toBe(s);
    expect(applyEvent(s, delta('c1', 'text', 'x'))).toBe(s);
    expect(applyEvent(s, delta('m1', 'text', ''))).toBe(s);
    expect(applyEvent(s, { event: 'chat:delta', payload: { chatId: 'other', itemId: 'm1', field: 'text', delta: 'x' } })).toBe(s);
  });

  it('re-sending an identical item returns the same state object and leaves other items untouched', () => {
    const s = run([item('demo', agent), item('demo', cmd)]);
    expect(applyEvent(s, item('demo', { ...agent }))).toBe(s);
    const s2 = applyEvent(s, delta('c1', 'output', 'x'));
    expect(s2.items.byChat.demo?.[0]).toBe(s.items.byChat.demo?.[0]);
  });

  it('a loaded transcript replaces the events seen so far; a lost connection marks it for reloading', () => {
    const s1 = run([item('demo', agent)]);
    const full: ChatItem[] = [
      { type: 'user', id: 'u1', text: 'hi' },
      { ...agent, text: 'Hello' },
    ];
    const s2 = applyItems(s1, 'demo', full);
    expect(s2.items.byChat.demo).toEqual(full);
    expect(s2.items.loaded.demo).toBe(true);
    expect(applyItems(s2, 'demo', full)).toBe(s2);
    const s3 = applyConnection(applyConnection(s2, 'open'), 'closed');
    expect(s3.connection).toBe('closed');
    expect(s3.items.loaded.demo).toBeUndefined();
    expect(s3.items.byChat.demo).toEqual(full);
  });
});

describe('approvals', () => {
  it('approval:updated upserts by id, and an identical update returns the same state', () => {
    const s1 = run([{ event: 'approval:updated', payload: approval() }]);
    expect(s1.approvals.byId.a1?.state).toBe('pending');
    expect(applyEvent(s1, { event: 'approval:updated', payload: approval() })).toBe(s1);
    const s2 = applyEvent(s1, { event: 'approval:updated', payload: approval({ state: 'answered', answer: 'deny', by: 'notification' }) });
    expect(s2.approvals.byId.a1).toMatchObject({ state: 'answered', answer: 'deny', by: 'notification' });
  });

  it("this window's answer settles the card at once", () => {
    const s1 = run([{ event: 'approval:updated', payload: approval() }]);
    const s2 = applyAnswer(s1, 'a1', { outcome: 'answered', answer: 'allow', by: 'window' });
    expect(s2.approvals.byId.a1).toMatchObject({ state: 'answered', answer: 'allow', by: 'window' });
    expect(answeredLine('allow', 'window', 'command')).toBe('Allowed once — answered in the window');
    expect(answeredHere(s2.approvals.byId.a1!, s2.approvals.outcomes.a1)).toBe(true);
    expect(applyAnswer(s2, 'a1', { outcome: 'answered', answer: 'allow', by: 'window' })).toBe(s2);
  });

  it('an answer that lost the race shows the answer in force', () => {
    const s1 = run([{ event: 'approval:updated', payload: approval() }]);
    const outcome = { outcome: 'already-answered', answer: 'deny', by: 'notification' } as const;
    const s2 = applyAnswer(s1, 'a1', outcome);
    expect(s2.approvals.byId.a1).toMatchObject({ state: 'answered', answer: 'deny', by: 'notification' });
    expect(outcomeNote(s2.approvals.outcomes.a1)).toBe('Already answered (Denied, from a notification)');
    expect(answeredHere(s2.approvals.byId.a1!, s2.approvals.outcomes.a1)).toBe(false);
  });

  it('another window\'s answer never reads "from this window", not even when it beat this window\'s click', () => {
    const s1 = run([{ event: 'approval:updated', payload: approval() }]);
    const s2 = applyAnswer(s1, 'a1', { outcome: 'already-answered', answer: 'allow', by: 'window' });
    expect(answeredHere(s2.approvals.byId.a1!, s2.approvals.outcomes.a1)).toBe(false);
    expect(outcomeNote(s2.approvals.outcomes.a1, 'command')).toBe('Already answered (Allowed once, from another window)');
    // Settled by an event only (no click here): another window.
    const s3 = applyEvent(s1, { event: 'approval:updated', payload: approval({ state: 'answered', answer: 'deny', by: 'window' }) });
    expect(answeredHere(s3.approvals.byId.a1!, s3.approvals.outcomes.a1)).toBe(false);
  });

  it('requested folders show as a diff against the profile', () => {
    const lines = accessDiff({ read: ['/etc/hosts'], write: ['/p/other', '/p/shared/sub'], network: true }, profile);
    expect(lines).toEqual([
      { sign: '+', text: 'write /p/other (not in the profile)', key: 'write:/p/other' },
      { sign: '=', text: 'write /p/shared/sub (the profile already allows it)', key: 'write:/p/shared/sub' },
      { sign: '+', text: 'read /etc/hosts (not in the profile)', key: 'read:/etc/hosts' },
      { sign: '+', text: 'network', key: 'network' },
    ]);
  });
});

describe('selection and display', () => {
  it('selecting the open chat again returns the same state', () => {
    const s1 = applySelect(initialState, 'demo');
    expect(s1.selection.chatId).toBe('demo');
    expect(applySelect(s1, 'demo')).toBe(s1);
    expect(applySelect(s1, null).selection.chatId).toBeNull();
  });

  it('a long command output shows its tail and says how much is hidden', () => {
    const { text, hidden } = displayTail('x'.repeat(25) + 'END', 10);
    expect(text.endsWith('END')).toBe(true);
    expect(text).toHaveLength(10);
    expect(hidden).toBe(18);
  });
});

describe('the route in the URL fragment', () => {
  it('reads a chat or the table review, beside other parameters', () => {
    expect(routeFromHash('#chat=demo')).toEqual({ chat: 'demo' });
    expect(routeFromHash('#chat=my%20chat%2F2')).toEqual({ chat: 'my chat/2' });
    expect(routeFromHash('#token=abc&chat=research')).toEqual({ chat: 'research' });
    expect(routeFromHash('#review=table')).toEqual({ review: 'table' });
    expect(routeFromHash('#chat=demo&review=table')).toEqual({ chat: 'demo' });
    for (const none of ['', '#', '#token=abc', '#chat=', '#review=other', 'chat']) expect(routeFromHash(none), none).toBeNull();
  });

  it('takes the route out of the fragment and keeps the rest', () => {
    expect(hashWithoutRoute('#chat=demo')).toBe('');
    expect(hashWithoutRoute('#review=table')).toBe('');
    expect(hashWithoutRoute('#token=abc&chat=demo')).toBe('#token=abc');
    expect(hashWithoutRoute('')).toBe('');
  });

  it('agrees with the URLs Electron opens windows on', () => {
    const loc = rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true });
    expect(routeFromHash(new URL(rendererUrlFor(loc, { chat: 'demo · #2' })).hash)).toEqual({ chat: 'demo · #2' });
    expect(routeFromHash(new URL(rendererUrlFor(loc, { review: 'table' })).hash)).toEqual({ review: 'table' });
    expect(routeFromHash(new URL(rendererUrlFor(loc, null)).hash)).toBeNull();
  });
});

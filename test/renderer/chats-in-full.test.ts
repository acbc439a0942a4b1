/**
 * The renderer's pure parts for "chats in full": new chats and their names, session lists, the model
 * line, steer/deny-reason captions, error kinds and Restart, the command hints, and what an approval
 * card grants and says once answered.
 */
import { describe, expect, it } from 'vitest';
import type { ApprovalView, ChatItem, ChatView, ProfileView, SessionView } from '../../src/shared/contract';
import { COMMANDS } from '../../src/main/core/chats/commands';
import { applyCreated, applyEvent, applySessions, initialState } from '../../src/renderer/src/store/app';
import { chatName } from '../../src/renderer/src/store/chats';
import { COMMAND_HINTS, commandHints, completeCommand, SLASH_TIP, slashTip } from '../../src/renderer/src/features/chat/commands';
import { canStop, errorKindLabel, modelLine, restartableErrorId, turnRunning, viaCaption } from '../../src/renderer/src/features/chat/describe';
import { outgoing, queuedLine, sendable } from '../../src/renderer/src/features/chat/Composer';
import {
  accessCount,
  alreadyAnsweredLine,
  answeredLabel,
  answerLabel,
  grantedLines,
  grantOf,
  settledLine,
  sourceLabel,
} from '../../src/renderer/src/features/approvals/describe';
import { plainPreview } from '../../src/renderer/src/features/chats/preview';
import { chatView } from '../fixtures/fakeCore/types';

const chat = (over: Partial<ChatView> = {}): ChatView => chatView('demo', over);
const profile: ProfileView = { name: 'demo', cwd: '/p/demo', permissionMode: 'default', sandboxed: true, addDirs: [], model: null, effort: null };
const session = (over: Partial<SessionView> = {}): SessionView => ({
  id: 's1',
  threadId: null,
  label: 'hi',
  turns: 1,
  lastUsedAt: '2025-01-01T00:00:00Z',
  active: true,
  ...over,
});

describe('new chats and how several chats of one profile are told apart', () => {
  it('a created chat is listed and opened; an earlier event for it is not overwritten', () => {
    const created = chat({ id: 'demo-2' });
    const s1 = applyCreated(initialState, created);
    expect(s1.chats.order).toEqual(['demo-2']);
    expect(s1.selection.chatId).toBe('demo-2');
    expect(applyCreated(s1, created)).toBe(s1);

    const newer = chat({ id: 'demo-3', state: 'working' });
    const s2 = applyCreated(applyEvent(initialState, { event: 'chat:updated', payload: newer }), chat({ id: 'demo-3' }));
    expect(s2.chats.byId['demo-3']?.state).toBe('working');
    expect(s2.selection.chatId).toBe('demo-3');
  });

  it('the first chat of a profile keeps its name; later ones get "· #n"', () => {
    const s = [chat(), chat({ id: 'other', profile: 'other' }), chat({ id: 'demo-2' }), chat({ id: 'demo-3' })].reduce(
      (st, c) => applyEvent(st, { event: 'chat:updated', payload: c }),
      initialState,
    );
    expect(['demo', 'other', 'demo-2', 'demo-3'].map((id) => chatName(s.chats, id))).toEqual(['demo', 'other', 'demo · #2', 'demo · #3']);
    expect(chatName(s.chats, 'gone')).toBe('gone');
  });

  it('a session list replaces the one loaded before, and an identical one changes nothing', () => {
    const s1 = applySessions(initialState, 'demo', [session()]);
    expect(s1.sessions.byChat.demo).toEqual([session()]);
    expect(applySessions(s1, 'demo', [session()])).toBe(s1);
    const s2 = applySessions(s1, 'demo', [session({ id: 's2' }), session({ active: false })]);
    expect(s2.sessions.byChat.demo?.map((x) => x.id)).toEqual(['s2', 's1']);
  });
});

describe('the chat header and transcript', () => {
  it('the model line says which setting is a session-only override', () => {
    expect(modelLine(chat(), profile)).toBe('');
    expect(modelLine(chat(), { ...profile, model: 'gpt-5', effort: 'low' })).toBe('gpt-5 · effort low');
    expect(modelLine(chat({ model: 'gpt-5.1-codex', effort: 'medium' }), profile)).toBe('gpt-5.1-codex · effort medium');
    expect(modelLine(chat({ model: 'mini', effort: 'high', overrides: { model: 'mini', effort: null } }), profile)).toBe('mini (this session) · effort high');
    expect(modelLine(chat({ model: 'x', effort: 'high', overrides: { model: null, effort: 'high' } }), profile)).toBe('x · effort high (this session)');
  });

  it('a turn runs while working or waiting on an approval', () => {
    expect(
      ['idle', 'starting', 'working', 'needs-you', 'error', 'refused', 'stopped'].filter((state) => turnRunning({ state: state as ChatView['state'] })),
    ).toEqual(['working', 'needs-you']);
  });

  it('Stop shows while a turn is starting or running', () => {
    expect(
      ['idle', 'starting', 'working', 'needs-you', 'error', 'refused', 'stopped'].filter((state) => canStop({ state: state as ChatView['state'] })),
    ).toEqual(['starting', 'working', 'needs-you']);
  });

  it('user messages that did not start a turn say how they reached the agent', () => {
    expect(viaCaption('steer')).toBe('steered into the running turn');
    expect(viaCaption('denyReason')).toBe('reason given with a Deny');
    expect(viaCaption('turn')).toBeNull();
    expect(viaCaption(undefined)).toBeNull();
  });

  it('error kinds get short badges; unknown kinds are spelt out', () => {
    expect(errorKindLabel('usageLimit')).toBe('usage limit');
    expect(errorKindLabel('contextWindow')).toBe('context full');
    expect(errorKindLabel('somethingNew')).toBe('something new');
  });

  it('only the newest error offers Restart, and only while the chat is stopped by it', () => {
    const crash = (id: string, restart = true): ChatItem => ({
      type: 'error',
      id,
      message: 'Codex stopped',
      detail: null,
      kind: 'crashed',
      ...(restart ? { action: 'restart' as const } : {}),
    });
    const items: ChatItem[] = [crash('e1'), { type: 'user', id: 'u', text: 'hi' }, crash('e2')];
    expect(restartableErrorId(items, 'error')).toBe('e2');
    expect(restartableErrorId(items, 'stopped')).toBe('e2');
    expect(restartableErrorId(items, 'idle')).toBeNull();
    expect(restartableErrorId([...items, crash('e3', false)], 'error')).toBeNull();
    expect(restartableErrorId([], 'error')).toBeNull();
  });

  it('the queue line counts what waits', () => {
    expect(queuedLine(0)).toBeNull();
    expect(queuedLine(1)).toMatch(/^1 queued — it goes in when the current turn ends/);
    expect(queuedLine(3)).toMatch(/^3 queued — they go in/);
    expect(queuedLine(1, false)).toBe('1 queued — it goes in when the current turn ends.');
    // Held at a usage limit, it waits for the reset.
    expect(queuedLine(1, false, 'paused until 14:05')).toBe('1 queued — it goes in when the usage limit resets (paused until 14:05).');
    expect(queuedLine(2, true, 'paused until 14:05')).toBe(
      '2 queued — they go in when the usage limit resets (paused until 14:05). Ctrl+Enter steers into the running turn instead.',
    );
  });
});

describe('command hints', () => {
  it('list every command the core answers, no more', () => {
    expect(COMMAND_HINTS.map((c) => c.name).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it('show while a command name is being typed, filtered by what was typed', () => {
    expect(commandHints('/').map((c) => c.name)).toEqual(COMMAND_HINTS.map((c) => c.name));
    expect(commandHints('/st').map((c) => c.name)).toEqual(['stop', 'status']);
    expect(commandHints('/STA').map((c) => c.name)).toEqual(['status']);
    expect(commandHints('/model gpt')).toEqual([]);
    expect(commandHints('hello /st')).toEqual([]);
    expect(commandHints('/usr/bin')).toEqual([]);
    expect(commandHints('/zzz')).toEqual([]);
  });

  it('"//" is no command: no hints, and a tip says it goes to the agent as "/…"', () => {
    expect(commandHints('//')).toEqual([]);
    expect(commandHints('//st')).toEqual([]);
    expect(slashTip('//status of the build')).toBe('Goes to the agent as text: “/status of the build”');
    expect(slashTip('//' + 'x'.repeat(60))).toBe(`Goes to the agent as text: “/${'x'.repeat(39)}…”`);
  });

  it('a "/word" that names no command gets the tip to start it with "//"; commands and plain text get none', () => {
    expect(SLASH_TIP).toBe('Start with // to send text beginning with /');
    expect(slashTip('/zzz')).toBe('/zzz is not a command. Start with // to send text beginning with /.');
    expect(slashTip('/usr/bin is missing')).toBeNull();
    expect(slashTip('/usr is missing')).toBe('/usr is not a command. Start with // to send text beginning with /.');
    for (const hinted of ['/', '/st', '/status', '/STATUS']) expect(slashTip(hinted), hinted).toBe(SLASH_TIP);
    for (const none of ['/model gpt-5', '/resume 2', 'hello /x', ' /x', '']) expect(slashTip(none), none).toBeNull();
  });

  it('sends the text as typed: a leading space or slash stays, only the blank end goes; all-blank is not sent', () => {
    expect(outgoing(' /usr/bin is missing')).toBe(' /usr/bin is missing');
    expect(outgoing('//x ')).toBe('//x');
    expect(outgoing('  indented\ncode\n\n')).toBe('  indented\ncode');
    expect(sendable(' \n\t ')).toBe(false);
    expect(sendable(' /x')).toBe(true);
  });

  it('picking a command leaves room for its arguments when it takes some', () => {
    const byName = (n: string) => COMMAND_HINTS.find((c) => c.name === n)!;
    expect(completeCommand(byName('model'))).toBe('/model ');
    expect(completeCommand(byName('status'))).toBe('/status');
  });
});

describe('approval grants and answers', () => {
  const requested = { read: ['/r'], write: ['/a', '/b'], network: true };
  const view = (over: Partial<ApprovalView>): ApprovalView => ({
    id: 'p',
    chatId: 'demo',
    profile: 'demo',
    kind: 'permissions',
    title: 'More access',
    command: null,
    cwd: null,
    reason: null,
    changes: [],
    requested,
    answers: ['allow', 'deny'],
    createdAt: '2025-01-01T00:00:00Z',
    state: 'answered',
    answer: 'allow',
    by: 'window',
    granted: null,
    denyReason: null,
    ...over,
  });

  it('counts folders and network', () => {
    expect(accessCount(requested)).toBe(4);
    expect(accessCount({ read: [], write: ['/a'], network: false })).toBe(1);
  });

  it('sends no grant when everything stays checked, else the checked subset', () => {
    expect(grantOf(requested, new Set())).toBeNull();
    expect(grantOf(requested, new Set(['write:/b', 'network']))).toEqual({ read: ['/r'], write: ['/a'], network: false });
    expect(grantOf(requested, new Set(['read:/r', 'write:/a', 'write:/b', 'network']))).toEqual({ read: [], write: [], network: false });
  });

  it('says what was granted and what was left out', () => {
    expect(grantedLines(requested, requested)).toEqual({ granted: 'Granted: write /a, write /b, read /r, network', notGranted: null });
    expect(grantedLines(requested, { read: [], write: ['/a'], network: true })).toEqual({
      granted: 'Granted: write /a, network',
      notGranted: 'Not granted: write /b, read /r',
    });
  });

  it('a lost race names the answer in force and where it truly came from', () => {
    expect(alreadyAnsweredLine('allow', 'notification')).toBe('Already answered (Allowed, from a notification)');
    expect(alreadyAnsweredLine('allow', 'window', 'command')).toBe('Already answered (Allowed once, from another window)');
    expect(alreadyAnsweredLine('allowForSession', 'tray', 'permissions')).toBe('Already answered (Allowed for this session, from the tray)');
    expect(alreadyAnsweredLine('deny', 'timeout')).toBe('Already settled (timed out, denied)');
    expect(alreadyAnsweredLine(null, 'codex')).toBe('Already settled (withdrawn by Codex)');
    expect(alreadyAnsweredLine(null, null)).toBe('Already answered (Answered)');
    expect(settledLine(view({ answer: 'deny', by: 'tray', denyReason: 'no' }))).toBe('Denied — answered from the tray');
  });

  it('a settled card says how it ended from the recorded source, not from which page clicked', () => {
    // After a reload the page never clicked: a window answer still reads "answered in the window".
    expect(settledLine(view({ answer: 'allow', by: 'window' }))).toBe('Allowed for this turn — answered in the window');
    expect(settledLine(view({ kind: 'command', answer: 'cancel', by: 'window' }))).toBe('Denied and stopped — answered in the window');
    expect(settledLine(view({ answer: 'deny', by: 'notification' }))).toBe('Denied — answered from a notification');
    expect(settledLine(view({ answer: 'deny', by: 'api' }))).toBe('Denied — answered through the local API');
    expect(settledLine(view({ state: 'timedOut', answer: 'deny', by: 'timeout', createdAt: '2025-01-01T00:00:00Z', settledAt: '2025-01-01T00:10:00Z' }))).toBe(
      'Timed out after 10 min: denied',
    );
    expect(settledLine(view({ state: 'timedOut', answer: 'deny', by: 'timeout', createdAt: '2025-01-01T00:00:00Z', settledAt: '2025-01-01T00:00:30Z' }))).toBe(
      'Timed out after 30 s: denied',
    );
    expect(settledLine(view({ state: 'timedOut', answer: 'deny', by: 'timeout' }))).toBe('Timed out: denied');
    expect(settledLine(view({ state: 'withdrawn', by: 'codex', withdrawnWhy: 'the turn ended' }))).toBe('Withdrawn: the turn ended');
    expect(settledLine(view({ state: 'withdrawn', by: 'codex' }))).toBe('Withdrawn: Codex settled it, or the turn ended');
    expect(settledLine(view({ state: 'pending' }))).toBe('');
  });

  it('every source reads truthfully', () => {
    expect((['window', 'notification', 'tray', 'cli', 'api', 'timeout', 'codex'] as const).map((by) => sourceLabel(by))).toEqual([
      'in the window',
      'from a notification',
      'from the tray',
      'from the command line',
      'through the local API',
      'timed out',
      'by Codex',
    ]);
  });

  it('each Allow names its scope as Codex grants it: once or for this session, for this turn or this session', () => {
    expect((['allow', 'allowForSession', 'deny', 'cancel'] as const).map((a) => answerLabel('command', a))).toEqual([
      'Allow once',
      'Allow for this session',
      'Deny',
      'Deny and stop',
    ]);
    expect((['allow', 'allowForSession'] as const).map((a) => answerLabel('fileChange', a))).toEqual(['Allow once', 'Allow for this session']);
    expect((['allow', 'allowForSession', 'deny'] as const).map((a) => answerLabel('permissions', a))).toEqual([
      'Allow for this turn',
      'Allow for this session',
      'Deny',
    ]);
    expect(answeredLabel('permissions', 'allow')).toBe('Allowed for this turn');
    expect(answeredLabel('command', 'allow')).toBe('Allowed once');
    expect(answeredLabel(null, 'allow')).toBe('Allowed');
  });
});

describe('the chat list preview', () => {
  it('shows the plain text of a Markdown last line', () => {
    expect(plainPreview('I will **list the files** in `demo` first, then create `notes.txt`.')).toBe(
      'I will list the files in demo first, then create notes.txt.',
    );
    expect(plainPreview('See [the docs](https://example.com/x) and ![a chart](c.png) _now_')).toBe('See the docs and a chart now');
    expect(plainPreview('## Done - fixed `a` - added <b>b</b>')).toBe('Done - fixed a - added b');
    expect(plainPreview('> quoted ~~old~~ text')).toBe('quoted old text');
    expect(plainPreview('- first item')).toBe('first item');
    expect(plainPreview('2 * 3 * 4 = 24 and snake_case_name stay')).toBe('2 * 3 * 4 = 24 and snake_case_name stay');
    expect(plainPreview('escaped \\*stars\\*')).toBe('escaped *stars*');
  });

  it('drops the markers a cut at 120 characters left open, and keeps a line that is only markup', () => {
    expect(plainPreview('Created **notes.t')).toBe('Created notes.t');
    expect(plainPreview('Run `npm ins')).toBe('Run npm ins');
    expect(plainPreview('---')).toBe('---');
    expect(plainPreview('  ')).toBe('');
    expect(plainPreview('two\n\nparagraphs')).toBe('two paragraphs');
  });
});

import { describe, expect, it } from 'vitest';
import type { AnswerExtra } from '../../src/main/electron/answers';
import { NotificationRouter, requestNotification } from '../../src/main/electron/notifications';
import type { AppEvent, ApprovalAnswer, ApprovalView, ChatItem } from '../../src/shared/contract';
import type { NotificationSetting } from '../../src/shared/profileFields';
import type { HomeUsage } from '../../src/shared/usage';
import { approvalView, chatView, notificationFactory } from './fakes';

const question = (id: string, over: Partial<ApprovalView> = {}): ApprovalView =>
  approvalView(id, {
    kind: 'userInput',
    title: 'The agent asks',
    command: null,
    cwd: null,
    answers: ['allow', 'deny'],
    questions: [
      {
        id: 'color',
        header: 'Colour',
        question: 'Which colour?',
        isOther: false,
        isSecret: false,
        options: [
          { label: 'Red', description: '' },
          { label: 'Blue', description: '' },
        ],
      },
    ],
    ...over,
  });

const elicitation = (id: string, mode: 'form' | 'url' = 'form'): ApprovalView =>
  approvalView(id, {
    kind: 'elicitation',
    title: 'github asks',
    command: null,
    cwd: null,
    answers: ['allow', 'deny', 'cancel'],
    elicitation: {
      serverName: 'github',
      mode,
      message: 'Which repository?',
      fields: [],
      url: mode === 'url' ? 'https://evil.example/login' : null,
      domain: mode === 'url' ? 'evil.example' : null,
    },
  });

/** A router with a recording answer function; `settings` by profile ("demo" is the chat's). */
function setup(opts: { platform?: NodeJS.Platform; settings?: Record<string, NotificationSetting>; focused?: string[] } = {}) {
  const factory = notificationFactory();
  const opened: string[] = [];
  const usage: number[] = [];
  const answered: Array<{ id: string; answer: ApprovalAnswer; extra?: AnswerExtra }> = [];
  const settings = opts.settings ?? {};
  const router = new NotificationRouter({
    create: factory.create,
    isSupported: () => true,
    platform: opts.platform ?? 'darwin',
    openChat: (id) => opened.push(id),
    openUsage: () => usage.push(1),
    answer: (id, answer, extra) => {
      answered.push({ id, answer, ...(extra ? { extra } : {}) });
      return { ok: true, value: { outcome: 'answered', answer, by: 'notification' } };
    },
    profiles: () => Object.entries(settings).map(([name, notifications]) => ({ name, notifications })),
    chats: [chatView('demo', { state: 'idle' })],
    isChatFocused: (id) => (opts.focused ?? []).includes(id),
    now: () => new Date('2025-01-01T12:00:00Z'),
  });
  const emit = (e: AppEvent): void => router.handle(e);
  const item = (item: ChatItem, chatId = 'demo'): void => emit({ event: 'chat:item', payload: { chatId, item } });
  /** One turn of chat "demo": busy, the agent's answer, the turn end (with `status` and `reason`). */
  const turn = (answer: string | null, status: 'completed' | 'failed' | 'interrupted' = 'completed', reason: string | null = null): void => {
    emit({ event: 'chat:updated', payload: chatView('demo', { state: 'working' }) });
    if (answer !== null) item({ type: 'agent', id: `a-${answer}`, text: answer, done: true });
    item({ type: 'turnEnd', id: `t-${answer}`, status, reason });
    emit({ event: 'chat:updated', payload: chatView('demo', { state: status === 'failed' ? 'error' : 'idle' }) });
  };
  return { router, made: factory.made, opened, usage, answered, emit, item, turn };
}

const home = (over: Partial<HomeUsage> = {}): HomeUsage => ({ codexHome: '/h', rateLimits: null, reportedAt: null, pausedUntil: null, ...over });

describe('requestNotification: questions and elicitations', () => {
  it('a single-choice question on macOS: "<profile> asks", the question, its options as buttons', () => {
    const n = requestNotification(question('q'), 'darwin');
    expect(n.options).toMatchObject({
      title: 'demo asks',
      body: 'Colour: Which colour?',
      actions: [{ text: 'Answer: Red' }, { text: 'Answer: Blue' }],
      closeButtonText: 'Later',
    });
    expect(n.buttons).toEqual([
      { answer: 'allow', answers: { color: ['Red'] } },
      { answer: 'allow', answers: { color: ['Blue'] } },
    ]);
  });

  it('a secret question, one with more than 3 options, or several questions: only "Open"', () => {
    const q = question('q').questions![0]!;
    const four = [1, 2, 3, 4].map((i) => ({ label: `o${i}`, description: '' }));
    for (const view of [
      question('s', { questions: [{ ...q, isSecret: true }] }),
      question('m', { questions: [{ ...q, options: four }] }),
      question('two', { questions: [q, { ...q, id: 'size', question: 'Which size?' }] }),
    ]) {
      const n = requestNotification(view, 'darwin');
      expect(n.options.actions).toEqual([{ type: 'button', text: 'Open' }]);
      expect(n.buttons).toEqual([{ open: true }]);
    }
    expect(requestNotification(question('two', { questions: [q, { ...q, id: 'size' }] }), 'darwin').options.body).toBe(
      'Colour: Which colour?\n(1 more question)',
    );
  });

  it('an elicitation: "<server> (MCP, <profile>) asks", its message, only "Open" (never accepted unseen); a URL is never in it', () => {
    const form = requestNotification(elicitation('e'), 'darwin');
    expect(form.options).toMatchObject({ title: 'github (MCP, demo) asks', body: 'Which repository?', actions: [{ text: 'Open' }] });
    expect(form.buttons).toEqual([{ open: true }]);
    const url = requestNotification(elicitation('u', 'url'), 'darwin');
    expect(url.options.body).toBe('Which repository?\nIt asks you to open a page on evil.example.');
    expect(JSON.stringify(url)).not.toContain('https://evil.example/login');
  });

  it('Linux: no buttons, click to answer it in Angelia, waiting like the request', () => {
    for (const view of [question('q'), elicitation('e')]) {
      const n = requestNotification(view, 'linux', '/icon.png');
      expect(n.buttons).toEqual([]);
      expect(n.options.actions).toBeUndefined();
      expect(n.options).toMatchObject({ urgency: 'critical', timeoutType: 'never', icon: '/icon.png' });
      expect(n.options.body).toMatch(/Click to answer it in Angelia\.$/);
    }
  });
});

describe('NotificationRouter: questions and elicitations', () => {
  it('an option button answers the question through the broker (allow with the option as its answers)', () => {
    const { emit, made, answered } = setup();
    emit({ event: 'approval:updated', payload: question('q') });
    made[0]!.press(1);
    expect(answered).toEqual([{ id: 'q', answer: 'allow', extra: { answers: { color: ['Blue'] } } }]);
    expect(made[0]!.closed).toBe(true);
  });

  it('"Open" and a click open the chat and answer nothing; an elicitation is never answered from its notification', () => {
    const { emit, made, answered, opened } = setup();
    emit({ event: 'approval:updated', payload: elicitation('e', 'url') });
    made[0]!.press(0);
    made[0]!.click();
    expect(opened).toEqual(['demo', 'demo']);
    expect(answered).toEqual([]);
  });

  it('Linux: a click on a question opens its card', () => {
    const { emit, made, opened, answered } = setup({ platform: 'linux' });
    emit({ event: 'approval:updated', payload: question('q') });
    made[0]!.click();
    expect(opened).toEqual(['demo']);
    expect(answered).toEqual([]);
  });

  it('one notification per request, closed when it is settled (answered in the window)', () => {
    const { emit, made } = setup();
    emit({ event: 'approval:updated', payload: question('q') });
    emit({ event: 'approval:updated', payload: question('q') });
    expect(made).toHaveLength(1);
    emit({ event: 'approval:updated', payload: question('q', { state: 'answered', answer: 'allow', by: 'window' }) });
    expect(made[0]!.closed).toBe(true);
  });
});

describe('NotificationRouter: turns', () => {
  it('a finished turn: "<profile> finished", the first line of the answer; a click opens the chat', () => {
    const { turn, made, opened } = setup();
    turn('\nDone: 3 files changed.\nDetails follow…');
    expect(made).toHaveLength(1);
    expect(made[0]!.options).toMatchObject({ title: 'demo finished', body: 'Done: 3 files changed.' });
    made[0]!.click();
    expect(opened).toEqual(['demo']);
  });

  it('a turn with no answer says so; the answer of a turn is not carried into the next', () => {
    const { turn, made } = setup();
    turn('first');
    turn(null);
    expect(made[1]!.options.body).toBe('The turn ended without an answer.');
  });

  it('replaced, not stacked: the next turn notice of the chat closes the previous', () => {
    const { turn, made } = setup();
    turn('one');
    turn('two');
    expect(made.map((n) => [n.options.body, n.closed])).toEqual([
      ['one', true],
      ['two', false],
    ]);
  });

  it('a failed turn: its plain reason', () => {
    const { turn, made } = setup();
    turn('partial', 'failed', 'You hit your usage limit. Try again at 14:05.');
    expect(made[0]!.options).toMatchObject({ title: 'demo: the turn failed', body: 'You hit your usage limit. Try again at 14:05.' });
  });

  it('nothing while a focused window shows the chat, for a stopped turn, or for a turn end it never saw run (/resume)', () => {
    const focused = setup({ focused: ['demo'] });
    focused.turn('done');
    focused.turn('oops', 'failed', 'boom');
    expect(focused.made).toEqual([]);
    const { turn, item, made } = setup();
    turn('stopped', 'interrupted', 'stopped by you');
    item({ type: 'turnEnd', id: 'history-turn-1', status: 'completed', reason: null });
    expect(made).toEqual([]);
  });

  it("names the chat when it is not the profile's first", () => {
    const { emit, item, made } = setup();
    emit({ event: 'chat:updated', payload: chatView('demo-2', { profile: 'demo', state: 'working' }) });
    item({ type: 'turnEnd', id: 't', status: 'completed', reason: null }, 'demo-2');
    expect(made[0]!.options.title).toBe('demo (demo-2) finished');
  });
});

describe('NotificationRouter: the usage limit', () => {
  it('once per limit, replaced by the next, closed when lifted; a click opens the usage', () => {
    const { emit, made, usage } = setup();
    emit({ event: 'usage:updated', payload: home({ pausedUntil: '2025-01-01T14:05:00Z' }) });
    emit({ event: 'usage:updated', payload: home({ pausedUntil: '2025-01-01T14:05:00Z' }) });
    expect(made).toHaveLength(1);
    expect(made[0]!.options.title).toBe('Codex usage limit reached');
    expect(made[0]!.options.body).toMatch(/^The agents pause until \S+; messages you send wait/);
    made[0]!.click();
    expect(usage).toEqual([1]);
    emit({ event: 'usage:updated', payload: home({ pausedUntil: '2025-01-01T15:00:00Z' }) });
    expect(made.map((n) => n.closed)).toEqual([true, false]);
    emit({ event: 'usage:updated', payload: home() });
    expect(made.map((n) => n.closed)).toEqual([true, true]);
  });

  it('a window at 100 % without a pause is the limit too', () => {
    const { emit, made } = setup();
    emit({ event: 'usage:updated', payload: home({ rateLimits: { primary: { usedPercent: 100, windowMinutes: 300, resetsAt: null }, secondary: null } }) });
    expect(made[0]!.options.body).toMatch(/^The agents pause until the limit resets/);
  });
});

describe('NotificationRouter: the notifications setting', () => {
  /** Every kind once, for chat "demo": an approval, a question, an elicitation, two turns, the limit and the warning. */
  function everything(settings: Record<string, NotificationSetting>): string[] {
    const { emit, turn, made } = setup({ settings });
    emit({ event: 'approval:updated', payload: approvalView('a') });
    emit({ event: 'approval:updated', payload: question('q') });
    emit({ event: 'approval:updated', payload: elicitation('e') });
    turn('done');
    turn('x', 'failed', 'boom');
    emit({ event: 'usage:updated', payload: home({ pausedUntil: '2025-01-01T14:05:00Z' }) });
    emit({ event: 'usage:warning', payload: { codexHome: '/h', window: 'primary', usedPercent: 92, resetsAt: null } });
    return made.map((n) => n.options.title);
  }

  it('all (and no setting): everything', () => {
    const all = [
      'demo wants to run a command',
      'demo asks',
      'github (MCP, demo) asks',
      'demo finished',
      'demo: the turn failed',
      'Codex usage limit reached',
      'Codex usage at 92 % of the 5 h limit',
    ];
    expect(everything({ demo: 'all' })).toEqual(all);
    expect(everything({})).toEqual(all);
  });

  it('requests: approvals, questions and elicitations only', () => {
    expect(everything({ demo: 'requests' })).toEqual(['demo wants to run a command', 'demo asks', 'github (MCP, demo) asks']);
  });

  it('none: nothing', () => {
    expect(everything({ demo: 'none' })).toEqual([]);
  });

  it("each chat follows its own profile's setting; the account's notices the loosest", () => {
    const { emit, made } = setup({ settings: { demo: 'none', other: 'all' } });
    emit({ event: 'approval:updated', payload: approvalView('a') });
    emit({ event: 'approval:updated', payload: approvalView('b', { chatId: 'other', profile: 'other' }) });
    emit({ event: 'usage:updated', payload: home({ pausedUntil: '2025-01-01T14:05:00Z' }) });
    expect(made.map((n) => n.options.title)).toEqual(['other wants to run a command', 'Codex usage limit reached']);
  });
});

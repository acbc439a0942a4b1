import { describe, expect, it } from 'vitest';
import { accountSetting, allows, requestKind, settingOf, singleChoice, usageLimitKey, type NotifyKind } from '../../src/main/electron/notifyPolicy';
import type { NotificationSetting } from '../../src/shared/profileFields';
import { approvalView } from './fakes';

const KINDS: NotifyKind[] = ['approval', 'question', 'elicitation', 'turnDone', 'turnFailed', 'usageLimit', 'usageWarning'];

const question = (over: { isSecret?: boolean; options?: string[] | null; count?: number; answers?: ('allow' | 'deny')[] } = {}) =>
  approvalView('q', {
    kind: 'userInput',
    command: null,
    cwd: null,
    answers: over.answers ?? ['allow', 'deny'],
    questions: Array.from({ length: over.count ?? 1 }, (_, i) => ({
      id: `q${i}`,
      header: 'Pick',
      question: 'Which one?',
      isOther: false,
      isSecret: over.isSecret ?? false,
      options: over.options === null ? null : (over.options ?? ['a', 'b']).map((label) => ({ label, description: '' })),
    })),
  });

describe('allows', () => {
  const table: Array<[NotificationSetting | undefined, NotifyKind[]]> = [
    [undefined, KINDS],
    ['all', KINDS],
    ['requests', ['approval', 'question', 'elicitation']],
    ['none', []],
  ];
  it.each(table)('%s lets through exactly %j', (setting, shown) => {
    expect(KINDS.filter((k) => allows(setting, k))).toEqual(shown);
  });
});

describe('requestKind, settingOf, accountSetting', () => {
  it('a userInput is a question, an elicitation an elicitation, anything else an approval', () => {
    expect(requestKind({ kind: 'userInput' })).toBe('question');
    expect(requestKind({ kind: 'elicitation' })).toBe('elicitation');
    for (const kind of ['command', 'fileChange', 'permissions', 'unknown'] as const) expect(requestKind({ kind })).toBe('approval');
  });

  it("a profile's setting, all for one not listed or without the field", () => {
    const profiles = [{ name: 'a', notifications: 'none' as const }, { name: 'b' }];
    expect(settingOf(profiles, 'a')).toBe('none');
    expect(settingOf(profiles, 'b')).toBe('all');
    expect(settingOf(profiles, 'gone')).toBe('all');
  });

  const account: Array<[NotificationSetting[], NotificationSetting]> = [
    [[], 'all'],
    [['none'], 'none'],
    [['none', 'requests'], 'requests'],
    [['requests', 'all', 'none'], 'all'],
  ];
  it.each(account)('the account follows the loosest of %j: %s', (settings, expected) => {
    expect(accountSetting(settings.map((notifications, i) => ({ name: `p${i}`, notifications })))).toBe(expected);
  });
});

describe('singleChoice', () => {
  it('one question with 1..max options, not secret, submit offered: its id and labels', () => {
    expect(singleChoice(question(), 3)).toEqual({ questionId: 'q0', labels: ['a', 'b'] });
    expect(singleChoice(question({ options: ['a', 'b', 'c'] }), 3)?.labels).toEqual(['a', 'b', 'c']);
  });

  const refused: Array<[string, Parameters<typeof question>[0], number]> = [
    ['too many options', { options: ['a', 'b', 'c', 'd'] }, 3],
    ['a secret question', { isSecret: true }, 3],
    ['free text only', { options: null }, 3],
    ['no options', { options: [] }, 3],
    ['two questions', { count: 2 }, 3],
    ['no submit offered', { answers: ['deny'] }, 3],
  ];
  it.each(refused)('none for %s', (_why, over, max) => {
    expect(singleChoice(question(over), max)).toBeNull();
  });

  it('none for an approval or an elicitation', () => {
    expect(singleChoice(approvalView('a'), 3)).toBeNull();
    expect(singleChoice({ ...question(), kind: 'elicitation' }, 3)).toBeNull();
  });
});

describe('usageLimitKey', () => {
  const home = (over: object) => ({ codexHome: '/h', rateLimits: null, reportedAt: null, pausedUntil: null, ...over });
  const window = (usedPercent: number, resetsAt = '2025-01-01T14:05:00Z') => ({ usedPercent, windowMinutes: 300, resetsAt });
  it('the pause, else a window at 100 %, else none', () => {
    expect(usageLimitKey(home({}))).toBeNull();
    expect(usageLimitKey(home({ rateLimits: { primary: window(99), secondary: null } }))).toBeNull();
    expect(usageLimitKey(home({ rateLimits: { primary: window(100), secondary: null } }))).toBe('/h\nfull 2025-01-01T14:05:00Z');
    expect(usageLimitKey(home({ rateLimits: { primary: null, secondary: window(100, 'x') } }))).toBe('/h\nfull x');
    expect(usageLimitKey(home({ pausedUntil: 'p', rateLimits: { primary: window(100), secondary: null } }))).toBe('/h\npaused p');
  });
});

import { describe, expect, it } from 'vitest';
import { alreadyAnsweredText, askDetail, enforcementLabel, outcomeNotice, settledSummary, truncateCodePoints } from '../../src/main/electron/text';
import { approvalView } from './fakes';

describe('truncateCodePoints', () => {
  it('leaves short text alone and cuts long text with an ellipsis, counting code points', () => {
    expect(truncateCodePoints('hello', 5)).toBe('hello');
    expect(truncateCodePoints('hello world', 6)).toBe('hello…');
    expect(Array.from(truncateCodePoints('x'.repeat(50), 10))).toHaveLength(10);
  });

  it('never splits a surrogate pair: an emoji counts as one and is kept whole or dropped whole', () => {
    const text = '🙂'.repeat(10); // 20 UTF-16 units, 10 code points
    expect(truncateCodePoints(text, 10)).toBe(text);
    const cut = truncateCodePoints(text, 4);
    expect(cut).toBe('🙂🙂🙂…');
    for (let i = 0; i < cut.length; i++) {
      const c = cut.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) expect(cut.charCodeAt(i + 1)).toBeGreaterThanOrEqual(0xdc00);
    }
    expect(truncateCodePoints('ab🙂cd', 3)).toBe('ab…');
    expect(truncateCodePoints('anything', 0)).toBe('');
  });
});

describe('labels', () => {
  it('names the enforcement; full access is dangerous even before the first start when sandbox = false', () => {
    expect(enforcementLabel('managed', true)).toEqual({ text: 'managed sandbox', danger: false, warning: false });
    expect(enforcementLabel('disabled', true)).toEqual({ text: 'FULL ACCESS', danger: true, warning: true });
    expect(enforcementLabel(null, false)).toEqual({ text: 'FULL ACCESS', danger: true, warning: true });
    expect(enforcementLabel('external', true).warning).toBe(true);
    expect(enforcementLabel(null, true).text).toBe('not started');
  });

  it('says who answered a settled request, and how a late click is told', () => {
    expect(alreadyAnsweredText({ state: 'answered', answer: 'allow', by: 'window' })).toBe('Already answered (Allowed, from the window)');
    expect(settledSummary({ state: 'answered', answer: 'deny', by: 'tray' })).toBe('Denied, from the tray menu');
    expect(settledSummary({ state: 'timedOut', answer: 'deny', by: 'timeout' })).toBe('Denied, nobody answered in time');
    expect(settledSummary({ state: 'withdrawn', answer: null, by: 'codex' })).toBe('Withdrawn, Codex settled it');
    expect(outcomeNotice({ outcome: 'answered', answer: 'allow', by: 'tray' })).toBeNull();
    expect(outcomeNotice({ outcome: 'already-answered', answer: 'allow', by: 'window' })).toBe('Already answered (Allowed, from the window)');
    expect(outcomeNotice({ outcome: 'unknown', answer: null, by: null })).toMatch(/no longer known/);
  });

  it('details what is asked: the command with its folder and reason, folders asked for, files changed', () => {
    expect(askDetail(approvalView('a', { reason: 'clean the build' }))).toBe('$ rm -rf build/\nin /home/me/demo\nWhy: clean the build');
    const perm = approvalView('b', { kind: 'permissions', command: null, cwd: null, requested: { read: ['/r'], write: ['/home/me/other'], network: true } });
    expect(askDetail(perm)).toBe('+ write /home/me/other\n+ read /r\n+ network');
    const files = approvalView('c', {
      kind: 'fileChange',
      command: null,
      cwd: null,
      changes: [
        { path: 'a.txt', kind: 'add', diff: '' },
        { path: 'b.txt', kind: 'delete', diff: '' },
      ],
    });
    expect(askDetail(files)).toBe('add a.txt\ndelete b.txt');
  });
});

/**
 * A command Codex asks to run OUTSIDE the sandbox, as the desktop surfaces say it: the
 * notification's title and body (electron/text.ts `askPhrase`, `askDetail`; notifications.ts) and the
 * tray's lines, in the same words as the window's card (shared/approvalText.ts; the card:
 * test/renderer/approval-views.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import { approvalNotification, MAX_BODY } from '../../src/main/electron/notifications';
import { askDetail, askPhrase } from '../../src/main/electron/text';
import { emptyTrayState, trayModel } from '../../src/main/electron/trayModel';
import { approvalView } from './fakes';

const HEADLINE = 'Runs outside the sandbox: it can change any file you can, except the 4 denied places (it cannot read those either).';
const REACH =
  "That includes the workspace's _shared/ folder, this profile's launch files (.codex, .claude, .agents), the angelia command every agent runs, and your home's dotfiles.";
const ADVICE = 'Allow only if you would run it yourself.';

describe('an escalation on the desktop surfaces', () => {
  const escalation = approvalView('e', { outsideSandbox: { denied: 4 }, reason: 'deploy to the server' });

  it('the notification title says it runs outside the sandbox; the body says first what that lets it do', () => {
    const n = approvalNotification(escalation, 'darwin');
    expect(n.options.title).toBe('demo wants to run a command OUTSIDE the sandbox');
    expect(n.options.body).toBe(`⚠ ${HEADLINE}\n${REACH}\n${ADVICE}\n$ rm -rf build/\nin /home/me/demo\nWhy: deploy to the server`);
    expect(askPhrase(escalation)).toBe('wants to run a command OUTSIDE the sandbox');
  });

  it('a huge command cannot push the explanation out of a truncated body', () => {
    const n = approvalNotification(approvalView('h', { outsideSandbox: { denied: 4 }, command: `echo ${'x'.repeat(5000)}` }), 'darwin');
    expect(Array.from(n.options.body)).toHaveLength(MAX_BODY);
    expect(n.options.body.startsWith(`⚠ ${HEADLINE}\n${REACH}\n${ADVICE}\n$ echo xxx`)).toBe(true);
  });

  it('a command in the sandbox, or one asking for more access, says nothing of it', () => {
    expect(askDetail(approvalView('a'))).toBe('$ rm -rf build/\nin /home/me/demo');
    expect(askPhrase(approvalView('a'))).toBe('wants to run a command');
    const more = approvalView('m', { requested: { read: [], write: ['/out'], network: false } });
    expect(askPhrase(more)).toBe('wants more access for a command');
    expect(askDetail(more)).not.toContain('outside the sandbox');
  });

  it('no denied place, or an unknown count, is said as such', () => {
    expect(askDetail(approvalView('z', { outsideSandbox: { denied: 0 } })).split('\n')[0]).toBe(
      '⚠ Runs outside the sandbox: it can change any file you can; this profile denies no place.',
    );
    expect(askDetail(approvalView('u', { outsideSandbox: { denied: null } })).split('\n')[0]).toBe(
      '⚠ Runs outside the sandbox: it can change any file you can, except the places this profile denies (it cannot read those either).',
    );
  });

  it('the tray submenu of the request starts with the warning', () => {
    const model = trayModel({ ...emptyTrayState, approvals: [escalation], sandboxed: { demo: true } });
    const sub = model.items.find((i) => i.kind === 'submenu');
    expect(sub?.kind === 'submenu' ? sub.items[0] : null).toMatchObject({
      kind: 'header',
      label: expect.stringMatching(/^⚠ Runs outside the sandbox: it can change any file you can, except/),
    });
  });
});

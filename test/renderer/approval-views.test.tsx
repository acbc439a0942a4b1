/**
 * The approval card and the command item as they render (react-dom/server): a settled card has no
 * active button and says how it ended from the recorded `by`; a command waiting for its
 * approval shows "waiting for approval", not running; a command to run outside the sandbox says
 * plainly what an Allow lets it do. The same cards in a real browser: test/e2e/ui-fake.test.ts.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView, ChatItem } from '../../src/shared/contract';
import { ok } from '../../src/shared/result';
import { SessionContext, type Session } from '../../src/renderer/src/api/session';
import { ApprovalCardView } from '../../src/renderer/src/features/approvals/ApprovalCard';
import { approvalForItem, shownItemStatus } from '../../src/renderer/src/features/approvals/describe';
import { CommandItemView, STATUS_LABEL } from '../../src/renderer/src/features/chat/CommandItem';
import { outsideSandboxHeadline, outsideSandboxLines } from '../../src/shared/approvalText';

const view = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  id: 'a1',
  chatId: 'demo',
  profile: 'demo',
  kind: 'command',
  title: 'Run OUTSIDE the sandbox: make deploy',
  command: 'make deploy',
  cwd: '/p/demo',
  reason: null,
  changes: [],
  requested: null,
  answers: ['allow', 'allowForSession', 'deny', 'cancel'],
  createdAt: '2025-01-01T00:00:00Z',
  state: 'pending',
  answer: null,
  by: null,
  granted: null,
  denyReason: null,
  ...over,
});

/** The card's markup for `v`, as the window renders it (no click of this page recorded unless `outcome`). */
function card(v: ApprovalView, outcome?: Parameters<typeof ApprovalCardView>[0]['outcome']): string {
  return renderToStaticMarkup(
    <ApprovalCardView view={v} outcome={outcome} profile={undefined} onAnswer={async () => ok({ outcome: 'answered', answer: 'allow', by: 'window' })} />,
  );
}

/** The answer buttons of a card's markup: their test id and whether they are disabled. */
function buttons(html: string): Array<{ id: string; disabled: boolean }> {
  return [...html.matchAll(/<button[^>]*>/g)].map((m) => ({ id: /data-testid="([^"]+)"/.exec(m[0])?.[1] ?? '', disabled: /\sdisabled=""/.test(m[0]) }));
}

/** The text of the element with `data-testid="<id>"` (tags stripped). */
function textOf(html: string, id: string): string | null {
  const m = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</div>`).exec(html);
  return m?.[1]
    ? m[1]
        .replace(/<[^>]+>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
    : null;
}

describe('a settled approval card', () => {
  it('a pending card offers every answer, and Deny with a reason', () => {
    const html = card(view());
    expect(buttons(html)).toEqual([
      { id: 'approval-allow', disabled: false },
      { id: 'approval-allowForSession', disabled: false },
      { id: 'approval-deny', disabled: false },
      { id: 'approval-cancel', disabled: false },
      { id: 'deny-with-reason', disabled: false },
    ]);
    expect(textOf(html, 'approval-status')).toBeNull();
  });

  it('timed out: no active button, and it says after how long and that it was denied', () => {
    const html = card(view({ state: 'timedOut', answer: 'deny', by: 'timeout', settledAt: '2025-01-01T00:10:00Z' }));
    expect(buttons(html).map((b) => b.id)).toEqual(['approval-allow', 'approval-allowForSession', 'approval-deny', 'approval-cancel']);
    expect(buttons(html).every((b) => b.disabled)).toBe(true);
    expect(textOf(html, 'approval-status')).toBe('Timed out after 10 min: denied');
  });

  it('withdrawn: no active button, and it says why', () => {
    const html = card(view({ state: 'withdrawn', by: 'codex', settledAt: '2025-01-01T00:01:00Z', withdrawnWhy: 'the turn ended' }));
    expect(buttons(html).every((b) => b.disabled)).toBe(true);
    expect(buttons(html)).toHaveLength(4);
    expect(textOf(html, 'approval-status')).toBe('Withdrawn: the turn ended');
  });

  it('answered in the window before a reload (this page never clicked): "answered in the window", not "another window"', () => {
    const html = card(view({ state: 'answered', answer: 'cancel', by: 'window', settledAt: '2025-01-01T00:00:05Z' }));
    expect(buttons(html).every((b) => b.disabled)).toBe(true);
    expect(textOf(html, 'approval-status')).toBe('Denied and stopped — answered in the window');
    expect(html).not.toContain('another window');
    // And the same after this page's own click.
    expect(
      textOf(card(view({ state: 'answered', answer: 'allow', by: 'window' }), { outcome: 'answered', answer: 'allow', by: 'window' }), 'approval-status'),
    ).toBe('Allowed once — answered in the window');
  });

  it('answered elsewhere: names the surface from `by`', () => {
    expect(textOf(card(view({ state: 'answered', answer: 'deny', by: 'notification' })), 'approval-status')).toBe('Denied — answered from a notification');
    expect(textOf(card(view({ state: 'answered', answer: 'allow', by: 'tray' })), 'approval-status')).toBe('Allowed once — answered from the tray');
    expect(textOf(card(view({ state: 'answered', answer: 'allow', by: 'api' })), 'approval-status')).toBe('Allowed once — answered through the local API');
  });
});

describe('a command waiting for its approval', () => {
  const command: Extract<ChatItem, { type: 'command' }> = {
    type: 'command',
    id: 'call_10',
    command: 'make deploy',
    cwd: '/p/demo',
    output: '',
    exitCode: null,
    status: 'running',
  };

  it('a running command whose approval is pending is waiting; allowed, it runs; denied or stopped, it is declined', () => {
    expect(shownItemStatus('running', view({ itemId: 'call_10' }))).toBe('waiting');
    expect(shownItemStatus('running', view({ state: 'answered', answer: 'allow', by: 'window' }))).toBe('running');
    expect(shownItemStatus('running', view({ state: 'answered', answer: 'allowForSession', by: 'tray' }))).toBe('running');
    expect(shownItemStatus('running', view({ state: 'answered', answer: 'deny', by: 'window' }))).toBe('declined');
    expect(shownItemStatus('running', view({ state: 'answered', answer: 'cancel', by: 'window' }))).toBe('declined');
    expect(shownItemStatus('running', view({ state: 'timedOut', answer: 'deny', by: 'timeout' }))).toBe('declined');
    expect(shownItemStatus('running', view({ state: 'withdrawn', by: 'codex' }))).toBe('running');
    expect(shownItemStatus('running', undefined)).toBe('running');
    // What Codex said last wins once the command is no longer running.
    expect(shownItemStatus('completed', view())).toBe('completed');
    expect(shownItemStatus('interrupted', view())).toBe('interrupted');
  });

  it('the approval of an item is found by its itemId; a pending one wins over an older settled one', () => {
    const older = view({ id: 'old', itemId: 'call_10', state: 'answered', answer: 'deny', by: 'window' });
    const pending = view({ id: 'new', itemId: 'call_10' });
    const other = view({ id: 'x', itemId: 'call_99' });
    expect(approvalForItem([older, pending, other], 'call_10')?.id).toBe('new');
    expect(approvalForItem([older, other], 'call_10')?.id).toBe('old');
    expect(approvalForItem([other, view({ id: 'none' })], 'call_10')).toBeUndefined();
  });

  it('renders "waiting for approval" with no caret, and "running" with one once allowed', () => {
    const waiting = renderToStaticMarkup(<CommandItemView item={command} chatId="demo" status="waiting" />);
    expect(waiting).toContain('data-status="waiting"');
    expect(textOf(waiting.replace(/<\/span>/g, '</div>'), 'command-status')).toBe('waiting for approval');
    expect(waiting).not.toContain('caret');
    expect(waiting).not.toContain('>running<');
    const running = renderToStaticMarkup(<CommandItemView item={command} chatId="demo" status="running" />);
    expect(running).toContain('>running<');
    expect(running).toContain('class="caret"');
    const declined = renderToStaticMarkup(<CommandItemView item={command} chatId="demo" status="declined" />);
    expect(declined).toContain(`>${STATUS_LABEL.declined}<`);
    expect(declined).not.toContain('caret');
  });
});

describe('a command to run outside the sandbox', () => {
  it('the words: what it can change, how many places stay denied, and the advice', () => {
    expect(outsideSandboxLines({ denied: 3 })).toEqual([
      'Runs outside the sandbox: it can change any file you can, except the 3 denied places (it cannot read those either).',
      "That includes the workspace's _shared/ folder, this profile's launch files (.codex, .claude, .agents), the angelia command every agent runs, and your home's dotfiles.",
      'Allow only if you would run it yourself.',
    ]);
    expect(outsideSandboxHeadline({ denied: 1 })).toBe(
      'Runs outside the sandbox: it can change any file you can, except the 1 denied place (it cannot read those either).',
    );
    expect(outsideSandboxHeadline({ denied: 0 })).toBe('Runs outside the sandbox: it can change any file you can; this profile denies no place.');
    expect(outsideSandboxHeadline({ denied: null })).toBe(
      'Runs outside the sandbox: it can change any file you can, except the places this profile denies (it cannot read those either).',
    );
  });

  it('the card says it before the command, while pending and once settled; a command in the sandbox says nothing of it', () => {
    const html = card(view({ outsideSandbox: { denied: 7 } }));
    const text = html
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x27;/g, "'")
      .replace(/\s+/g, ' ');
    expect(text).toContain('⚠ Runs outside the sandbox: it can change any file you can, except the 7 denied places (it cannot read those either).');
    expect(text).toContain("this profile's launch files (.codex, .claude, .agents), the angelia command every agent runs, and your home's dotfiles.");
    expect(text).toContain('Allow only if you would run it yourself.');
    expect(html.indexOf('approval-escalation')).toBeLessThan(html.indexOf('approval-command'));
    expect(card(view({ outsideSandbox: { denied: 7 }, state: 'answered', answer: 'deny', by: 'window' }))).toContain('approval-escalation');
    // A command with additional permissions runs inside the sandbox with more access (Codex `item/commandExecution/requestApproval` with `additionalPermissions`, 0.169.0): no such words.
    const more = view({ title: 'Run with more access (write /x)', requested: { read: [], write: ['/x'], network: false } });
    const moreHtml = renderToStaticMarkup(
      // Its "Add … to the profile" link reads the session; nothing is clicked here.
      <SessionContext.Provider value={{} as Session}>
        <ApprovalCardView
          view={more}
          outcome={undefined}
          profile={undefined}
          onAnswer={async () => ok({ outcome: 'answered', answer: 'allow', by: 'window' })}
        />
      </SessionContext.Provider>,
    );
    expect(moreHtml).toContain('+ write /x (not in the profile)');
    expect(moreHtml).not.toContain('approval-escalation');
    expect(card(view())).not.toContain('approval-escalation');
  });
});

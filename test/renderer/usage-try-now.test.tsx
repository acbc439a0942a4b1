/**
 * "Try now" on a usage-limit pause (docs/architecture.md "Usage"): the button beside "paused until …"
 * in the chat header and on the account screen, what a click calls, and the session action that asks
 * the core (`usage:resume`) for the paused home and folds the answer (or its failure) into the store.
 * The same in a real browser: test/e2e/ui-usage.test.ts.
 */
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { HomeUsage } from '../../src/shared/usage';
import { err, ok } from '../../src/shared/result';
import { accountActions } from '../../src/renderer/src/api/accountActions';
import type { LinkedApi } from '../../src/renderer/src/api/wsApi';
import { SignInView, type SignInHandlers } from '../../src/renderer/src/features/account/SignIn';
import { PausedLineView } from '../../src/renderer/src/features/usage/Meters';
import { initialAccount } from '../../src/renderer/src/store/account';
import { applyUsage, initialState } from '../../src/renderer/src/store/app';
import { update, useAppStore } from '../../src/renderer/src/store/store';

process.env.TZ = 'UTC';
const NOW = new Date('2026-12-01T12:00:00Z');
const HOME = '/home/u/.codex';
const UNTIL = '2026-12-01T14:05:00Z';
const usage = (codexHome: string, pausedUntil: string | null): HomeUsage => ({ codexHome, rateLimits: null, reportedAt: null, pausedUntil });
const count = (html: string, id: string): number => html.split(`data-testid="${id}"`).length - 1;

/** The `onClick` of the first "Try now" button in a rendered element tree (plain function components only). */
function tryNowClick(node: ReactNode): (() => void) | undefined {
  if (Array.isArray(node)) return node.map(tryNowClick).find(Boolean);
  if (!isValidElement(node)) return undefined;
  const props = node.props as { 'data-testid'?: string; onClick?: () => void; children?: ReactNode };
  if (props['data-testid'] === 'usage-try-now') return props.onClick;
  if (typeof node.type === 'function') return tryNowClick((node.type as (p: unknown) => ReactNode)(node.props));
  return tryNowClick(props.children);
}

describe('the Try now button', () => {
  it.each([
    { name: 'paused, with a handler', until: UNTIL, handler: true, button: 1 },
    { name: 'paused, no handler (the chat list row)', until: UNTIL, handler: false, button: 0 },
    { name: 'the pause is past', until: '2026-12-01T11:00:00Z', handler: true, button: 0 },
    { name: 'not paused', until: null, handler: true, button: 0 },
  ])('beside "paused until": $name → $button button', ({ until, handler, button }) => {
    const html = renderToStaticMarkup(<PausedLineView pausedUntil={until} now={NOW} where="chat" {...(handler ? { onTryNow: () => undefined } : {})} />);
    expect(count(html, 'usage-try-now')).toBe(button);
    if (button) expect(html).toContain('paused until 14:05');
  });

  it('a click on it in the chat header calls onTryNow', () => {
    const calls: string[] = [];
    const click = tryNowClick(PausedLineView({ pausedUntil: UNTIL, now: NOW, where: 'chat', onTryNow: () => calls.push('resume') }));
    click?.();
    expect(calls).toEqual(['resume']);
  });

  it('the account screen shows each paused home with Try now, which resumes that home', () => {
    const resumed: string[] = [];
    const h: SignInHandlers = {
      signIn: () => undefined,
      cancel: () => undefined,
      clear: () => undefined,
      signOut: () => undefined,
      resume: (home) => resumed.push(home),
    };
    const props = { account: { ...initialAccount, view: null }, h, onClose: () => undefined, usage: [usage(HOME, UNTIL), usage('/other', null)], now: NOW };
    const html = renderToStaticMarkup(<SignInView {...props} />);
    expect(count(html, 'usage-paused')).toBe(1);
    expect(count(html, 'usage-try-now')).toBe(1);
    tryNowClick(SignInView(props) as ReactElement)?.();
    expect(resumed).toEqual([HOME]);
    const { resume: _none, ...without } = h;
    expect(count(renderToStaticMarkup(<SignInView {...props} h={without} />), 'usage-try-now')).toBe(0);
  });
});

describe('session.resumeUsage', () => {
  afterEach(() => useAppStore.setState(initialState, true));

  function withApi(answer: (codexHome: string) => ReturnType<LinkedApi['invoke']>) {
    const asked: { channel: string; input: unknown }[] = [];
    const api = {
      invoke: async (channel: string, input: { codexHome: string }) => {
        asked.push({ channel, input });
        return answer(input.codexHome);
      },
    } as unknown as LinkedApi;
    return { asked, actions: accountActions(api, (go) => go()) };
  }

  it('asks usage:resume for the paused homes the window knows and stores the lifted usage', async () => {
    update((s) => applyUsage(s, [usage('/idle', null), usage(HOME, UNTIL)]));
    const { asked, actions } = withApi(async (home) => ok(usage(home, null)));
    await actions.resumeUsage();
    expect(asked).toEqual([{ channel: 'usage:resume', input: { codexHome: HOME } }]);
    expect(useAppStore.getState().usage.homes.map((h) => h.pausedUntil)).toEqual([null, null]);
    expect(useAppStore.getState().account.error).toBeNull();
  });

  it('a named home is asked as named; a refusal is said on the account screen', async () => {
    const { asked, actions } = withApi(async () => err('internal', 'the core is gone'));
    await actions.resumeUsage(HOME);
    expect(asked).toEqual([{ channel: 'usage:resume', input: { codexHome: HOME } }]);
    expect(useAppStore.getState().account.error).toBe('Not resumed: the core is gone');
  });
});

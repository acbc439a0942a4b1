/**
 * The renderer's account and usage slices (store/account.ts, store/usage.ts) and how core events and
 * loads enter them (store/app.ts `applyEvent`, `applyAccount`, `applyUsage`): pure transitions, the same
 * object back when nothing changed, an API key never in the state.
 */
import { describe, expect, it } from 'vitest';
import type { HomeUsage } from '../../src/shared/usage';
import { err, ok } from '../../src/shared/result';
import {
  accountActing,
  accountSeen,
  initialAccount,
  loggedOut,
  loginAnswered,
  loginCancelled,
  loginCleared,
  loginPending,
  loginProgressed,
  type AccountSlice,
} from '../../src/renderer/src/store/account';
import { initialUsage, usageLoaded, usageUpdated } from '../../src/renderer/src/store/usage';
import { applyAccount, applyEvent, applyPanel, applyUsage, initialState } from '../../src/renderer/src/store/app';
import { accountView, loginProgress } from '../fixtures/account';

const view = accountView;
const progress = loginProgress;
const home = (over: Partial<HomeUsage> = {}): HomeUsage => ({ codexHome: '/h', rateLimits: null, reportedAt: null, pausedUntil: null, ...over });
const signedIn = view({ signedIn: true, method: 'chatgpt', email: 'ada@example.com', plan: 'plus' });

describe('account slice', () => {
  it('records the account once; the same view again is the same state', () => {
    const a = accountSeen(initialAccount, view());
    expect(a.view).toEqual(view());
    expect(accountSeen(a, view())).toBe(a);
  });

  it('a sign-in: busy with its method only, then the pending progress, then completed by its event', () => {
    const asked = accountActing(initialAccount, 'apiKey');
    expect(asked).toEqual({ ...initialAccount, busy: 'apiKey' });
    expect(JSON.stringify(asked)).not.toContain('sk-');
    const started = loginAnswered(accountActing(initialAccount, 'chatgpt'), ok(progress()));
    expect(started).toMatchObject({ busy: null, error: null, login: progress() });
    expect(loginPending(started)).toBe(true);
    const done = loginProgressed(started, progress({ state: 'completed', authUrl: null }));
    expect(done.login?.state).toBe('completed');
    expect(loginPending(done)).toBe(false);
  });

  it("another window's sign-in (another loginId) and a repeat of the same progress change nothing", () => {
    const started = loginAnswered(initialAccount, ok(progress()));
    expect(loginProgressed(started, progress({ loginId: 'L2', state: 'completed' }))).toBe(started);
    expect(loginProgressed(started, progress())).toBe(started);
    expect(loginProgressed(initialAccount, progress())).toBe(initialAccount);
  });

  it.each([
    [
      'a refused start',
      (s: AccountSlice) => loginAnswered(s, err('login-failed', 'Codex refused', { fix: 'try again' })),
      'Not signed in: Codex refused — try again',
    ],
    [
      'a key Codex refused',
      (s: AccountSlice) => loginAnswered(s, ok(progress({ method: 'apiKey', state: 'failed', authUrl: null, error: 'Codex refused the API key' }))),
      'Not signed in: Codex refused the API key',
    ],
    [
      'a failed sign-in',
      (s: AccountSlice) => loginProgressed(loginAnswered(s, ok(progress())), progress({ state: 'failed', error: 'denied' })),
      'Not signed in: denied',
    ],
    ['a failed sign-out', (s: AccountSlice) => loggedOut(accountActing(s, 'logout'), err('x', 'no Codex')), 'Not signed out: no Codex'],
    ['a failed cancel', (s: AccountSlice) => loginCancelled(s, err('x', 'gone')), 'Not cancelled: gone'],
  ])('%s says why', (_name, step, error) => {
    const next = step(initialAccount);
    expect(next.error).toBe(error);
    expect(next.busy).toBeNull();
  });

  it('cancel marks the sign-in cancelled; clearing puts it away; sign-out records the new account', () => {
    const started = loginAnswered(
      initialAccount,
      ok(progress({ method: 'deviceCode', authUrl: null, verificationUrl: 'https://auth.openai.com/codex/device', userCode: 'ABCD-1234' })),
    );
    const cancelled = loginCancelled(accountActing(started, 'cancel'), ok({ cancelled: true }));
    expect(cancelled.login?.state).toBe('cancelled');
    expect(cancelled.busy).toBeNull();
    expect(loginCleared(cancelled).login).toBeNull();
    expect(loginCleared(initialAccount)).toBe(initialAccount);
    const out = loggedOut(accountSeen(initialAccount, signedIn), ok(view()));
    expect(out.view).toEqual(view());
  });
});

describe('usage slice', () => {
  it('loads the list, replaces a home in place, adds a new one, and keeps the object when nothing changed', () => {
    const loaded = usageLoaded(initialUsage, [home()]);
    expect(usageLoaded(loaded, [home()])).toBe(loaded);
    const limits = { primary: { usedPercent: 42, windowMinutes: 300, resetsAt: null }, secondary: null };
    const updated = usageUpdated(loaded, home({ rateLimits: limits }));
    expect(updated.homes).toEqual([home({ rateLimits: limits })]);
    expect(usageUpdated(updated, home({ rateLimits: limits }))).toBe(updated);
    expect(usageUpdated(updated, home({ codexHome: '/other' })).homes.map((h) => h.codexHome)).toEqual(['/h', '/other']);
  });
});

describe('the app state', () => {
  it('the account read on connect is recorded and opens nothing by itself (the banner offers the sign-in)', () => {
    const first = applyAccount(initialState, view());
    expect(first.account.view).toEqual(view());
    expect(first.panel).toEqual({ kind: 'none' });
    expect(applyAccount(first, view())).toBe(first);
    const editing = applyPanel(initialState, { kind: 'table' });
    expect(applyAccount(editing, signedIn).panel).toEqual({ kind: 'table' });
  });

  it('account and usage events enter their slices; other slices keep their objects', () => {
    const started = { ...initialState, account: loginAnswered(initialAccount, ok(progress())) };
    const a = applyEvent(started, { event: 'account:updated', payload: signedIn });
    expect(a.account.view).toEqual(signedIn);
    expect(a.chats).toBe(started.chats);
    const b = applyEvent(a, { event: 'account:login', payload: progress({ state: 'completed' }) });
    expect(b.account.login?.state).toBe('completed');
    const c = applyEvent(b, { event: 'usage:updated', payload: home({ pausedUntil: '2026-12-01T14:05:00Z' }) });
    expect(c.usage.homes).toEqual([home({ pausedUntil: '2026-12-01T14:05:00Z' })]);
    expect(applyUsage(c, [home({ pausedUntil: '2026-12-01T14:05:00Z' })])).toBe(c);
    expect(applyEvent(c, { event: 'usage:warning', payload: { codexHome: '/h', window: 'primary', usedPercent: 91, resetsAt: null } })).toBe(c);
  });
});

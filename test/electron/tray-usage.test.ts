/**
 * What the agents cost, in the desktop shell: the tray's usage rows and tooltip (trayModel.ts
 * `usageRows`, `trayModel`, `trayStateOn`), the controller's start-up reads and minute tick, the
 * "Sign in to Codex…" action, the 90 % usage warning as one native notice per window and reset
 * (notifications.ts), and the system browser opener the sign-in screen uses (ipc.ts
 * `bindOpenExternal`). Fakes only (test/electron/fakes.ts); times are UTC.
 */
import { describe, expect, it } from 'vitest';
import type { AccountView } from '../../src/shared/account';
import type { AppEvent } from '../../src/shared/contract';
import type { HomeUsage } from '../../src/shared/usage';
import { bindOpenExternal, MAX_EXTERNAL_URL, OPEN_EXTERNAL_CHANNEL } from '../../src/main/electron/ipc';
import { NotificationRouter } from '../../src/main/electron/notifications';
import { usageWarningText } from '../../src/main/electron/text';
import { handleTrayAction, TrayController, type TrayView } from '../../src/main/electron/tray';
import { emptyTrayState, SIGN_IN_LABEL, trayModel, trayStateOn, usageRows, type TrayModel } from '../../src/main/electron/trayModel';
import { FakeIpcMain, notificationFactory } from './fakes';

process.env.TZ = 'UTC';
const NOW = new Date('2026-12-01T12:00:00Z');

const home = (over: Partial<HomeUsage> = {}): HomeUsage => ({
  codexHome: '/home/u/.codex',
  rateLimits: {
    primary: { usedPercent: 42, windowMinutes: 300, resetsAt: '2026-12-01T14:14:00Z' },
    secondary: { usedPercent: 12, windowMinutes: 10080, resetsAt: '2026-12-04T15:00:00Z' },
  },
  reportedAt: '2026-12-01T11:59:00Z',
  pausedUntil: null,
  ...over,
});
const account = (over: Partial<AccountView> = {}): AccountView => ({
  codexHome: '/home/u/.codex',
  signedIn: true,
  method: 'chatgpt',
  email: 'ada@example.com',
  plan: 'plus',
  requiresOpenaiAuth: true,
  ...over,
});
const labels = (items: TrayModel['items']): string[] => items.map((i) => ('label' in i ? i.label : '—'));

describe('usageRows', () => {
  it.each([
    ['nothing known', [], null, []],
    ['signed in, nothing reported', [home({ rateLimits: null })], account(), ['Usage — ChatGPT · ada@example.com · Plus']],
    [
      'both windows',
      [home()],
      account(),
      ['Usage — ChatGPT · ada@example.com · Plus', '5 h: 42 % used · resets in 2 h 14 min', 'week: 12 % used · resets in 3 d 3 h'],
    ],
    ['paused at a usage limit', [home({ rateLimits: null, pausedUntil: '2026-12-01T14:05:00Z' })], null, ['Usage', '⚠ Paused until 14:05 (usage limit)']],
    ['a pause already over', [home({ rateLimits: null, pausedUntil: '2026-12-01T11:00:00Z' })], null, []],
    ['not signed in', [], account({ signedIn: false, method: null, email: null, plan: null }), ['Usage — Not signed in', SIGN_IN_LABEL]],
    ['a provider needing no sign-in', [], account({ signedIn: false, method: null, email: null, plan: null, requiresOpenaiAuth: false }), []],
    [
      'two homes: each named',
      [home(), home({ codexHome: '/work/.codex', rateLimits: { primary: { usedPercent: 91, windowMinutes: 300, resetsAt: null }, secondary: null } })],
      null,
      ['Usage', '/home/u/.codex', '5 h: 42 % used · resets in 2 h 14 min', 'week: 12 % used · resets in 3 d 3 h', '/work/.codex', '5 h: 91 % used'],
    ],
  ] as const)('%s', (_name, usage, acct, rows) => {
    expect(labels(usageRows(usage, acct, NOW))).toEqual(rows);
  });

  it('"Sign in to Codex…" is an action; the others are headers', () => {
    const rows = usageRows([], account({ signedIn: false, method: null }), NOW);
    expect(rows.at(-1)).toEqual({ kind: 'action', label: SIGN_IN_LABEL, action: { type: 'sign-in' } });
    expect(usageRows([home()], null, NOW).every((r) => r.kind === 'header')).toBe(true);
  });
});

describe('the tray with usage', () => {
  it.each([
    ['nothing', {}, 'Angelia'],
    ['rate limits', { usage: [home()] }, 'Angelia — 5 h 42 % · week 12 %'],
    ['not signed in', { account: account({ signedIn: false, method: null }) }, 'Angelia — Codex is not signed in'],
    ['paused', { usage: [home({ pausedUntil: '2026-12-01T14:05:00Z' })] }, 'Angelia — paused until 14:05, 5 h 42 % · week 12 %'],
  ])('tooltip: %s', (_name, over, tooltip) => {
    expect(trayModel({ ...emptyTrayState, ...over }, NOW).tooltip).toBe(tooltip);
  });

  it('the usage rows sit between the chats and "Open Angelia", with a separator', () => {
    const items = labels(trayModel({ ...emptyTrayState, usage: [home()], account: account() }, NOW).items);
    const at = items.indexOf('5 h: 42 % used · resets in 2 h 14 min');
    expect(items.indexOf('No chats yet')).toBeLessThan(at);
    expect(items.indexOf('Open Angelia')).toBeGreaterThan(at);
    expect(items[items.indexOf('Open Angelia') - 1]).toBe('—');
  });

  it('usage:updated replaces a home (same state when unchanged); account:updated records the account', () => {
    const a = trayStateOn(emptyTrayState, { event: 'usage:updated', payload: home() });
    expect(a.usage).toEqual([home()]);
    expect(trayStateOn(a, { event: 'usage:updated', payload: home() })).toBe(a);
    const b = trayStateOn(a, { event: 'usage:updated', payload: home({ pausedUntil: '2026-12-01T14:05:00Z' }) });
    expect(b.usage).toHaveLength(1);
    const c = trayStateOn(b, { event: 'account:updated', payload: account() });
    expect(c.account).toEqual(account());
    expect(trayStateOn(c, { event: 'account:updated', payload: account() })).toBe(c);
  });

  it('the controller: start-up reads render; a tick renders again only while usage is known', () => {
    const rendered: TrayModel[] = [];
    const view: TrayView = { render: (m) => void rendered.push(m) };
    let listener: ((e: AppEvent) => void) | null = null;
    let now = NOW;
    const c = new TrayController({ view, initial: emptyTrayState, subscribe: (l) => ((listener = l), () => undefined), now: () => now });
    c.tick();
    expect(rendered).toHaveLength(1);
    c.setUsage([home()]);
    c.setAccount(account());
    expect(rendered).toHaveLength(3);
    c.setUsage([home()]);
    expect(rendered).toHaveLength(3);
    now = new Date('2026-12-01T13:00:00Z');
    c.tick();
    expect(labels(rendered.at(-1)!.items)).toContain('5 h: 42 % used · resets in 1 h 14 min');
    listener!({ event: 'usage:updated', payload: home({ codexHome: '/other', rateLimits: null }) });
    expect(rendered).toHaveLength(5);
  });

  it('"Sign in to Codex…" opens the window on the sign-in screen', () => {
    const log: string[] = [];
    const h = {
      answer: () => {
        throw new Error('no answer expected');
      },
      openWindow: () => log.push('open'),
      openChat: () => log.push('chat'),
      reviewTable: () => log.push('review'),
      signIn: () => log.push('sign-in'),
      toggleLogin: () => log.push('login'),
      quit: () => log.push('quit'),
      notice: () => log.push('notice'),
    };
    handleTrayAction({ type: 'sign-in' }, h);
    expect(log).toEqual(['sign-in']);
  });
});

describe('the 90 % usage warning', () => {
  const warning = (over: Partial<{ window: 'primary' | 'secondary'; usedPercent: number; resetsAt: string | null }> = {}): AppEvent => ({
    event: 'usage:warning',
    payload: { codexHome: '/home/u/.codex', window: 'primary', usedPercent: 91.6, resetsAt: '2026-12-01T14:14:00Z', ...over },
  });
  const router = (supported = true) => {
    const notes = notificationFactory();
    const r = new NotificationRouter({
      create: notes.create,
      isSupported: () => supported,
      platform: 'darwin',
      answer: () => {
        throw new Error('no answer expected');
      },
      openChat: () => undefined,
      now: () => NOW,
    });
    return { r, notes: notes.made };
  };

  it('says the window, the percent and when it resets', () => {
    expect(usageWarningText({ codexHome: '/h', window: 'primary', usedPercent: 91.6, resetsAt: '2026-12-01T14:14:00Z' }, NOW)).toEqual({
      title: 'Codex usage at 92 % of the 5 h limit',
      body: 'It resets in 2 h 14 min. At 100 % the agents pause; messages you send wait in their chat\u2019s queue until the reset.'.replace('\u2019', "'"),
    });
    expect(usageWarningText({ codexHome: '/h', window: 'secondary', usedPercent: 90, resetsAt: null }, NOW).title).toBe(
      'Codex usage at 90 % of the week limit',
    );
  });

  it('one notice per window and reset, however often the core repeats it; the next reset or the other window notify again', () => {
    const { r, notes } = router();
    r.handle(warning());
    r.handle(warning({ usedPercent: 95 }));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.options).toMatchObject({ title: 'Codex usage at 92 % of the 5 h limit', silent: true });
    expect(notes[0]!.shown).toBe(true);
    r.handle(warning({ window: 'secondary', resetsAt: null }));
    r.handle(warning({ resetsAt: '2026-12-01T19:14:00Z' }));
    expect(notes).toHaveLength(3);
  });

  it('nothing where notifications are not supported; other events are not warnings', () => {
    const { r, notes } = router(false);
    r.handle(warning());
    r.handle({ event: 'usage:updated', payload: home() });
    expect(notes).toHaveLength(0);
  });
});

describe('the system browser opener', () => {
  const OURS = 'file:///app/out/renderer/index.html';
  const trust = { isTrustedUrl: (u: string) => u.startsWith(OURS), isOurSender: (id: number) => id === 1 };
  const ours = { sender: { id: 1 }, senderFrame: { url: OURS, parent: null } };

  it('opens an https URL from our window and answers true', async () => {
    const ipc = new FakeIpcMain();
    const opened: string[] = [];
    bindOpenExternal(ipc, trust, async (u) => void opened.push(u));
    expect(await ipc.invokeOn(OPEN_EXTERNAL_CHANNEL, ours, 'https://auth.openai.com/oauth/authorize?x=1')).toEqual({ ok: true, value: true });
    expect(opened).toEqual(['https://auth.openai.com/oauth/authorize?x=1']);
  });

  it.each([['file:///etc/passwd'], ['javascript:alert(1)'], ['not a url'], [42], [`https://a.example/${'x'.repeat(MAX_EXTERNAL_URL)}`]])(
    'refuses %s and opens nothing',
    async (url) => {
      const ipc = new FakeIpcMain();
      const opened: string[] = [];
      bindOpenExternal(ipc, trust, async (u) => void opened.push(u));
      expect(await ipc.invokeOn(OPEN_EXTERNAL_CHANNEL, ours, url)).toMatchObject({ ok: false, error: { code: 'bad-url' } });
      expect(opened).toEqual([]);
    },
  );

  it('refuses a foreign sender; a browser that fails to open is reported; unbind removes the channel', async () => {
    const ipc = new FakeIpcMain();
    const reported: unknown[] = [];
    const unbind = bindOpenExternal(
      ipc,
      trust,
      async () => {
        throw new Error('no browser');
      },
      (e) => reported.push(e),
    );
    expect(await ipc.invokeOn(OPEN_EXTERNAL_CHANNEL, { sender: { id: 9 }, senderFrame: { url: OURS, parent: null } }, 'https://a.example')).toMatchObject({
      ok: false,
      error: { code: 'untrusted-sender' },
    });
    expect(await ipc.invokeOn(OPEN_EXTERNAL_CHANNEL, ours, 'https://a.example')).toMatchObject({ ok: false, error: { code: 'open-failed' } });
    expect(reported).toHaveLength(1);
    unbind();
    expect(ipc.handlers.has(OPEN_EXTERNAL_CHANNEL)).toBe(false);
  });
});

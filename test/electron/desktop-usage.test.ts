/**
 * The desktop app around a core that reports usage and an account (desktop.ts with fakes): the tray
 * reads both at start and shows them, "Sign in to Codex…" opens the window on the sign-in screen, a
 * `usage:warning` becomes one native notice, and the sign-in screen's browser opener is bound only when
 * Electron's `shell.openExternal` is given (and unbound by stop).
 */
import { describe, expect, it } from 'vitest';
import type { AccountView } from '../../src/shared/account';
import type { CoreApi } from '../../src/shared/contract';
import type { HomeUsage } from '../../src/shared/usage';
import { startDesktop } from '../../src/main/electron/desktop';
import { OPEN_EXTERNAL_CHANNEL } from '../../src/main/electron/ipc';
import { rendererLocation } from '../../src/main/electron/renderer';
import type { MenuItemTemplate } from '../../src/main/electron/tray';
import { SIGN_IN_LABEL } from '../../src/main/electron/trayModel';
import { chatView, FakeIpcMain, FakeTray, menuFactory, notificationFactory, realCore, windowFactory, type FakeImage } from './fakes';

const location = rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true });
const HOME = '/home/me/.codex';
const signedOut: AccountView = { codexHome: HOME, signedIn: false, method: null, email: null, plan: null, requiresOpenaiAuth: true };
const usage: HomeUsage = {
  codexHome: HOME,
  rateLimits: { primary: { usedPercent: 42, windowMinutes: 300, resetsAt: null }, secondary: { usedPercent: 12, windowMinutes: 10080, resetsAt: null } },
  reportedAt: null,
  pausedUntil: null,
};

function find(items: MenuItemTemplate<FakeImage>[], label: string): MenuItemTemplate<FakeImage> | null {
  for (const i of items) {
    if (i.label === label) return i;
    const inner = i.submenu ? find(i.submenu, label) : null;
    if (inner) return inner;
  }
  return null;
}

function start(opts: { opener?: boolean; account?: unknown } = {}) {
  const base = realCore([chatView('demo', { enforcement: 'managed' })]);
  const answers: Record<string, unknown> = { 'usage:read': [usage], 'account:read': opts.account ?? signedOut, 'chats:list': base.chatViews() };
  const core = {
    ...base,
    api: (): CoreApi => ({
      handlers: new Proxy({}, { get: (_t, channel: string) => async () => answers[channel] ?? [] }) as CoreApi['handlers'],
      subscribe: (l) => base.subscribe(l),
    }),
  };
  const ipcMain = new FakeIpcMain();
  const windows = windowFactory();
  const notifications = notificationFactory();
  const menu = menuFactory();
  const trays: FakeTray[] = [];
  const opened: string[] = [];
  const desktop = startDesktop({
    core,
    platform: 'linux',
    location,
    preload: '/app/out/preload/index.cjs',
    resources: '/app/resources',
    loginItem: { get: () => false, set: () => undefined },
    hidden: true,
    report: (e) => {
      throw e;
    },
    electron: {
      ipcMain,
      menu,
      createWindow: windows.create,
      createTray: (image) => {
        const t = new FakeTray(image);
        trays.push(t);
        return t;
      },
      image: (path, template) => ({ path, template }),
      createNotification: notifications.create,
      notificationsSupported: () => true,
      workArea: () => ({ x: 0, y: 25, width: 1440, height: 875 }),
      quit: () => undefined,
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      ...(opts.opener ? { openExternal: async (url: string) => void opened.push(url) } : {}),
    },
  });
  const settled = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { base, desktop, ipcMain, windows: windows.made, notes: notifications.made, menu, tray: trays[0]!, opened, settled };
}

const lastMenu = (menu: ReturnType<typeof menuFactory>) => menu.built.at(-1)!.template;

describe('startDesktop with usage and an account', () => {
  it('reads both at start: the windows and "Sign in to Codex…" in the menu, the summary in the tooltip', async () => {
    const { menu, tray, windows, settled, desktop } = start();
    await settled();
    expect(find(lastMenu(menu), '5 h: 42 % used')).not.toBeNull();
    expect(find(lastMenu(menu), 'week: 12 % used')).not.toBeNull();
    expect(tray.toolTip).toBe('Angelia — Codex is not signed in, 5 h 42 % · week 12 %');
    find(lastMenu(menu), SIGN_IN_LABEL)?.click?.();
    expect(windows[0]!.loaded).toEqual([`${location.url}#review=account`]);
    desktop.stop();
  });

  it('an answer of another shape is ignored (no account row)', async () => {
    const { menu, settled, desktop } = start({ account: { nonsense: true } });
    await settled();
    expect(find(lastMenu(menu), SIGN_IN_LABEL)).toBeNull();
    expect(find(lastMenu(menu), '5 h: 42 % used')).not.toBeNull();
    desktop.stop();
  });

  it('usage:updated and account:updated change the tray; usage:warning is one notice', async () => {
    const { base, menu, notes, settled, desktop } = start();
    await settled();
    base.hub.emit({ event: 'account:updated', payload: { ...signedOut, signedIn: true, method: 'apiKey' } });
    expect(find(lastMenu(menu), SIGN_IN_LABEL)).toBeNull();
    expect(find(lastMenu(menu), 'Usage — API key')).not.toBeNull();
    base.hub.emit({
      event: 'usage:updated',
      payload: { ...usage, rateLimits: { primary: { usedPercent: 91, windowMinutes: 300, resetsAt: null }, secondary: null } },
    });
    expect(find(lastMenu(menu), '5 h: 91 % used')).not.toBeNull();
    const warning = { codexHome: HOME, window: 'primary' as const, usedPercent: 91, resetsAt: null };
    base.hub.emit({ event: 'usage:warning', payload: warning });
    base.hub.emit({ event: 'usage:warning', payload: warning });
    expect(notes.map((n) => n.options.title)).toEqual(['Codex usage at 91 % of the 5 h limit']);
    desktop.stop();
  });

  it('the browser opener is bound only with shell.openExternal, for our windows, and unbound by stop', async () => {
    const without = start();
    expect(without.ipcMain.handlers.has(OPEN_EXTERNAL_CHANNEL)).toBe(false);
    without.desktop.stop();

    const { ipcMain, desktop, opened, windows } = start({ opener: true });
    desktop.windows.openMain();
    const win = windows[0]!;
    const from = { sender: { id: win.webContents.id }, senderFrame: { url: win.webContents.url, parent: null } };
    expect(await ipcMain.invokeOn(OPEN_EXTERNAL_CHANNEL, from, 'https://auth.openai.com/oauth/authorize?x=1')).toEqual({ ok: true, value: true });
    expect(opened).toEqual(['https://auth.openai.com/oauth/authorize?x=1']);
    desktop.stop();
    expect(ipcMain.handlers.has(OPEN_EXTERNAL_CHANNEL)).toBe(false);
  });
});

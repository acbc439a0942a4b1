import { describe, expect, it } from 'vitest';
import { startDesktop } from '../../src/main/electron/desktop';
import type { MenuItemTemplate } from '../../src/main/electron/tray';
import { rendererLocation } from '../../src/main/electron/renderer';
import { TABLE_CHANGED_LABEL } from '../../src/main/electron/trayModel';
import { PICK_FOLDER_CHANNEL, type FolderDialogOptions } from '../../src/main/electron/ipc';
import { chatView, FakeIpcMain, FakeTray, menuFactory, notificationFactory, realCore, windowFactory, type FakeImage, type FakeWindow } from './fakes';

const location = rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true });

function find(items: MenuItemTemplate<FakeImage>[], label: string): MenuItemTemplate<FakeImage> | null {
  for (const i of items) {
    if (i.label === label) return i;
    const inner = i.submenu ? find(i.submenu, label) : null;
    if (inner) return inner;
  }
  return null;
}

function start(platform: NodeJS.Platform, opts: { hidden?: boolean; differs?: boolean; picked?: string[] } = {}) {
  const core = { ...realCore([chatView('demo', { enforcement: 'managed' }), chatView('wild', { enforcement: 'disabled' })]) };
  core.tableChanges = async () => ({ differs: opts.differs ?? false, changes: opts.differs ? [{}] : [] });
  const ipcMain = new FakeIpcMain();
  const windows = windowFactory();
  const notifications = notificationFactory();
  const menu = menuFactory();
  const trays: FakeTray[] = [];
  let login = false;
  let quits = 0;
  const errors: unknown[] = [];
  const dialogs: Array<{ parent: FakeWindow | null; options: FolderDialogOptions }> = [];
  const desktop = startDesktop({
    core,
    platform,
    location,
    preload: '/app/out/preload/index.cjs',
    resources: '/app/resources',
    loginItem: { get: () => login, set: (on) => void (login = on) },
    hidden: opts.hidden ?? false,
    report: (e) => errors.push(e),
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
      quit: () => void quits++,
      showOpenDialog: async (parent, options) => {
        dialogs.push({ parent, options });
        return { canceled: (opts.picked ?? []).length === 0, filePaths: opts.picked ?? [] };
      },
    },
  });
  return {
    core,
    desktop,
    ipcMain,
    windows: windows.made,
    notes: notifications.made,
    menu,
    tray: trays[0]!,
    errors,
    dialogs,
    quits: () => quits,
    login: () => login,
  };
}

const lastMenu = (menu: ReturnType<typeof menuFactory>) => menu.built.at(-1)!.template;

describe('startDesktop', () => {
  it('macOS: template tray icon, the chats in the menu (full access marked), the window open', () => {
    const { tray, menu, windows } = start('darwin');
    expect(tray.image).toEqual({ path: '/app/resources/trayTemplate.png', template: true });
    expect(find(lastMenu(menu), 'demo — idle · managed sandbox')).not.toBeNull();
    expect(find(lastMenu(menu), '⚠ wild — idle · FULL ACCESS')?.icon).toEqual({ path: '/app/resources/danger.png', template: false });
    expect(windows).toHaveLength(1);
    expect(windows[0]!.loaded).toEqual([location.url]);
  });

  it('Linux: the coloured icon as the context menu owner; a login start opens no window', () => {
    const { tray, windows } = start('linux', { hidden: true });
    expect(tray.image).toEqual({ path: '/app/resources/tray.png', template: false });
    expect(tray.contextMenu).not.toBeNull();
    expect(windows).toHaveLength(0);
  });

  it('shows "The table changed — review…" once the core says the table differs; it opens the review', async () => {
    const { menu, windows } = start('linux', { differs: true, hidden: true });
    await new Promise((r) => setImmediate(r));
    const row = find(lastMenu(menu), TABLE_CHANGED_LABEL);
    expect(row).not.toBeNull();
    row?.click?.();
    expect(windows[0]!.loaded).toEqual([`${location.url}#review=table`]);
  });

  it('an approval: a notification and a badge; Allow from the tray answers with source tray and closes the notification', () => {
    const { core, tray, menu, notes } = start('darwin');
    const id = core.open();
    expect(tray.title).toBe('1');
    expect(tray.image).toEqual({ path: '/app/resources/trayAttentionTemplate.png', template: true });
    expect(notes).toHaveLength(1);
    expect(notes[0]!.options.actions).toEqual([
      { type: 'button', text: 'Allow' },
      { type: 'button', text: 'Deny' },
    ]);
    find(lastMenu(menu), 'Allow')?.click?.();
    core.broker.flushDeferred(); // the answer's event comes one macrotask after Codex's reply
    expect(core.broker.all()[0]).toMatchObject({ id, answer: 'allow', by: 'tray' });
    expect(notes[0]!.closed).toBe(true);
    expect(tray.title).toBe('');
    // The stale notification button answers nothing and says who was first.
    notes[0]!.press(1);
    expect(core.broker.all()[0]).toMatchObject({ answer: 'allow', by: 'tray' });
    expect(notes.at(-1)?.options.title).toBe('Already answered (Allowed, from the tray menu)');
  });

  it('a notification click opens the window on that chat', () => {
    const { core, notes, windows } = start('linux', { hidden: true });
    core.open();
    notes[0]!.click();
    expect(windows[0]!.loaded).toEqual([`${location.url}#chat=demo`]);
  });

  it('IPC serves our window and nobody else', async () => {
    const { ipcMain, windows } = start('darwin');
    const win = windows[0]!;
    const ok = await ipcMain.invoke({ sender: { id: win.webContents.id }, senderFrame: { url: win.webContents.url, parent: null } }, 'chats:list', {});
    expect(ok).toMatchObject({ ok: true });
    const stranger = await ipcMain.invoke({ sender: { id: 424242 }, senderFrame: { url: win.webContents.url, parent: null } }, 'chats:list', {});
    expect(stranger).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
  });

  it('the folder picker opens the native dialog over the window that asked (none over the popover), for our windows only', async () => {
    const { ipcMain, windows, tray, dialogs } = start('darwin', { picked: ['/home/user/projects/new'] });
    const main = windows[0]!;
    const asked = (w: FakeWindow) =>
      ipcMain.invokeOn(PICK_FOLDER_CHANNEL, { sender: { id: w.webContents.id }, senderFrame: { url: w.webContents.url, parent: null } });
    expect(await asked(main)).toEqual({ ok: true, value: '/home/user/projects/new' });
    expect(dialogs).toEqual([
      { parent: main, options: { title: 'Choose a folder', buttonLabel: 'Choose', properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'] } },
    ]);
    tray.emit('click');
    const popover = windows[1]!;
    expect(popover.options.frame).toBe(false);
    expect(await asked(popover)).toEqual({ ok: true, value: '/home/user/projects/new' });
    expect(dialogs[1]?.parent).toBeNull();
    const stranger = await ipcMain.invokeOn(PICK_FOLDER_CHANNEL, { sender: { id: 424242 }, senderFrame: { url: main.webContents.url, parent: null } });
    expect(stranger).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
    expect(dialogs).toHaveLength(2);
  });

  it('events reach our windows', () => {
    const { core, windows } = start('darwin');
    core.open();
    expect(windows[0]!.webContents.sent.map((s) => (s.payload as { event: string }).event)).toEqual(['approval:updated']);
  });

  it('"Start at login" toggles the login item and the checkbox; "Quit" quits', () => {
    const { menu, login, quits } = start('darwin');
    find(lastMenu(menu), 'Start at login')?.click?.();
    expect(login()).toBe(true);
    expect(find(lastMenu(menu), 'Start at login')?.checked).toBe(true);
    find(lastMenu(menu), 'Quit')?.click?.();
    expect(quits()).toBe(1);
  });

  it('a tray click on macOS opens the popover under the icon', () => {
    const { tray, windows } = start('darwin', { hidden: true });
    tray.emit('click');
    expect(windows).toHaveLength(1);
    expect(windows[0]!.options.frame).toBe(false);
    expect(windows[0]!.position).toEqual([812, 25]);
  });

  it('stop: no IPC, no tray, no windows, no notifications', () => {
    const { core, desktop, ipcMain, tray, windows, notes } = start('darwin');
    core.open();
    desktop.stop();
    expect(ipcMain.handlers.size).toBe(0);
    expect(tray.destroyed).toBe(true);
    expect(windows.every((w) => w.destroyed)).toBe(true);
    expect(notes.every((n) => n.closed)).toBe(true);
    core.open();
    expect(notes).toHaveLength(1);
  });
});

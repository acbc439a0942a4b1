/**
 * Electron entry: wiring only. One instance (a second launch shows the window of the first); every
 * webContents hardened (security.ts); the core (orchestrator, Codex children, approvals) runs in this
 * main process, built by the composition root (app/compose.ts) as `angelia serve` builds it; the desktop
 * app around it (IPC, tray, notifications, windows: electron/desktop.ts) gets the real Electron objects.
 * The loopback API (socket and chats' mailboxes, api/server.ts) starts with the core; quitting closes
 * it, then stops every agent.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, screen, shell, Tray } from 'electron';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningApi } from './api/server';
import { composeCore, type ComposedCore } from './app/compose';
import { startCodexClient } from './core/codex/start';
import { startDesktop, type Desktop } from './electron/desktop';
import { claimSingleInstance, cleanupBeforeQuit, linuxLoginItem, macLoginItem, startedAtLogin, type LoginItem } from './electron/lifecycle';
import { rendererLocation } from './electron/renderer';
import { resourcesDir } from './electron/resources';
import { contentSecurityPolicy, hardenWebContents } from './electron/security';

const here = fileURLToPath(new URL('.', import.meta.url));
const report = (e: unknown): void => void process.stderr.write(`angelia: ${e instanceof Error ? e.message : String(e)}\n`);

let core: ComposedCore | null = null;
let api: RunningApi | null = null;
let desktop: Desktop<BrowserWindow> | null = null;

function loginItem(): LoginItem {
  if (process.platform !== 'linux') return macLoginItem(app);
  const argv = process.env.APPIMAGE ? [process.env.APPIMAGE] : [process.execPath, app.getAppPath()];
  const fs = {
    exists: existsSync,
    mkdir: (p: string) => void mkdirSync(p, { recursive: true }),
    write: (p: string, t: string) => writeFileSync(p, t, { mode: 0o644 }),
    remove: (p: string) => rmSync(p, { force: true }),
  };
  return linuxLoginItem({ env: process.env, home: homedir(), argv, fs });
}

async function main(): Promise<void> {
  await app.whenReady();
  if (process.platform === 'darwin') app.dock?.hide(); // a menu-bar app (LSUIElement does this when packaged)
  const location = rendererLocation({
    indexFile: join(here, '../renderer/index.html'),
    isPackaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
  });
  const csp = contentSecurityPolicy(location.devServerUrl);
  app.on('web-contents-created', (_e, contents) => hardenWebContents(contents, { csp, openExternal: (url) => void shell.openExternal(url).catch(report) }));
  core = await composeCore({ env: process.env, startCodex: startCodexClient, api: true, logger: { error: report, info: (m) => report(m) } });
  api = await core.startApi();
  // The chats used most recently start their agents now, within [defaults] warm_agents (docs/architecture.md "Warm agents").
  void core.orchestrator.warmer.atStart();
  desktop = startDesktop({
    core: core.orchestrator,
    platform: process.platform,
    location,
    preload: join(here, '../preload/index.cjs'),
    resources: resourcesDir({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appPath: app.getAppPath() }),
    loginItem: loginItem(),
    hidden: startedAtLogin(process.argv, process.platform === 'darwin' ? app.getLoginItemSettings() : null),
    report,
    electron: {
      ipcMain,
      createWindow: (o) => new BrowserWindow(o),
      createTray: (image) => new Tray(image),
      menu: Menu,
      image: (path, template) => {
        const img = nativeImage.createFromPath(path);
        if (template) img.setTemplateImage(true);
        return img;
      },
      createNotification: (o) => new Notification(o),
      notificationsSupported: () => Notification.isSupported(),
      workArea: (p) => screen.getDisplayNearestPoint(p).workArea,
      quit: () => app.quit(),
      ...(process.platform === 'darwin' ? { activate: () => app.focus({ steal: true }) } : {}),
      showOpenDialog: (parent, options) => (parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options)),
      openExternal: (url) => shell.openExternal(url),
    },
  });
}

if (claimSingleInstance(app, () => desktop?.windows.openMain())) {
  // A tray app keeps running with no window open; "Quit" ends it.
  app.on('window-all-closed', () => undefined);
  cleanupBeforeQuit(
    app,
    async () => {
      desktop?.stop();
      await api?.close(); // the socket, then the API's adapter
      await core?.close();
    },
    report,
  );
  main().catch((e: unknown) => {
    report(e);
    // Started from Finder or a launcher there is no terminal: say it on screen too (the message names the file and the fix).
    if (app.isReady()) dialog.showErrorBox('Angelia could not start', e instanceof Error ? e.message : String(e));
    app.exit(1);
  });
}

/**
 * Electron entry: wiring only. The core (orchestrator, Codex children, approvals) runs in this main
 * process; the renderer is the same one the headless host serves. Tray and native notifications land
 * with the desktop issue; this opens the chat window with the security defaults.
 */
import { app, BrowserWindow, ipcMain } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Orchestrator } from './core/chats/orchestrator';
import { startCodexClient } from './core/codex/start';
import { resolveInstance } from './core/instance/paths';
import { bindContract } from './electron/ipc';

if (!app.requestSingleInstanceLock()) app.quit();

let orchestrator: Orchestrator | null = null;
const here = fileURLToPath(new URL('.', import.meta.url));

async function main(): Promise<void> {
  await app.whenReady();
  orchestrator = await Orchestrator.create({ paths: resolveInstance(process.env), env: process.env, startCodex: startCodexClient });
  const rendererIndex = join(here, '../renderer/index.html');
  const rendererUrl = process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(rendererIndex).href;
  const win = new BrowserWindow({
    width: 440, height: 680, show: true, title: 'Angelia',
    webPreferences: { preload: join(here, '../preload/index.cjs'), contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  bindContract(ipcMain, orchestrator.api(), () => BrowserWindow.getAllWindows().map((w) => w.webContents), (url) => url.startsWith(rendererUrl.split('#')[0] ?? rendererUrl));
  await win.loadURL(rendererUrl);
}

app.on('before-quit', () => void orchestrator?.shutdown());
main().catch((e: unknown) => {
  process.stderr.write(`angelia: ${e instanceof Error ? e.message : String(e)}\n`);
  app.exit(1);
});

/**
 * App lifecycle pieces that need Electron's `app`, injected: one instance only (a second launch
 * focuses the window of the first), and "Start at login" — macOS through `app.setLoginItemSettings`,
 * Linux through an XDG autostart entry (`~/.config/autostart/angelia.desktop`; Electron's login-item
 * API does nothing there).
 */
import { join } from 'node:path';

/** The part of Electron's `app` used for the single-instance lock. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
  quit(): void;
}

/**
 * Takes the single-instance lock. Returns false (and quits) when another Angelia holds it; otherwise
 * `onSecondInstance` runs whenever Angelia is launched again (it shows the window).
 */
export function claimSingleInstance(app: SingleInstanceApp, onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => onSecondInstance());
  return true;
}

/** "Start at login": read and set. */
export interface LoginItem {
  get(): boolean;
  set(on: boolean): void;
}

/** The part of Electron's `app` used for macOS login items. */
export interface LoginItemApp {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
}

/** "Start at login" on macOS: `app.setLoginItemSettings({ openAtLogin })`. */
export function macLoginItem(app: LoginItemApp): LoginItem {
  return {
    get: () => app.getLoginItemSettings().openAtLogin,
    set: (on) => app.setLoginItemSettings({ openAtLogin: on }),
  };
}

/** The argument a login start gets on Linux (the autostart entry passes it): start in the tray only. */
export const HIDDEN_ARG = '--hidden';

/**
 * Quotes one argument for a desktop entry's `Exec` key (Desktop Entry Specification, "The Exec key"):
 * plain words stay as they are; anything else is double-quoted with `"`, `` ` ``, `$` and `\` escaped,
 * and `%` doubled (field codes).
 */
export function desktopExecArg(arg: string): string {
  const escapedPercent = arg.replace(/%/g, '%%');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(escapedPercent)) return escapedPercent;
  return `"${escapedPercent.replace(/([\\"`$])/g, '\\$1')}"`;
}

/** The XDG autostart entry that starts `argv` (the AppImage, or electron + the app folder) hidden. */
export function autostartEntry(argv: string[]): string {
  const exec = [...argv, HIDDEN_ARG].map(desktopExecArg).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Angelia',
    'Comment=Codex agents in their sandboxes',
    `Exec=${exec}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** The file operations the Linux login item needs (node:fs in production). */
export interface AutostartFs {
  exists(path: string): boolean;
  mkdir(path: string): void;
  write(path: string, text: string): void;
  remove(path: string): void;
}

/**
 * "Start at login" on Linux: `$XDG_CONFIG_HOME/autostart/angelia.desktop` (default `~/.config`)
 * present or not. `argv` is what starts Angelia: `[$APPIMAGE]` for the AppImage, else
 * `[process.execPath, app.getAppPath()]`.
 */
export function linuxLoginItem(opts: { env: NodeJS.ProcessEnv; home: string; argv: string[]; fs: AutostartFs }): LoginItem {
  const configHome = opts.env.XDG_CONFIG_HOME && opts.env.XDG_CONFIG_HOME.startsWith('/') ? opts.env.XDG_CONFIG_HOME : join(opts.home, '.config');
  const dir = join(configHome, 'autostart');
  const file = join(dir, 'angelia.desktop');
  return {
    get: () => opts.fs.exists(file),
    set: (on) => {
      if (!on) {
        if (opts.fs.exists(file)) opts.fs.remove(file);
        return;
      }
      opts.fs.mkdir(dir);
      opts.fs.write(file, autostartEntry(opts.argv));
    },
  };
}

/**
 * Whether this run was a start at login (so no window opens, only the tray): macOS says so in
 * `getLoginItemSettings().wasOpenedAtLogin`; on Linux the autostart entry passes `--hidden`.
 */
export function startedAtLogin(argv: string[], settings: { wasOpenedAtLogin?: boolean } | null): boolean {
  return argv.includes(HIDDEN_ARG) || settings?.wasOpenedAtLogin === true;
}

/** The part of Electron's `app` used to stop the agents before quitting. */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

/**
 * Runs `cleanup` (stop every agent: `orchestrator.shutdown()`) before the app quits: the first
 * `before-quit` is held back until cleanup has finished (or failed: `onError`), then the app quits for
 * real. Further quit requests meanwhile are held back too; cleanup runs once.
 */
export function cleanupBeforeQuit(app: QuitApp, cleanup: () => Promise<void>, onError: (e: unknown) => void): void {
  let state: 'running' | 'stopping' | 'done' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'done') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    let run: Promise<void>;
    try {
      run = cleanup();
    } catch (e) {
      run = Promise.reject(e);
    }
    run.catch(onError).finally(() => {
      state = 'done';
      app.quit();
    });
  });
}

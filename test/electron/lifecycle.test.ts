import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  autostartEntry,
  claimSingleInstance,
  cleanupBeforeQuit,
  desktopExecArg,
  linuxLoginItem,
  macLoginItem,
  startedAtLogin,
} from '../../src/main/electron/lifecycle';
import { preventable } from './fakes';

function fakeApp(lock: boolean) {
  const listeners = new Map<string, Array<(e: { preventDefault(): void }) => void>>();
  const app = {
    quits: 0,
    quitEvents: [] as Array<ReturnType<typeof preventable>>,
    loginSettings: { openAtLogin: false },
    requestSingleInstanceLock: () => lock,
    on(event: string, l: (e: { preventDefault(): void }) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), l]);
      return app;
    },
    quit() {
      app.quits++;
      app.emit('before-quit');
    },
    emit(event: string) {
      const e = preventable();
      if (event === 'before-quit') app.quitEvents.push(e);
      for (const l of listeners.get(event) ?? []) l(e);
      return e;
    },
    getLoginItemSettings: () => app.loginSettings,
    setLoginItemSettings: (s: { openAtLogin: boolean }) => void (app.loginSettings = { ...s }),
  };
  return app;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('single instance', () => {
  it('the first instance keeps the lock; a second launch shows its window', () => {
    const app = fakeApp(true);
    let shown = 0;
    expect(claimSingleInstance(app, () => shown++)).toBe(true);
    app.emit('second-instance');
    expect(shown).toBe(1);
    expect(app.quits).toBe(0);
  });

  it('a second instance quits at once', () => {
    const app = fakeApp(false);
    expect(claimSingleInstance(app, () => undefined)).toBe(false);
    expect(app.quits).toBe(1);
  });
});

describe('Start at login', () => {
  it('macOS: app.setLoginItemSettings', () => {
    const app = fakeApp(true);
    const item = macLoginItem(app);
    expect(item.get()).toBe(false);
    item.set(true);
    expect(app.loginSettings).toEqual({ openAtLogin: true });
    expect(item.get()).toBe(true);
  });

  it('Linux: an XDG autostart entry that starts Angelia hidden, removed when unticked', () => {
    const home = mkdtempSync(join(tmpdir(), 'angelia-login-'));
    dirs.push(home);
    const fs = {
      exists: existsSync,
      mkdir: (p: string) => void mkdirSync(p, { recursive: true }),
      write: (p: string, t: string) => writeFileSync(p, t),
      remove: (p: string) => rmSync(p),
    };
    const item = linuxLoginItem({ env: {}, home, argv: ['/home/me/Apps/Angelia 0.1.0.AppImage'], fs });
    expect(item.get()).toBe(false);
    item.set(true);
    const file = join(home, '.config', 'autostart', 'angelia.desktop');
    expect(readFileSync(file, 'utf8')).toContain('Exec="/home/me/Apps/Angelia 0.1.0.AppImage" --hidden\n');
    expect(item.get()).toBe(true);
    item.set(false);
    expect(existsSync(file)).toBe(false);
    item.set(false);
    const xdg = linuxLoginItem({ env: { XDG_CONFIG_HOME: join(home, 'cfg') }, home, argv: ['/x'], fs });
    xdg.set(true);
    expect(existsSync(join(home, 'cfg', 'autostart', 'angelia.desktop'))).toBe(true);
  });

  it('quotes Exec arguments by the Desktop Entry rules', () => {
    expect(desktopExecArg('/usr/bin/angelia')).toBe('/usr/bin/angelia');
    expect(desktopExecArg('/a b/c')).toBe('"/a b/c"');
    expect(desktopExecArg('/x/$HOME/"q"`')).toBe('"/x/\\$HOME/\\"q\\"\\`"');
    expect(desktopExecArg('100%')).toBe('100%%');
    expect(autostartEntry(['/e', '/app'])).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Angelia\n/);
  });

  it('a login start opens no window', () => {
    expect(startedAtLogin(['/e', '--hidden'], null)).toBe(true);
    expect(startedAtLogin(['/e'], { wasOpenedAtLogin: true })).toBe(true);
    expect(startedAtLogin(['/e'], { wasOpenedAtLogin: false })).toBe(false);
  });
});

describe('cleanupBeforeQuit', () => {
  it('holds the quit until the agents are stopped, runs the cleanup once, then quits', async () => {
    const app = fakeApp(true);
    let release: () => void = () => undefined;
    let runs = 0;
    cleanupBeforeQuit(
      app,
      () => {
        runs++;
        return new Promise<void>((r) => (release = r));
      },
      () => undefined,
    );
    app.emit('before-quit'); // Quit
    app.emit('before-quit'); // Quit again while the agents stop
    expect(runs).toBe(1);
    expect(app.quitEvents.map((e) => e.defaultPrevented)).toEqual([true, true]);
    release();
    await new Promise((r) => setImmediate(r));
    // Cleanup done: the app quits for real, and that quit goes through.
    expect(app.quits).toBe(1);
    expect(app.quitEvents.map((e) => e.defaultPrevented)).toEqual([true, true, false]);
  });

  it('quits even when the cleanup fails, and reports the failure', async () => {
    const app = fakeApp(true);
    const errors: unknown[] = [];
    cleanupBeforeQuit(
      app,
      async () => {
        throw new Error('stuck');
      },
      (e) => errors.push(e),
    );
    app.emit('before-quit');
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    expect(app.quits).toBe(1);
  });
});

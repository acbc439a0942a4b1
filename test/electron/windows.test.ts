import { describe, expect, it } from 'vitest';
import { rendererLocation, rendererUrlFor } from '../../src/main/electron/renderer';
import { POPOVER_SIZE, popoverPosition, WindowManager, type Rect } from '../../src/main/electron/windows';
import { windowFactory } from './fakes';

const loc = rendererLocation({ indexFile: '/app/out/renderer/index.html', isPackaged: true });
const WORK: Rect = { x: 0, y: 25, width: 1440, height: 875 };

function manager(platform: NodeJS.Platform, trayBounds: Rect | null = { x: 1200, y: 0, width: 24, height: 24 }) {
  const f = windowFactory();
  let clock = 0;
  const m = new WindowManager({
    create: f.create,
    location: loc,
    preload: '/app/out/preload/index.cjs',
    platform,
    trayBounds: () => trayBounds,
    workArea: () => WORK,
    now: () => clock,
  });
  return { m, made: f.made, tick: (ms: number) => (clock += ms) };
}

describe('popoverPosition', () => {
  it('centres the popover right under the tray icon', () => {
    expect(popoverPosition({ x: 1000, y: 0, width: 24, height: 24 }, { width: 400, height: 600 }, WORK)).toEqual({ x: 812, y: 25 });
    expect(popoverPosition({ x: 1000, y: 25, width: 24, height: 22 }, { width: 400, height: 600 }, WORK)).toEqual({ x: 812, y: 47 });
  });

  it('stays inside the work area near the screen edge', () => {
    expect(popoverPosition({ x: 1420, y: 0, width: 20, height: 24 }, { width: 400, height: 600 }, WORK)).toEqual({ x: 1032, y: 25 });
    expect(popoverPosition({ x: 2, y: 0, width: 20, height: 24 }, { width: 400, height: 600 }, WORK).x).toBe(8);
  });

  it('goes above a tray at the bottom of the screen, and to the top-right corner when the bounds are unknown', () => {
    expect(popoverPosition({ x: 1000, y: 876, width: 24, height: 24 }, { width: 400, height: 600 }, { x: 0, y: 0, width: 1440, height: 876 })).toEqual({
      x: 812,
      y: 276,
    });
    expect(popoverPosition({ x: 0, y: 0, width: 0, height: 0 }, { width: 400, height: 600 }, WORK)).toEqual({ x: 1032, y: 33 });
  });
});

describe('WindowManager', () => {
  it('macOS: a tray click shows a frameless popover under the icon; blur hides it', () => {
    const { m, made, tick } = manager('darwin');
    m.togglePopover();
    expect(made).toHaveLength(1);
    const pop = made[0]!;
    expect(pop.options).toMatchObject({ frame: false, resizable: false, skipTaskbar: true, show: false, ...POPOVER_SIZE });
    expect(pop.position).toEqual([1012, 25]);
    expect(pop.visible).toBe(true);
    expect(pop.loaded).toEqual([loc.url]);
    pop.emit('blur');
    expect(pop.visible).toBe(false);
    tick(1000);
    m.togglePopover();
    expect(pop.visible).toBe(true);
    m.togglePopover();
    expect(pop.visible).toBe(false);
    expect(made).toHaveLength(1); // reused, never a second popover
  });

  it('macOS: the click that blurred the popover does not reopen it', () => {
    const { m, made, tick } = manager('darwin');
    m.togglePopover();
    const pop = made[0]!;
    pop.emit('blur'); // the click on the tray icon takes focus first…
    tick(50);
    m.togglePopover(); // …then arrives as a click
    expect(pop.visible).toBe(false);
  });

  it('"Open Angelia" opens a normal framed window, shown when ready; a second call focuses it', () => {
    const { m, made } = manager('darwin');
    const win = m.openMain();
    expect(win.options).toMatchObject({ title: 'Angelia', show: false });
    expect(win.options.frame).toBeUndefined();
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
    win.minimized = true;
    win.hide();
    expect(m.openMain()).toBe(win);
    expect(win.minimized).toBe(false);
    expect(win.visible && win.focused).toBe(true);
    expect(made).toHaveLength(1);
  });

  it('opens on a chat or the table review through the URL fragment', () => {
    const { m } = manager('linux');
    const win = m.openMain({ chat: 'my chat' });
    expect(win.loaded).toEqual([`${loc.url}#chat=my%20chat`]);
    m.openMain({ review: 'table' });
    expect(win.loaded.at(-1)).toBe(`${loc.url}#review=table`);
    m.openMain();
    expect(win.loaded).toHaveLength(2); // no view: the page stays where it is
    expect(rendererUrlFor(loc, null)).toBe(loc.url);
  });

  it('macOS: activates the app before showing a window (a menu-bar app is not activated by show)', () => {
    const f = windowFactory();
    const log: string[] = [];
    const m = new WindowManager({
      create: f.create,
      location: loc,
      preload: '/p',
      platform: 'darwin',
      trayBounds: () => null,
      workArea: () => WORK,
      activate: () => log.push(`activate:${f.made.map((w) => w.visible).join()}`),
    });
    m.togglePopover();
    const win = m.openMain();
    win.emit('ready-to-show');
    m.openMain();
    expect(log).toEqual(['activate:false', 'activate:true,false', 'activate:true,true']);
  });

  it('Linux: a tray click opens the normal window (no popover)', () => {
    const { m, made } = manager('linux');
    m.togglePopover();
    expect(made).toHaveLength(1);
    expect(made[0]!.options.frame).toBeUndefined();
  });

  it('knows its windows (for IPC) and forgets closed ones', () => {
    const { m, made } = manager('darwin');
    m.openMain();
    m.togglePopover();
    const [main, pop] = made;
    expect(m.windows()).toEqual([main, pop]);
    expect(m.isOurs(main!.webContents.id)).toBe(true);
    expect(m.isOurs(-1)).toBe(false);
    main!.destroy();
    expect(m.windows()).toEqual([pop]);
    expect(m.isOurs(main!.webContents.id)).toBe(false);
    m.openMain();
    expect(made).toHaveLength(3);
    m.closeAll();
    expect(m.windows()).toEqual([]);
  });
});

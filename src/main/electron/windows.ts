/**
 * Angelia's windows. On macOS a click on the tray icon opens a popover: a frameless window right under
 * the icon (positioned from `tray.getBounds()`, kept inside the screen's work area) that hides when it
 * loses focus. "Open Angelia", a notification click, a second launch and every click on Linux open the
 * normal window. Both show the same renderer with the same security defaults (security.ts); the view
 * (a chat, the table review) travels in the URL fragment (renderer.ts).
 *
 * `BrowserWindow` is injected as a factory, so this is tested in Node.
 */
import { rendererUrlFor, type RendererLocation, type WindowView } from './renderer';
import { secureWebPreferences } from './security';

/** A rectangle in screen points (Electron's `Rectangle`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Size of the popover, in points. */
export const POPOVER_SIZE = { width: 400, height: 600 } as const;
/** Size of the normal window, in points. */
export const MAIN_SIZE = { width: 960, height: 720 } as const;
/** Gap kept between the popover and the screen edge, in points. */
const MARGIN = 8;

/**
 * Where the popover goes (pure): centred under the tray icon, just below it (above it when the tray is
 * in the lower half of the work area), clamped so it stays inside `workArea`. Unknown tray bounds
 * (all zero, as on some Linux panels) → the top-right corner of the work area.
 */
export function popoverPosition(tray: Rect, size: { width: number; height: number }, workArea: Rect): { x: number; y: number } {
  const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(v, Math.max(lo, hi)));
  const minX = workArea.x + MARGIN;
  const maxX = workArea.x + workArea.width - size.width - MARGIN;
  if (tray.width === 0 && tray.height === 0) return { x: Math.round(maxX), y: Math.round(workArea.y + MARGIN) };
  const x = clamp(tray.x + tray.width / 2 - size.width / 2, minX, maxX);
  const below = tray.y + tray.height / 2 < workArea.y + workArea.height / 2;
  const y = below ? Math.max(tray.y + tray.height, workArea.y) : Math.min(tray.y - size.height, workArea.y + workArea.height - size.height);
  return { x: Math.round(x), y: Math.round(y) };
}

/** The options a window is created with (a subset of `BrowserWindowConstructorOptions`). */
export interface WindowOptions {
  width: number;
  height: number;
  minWidth?: number;
  minHeight?: number;
  show: boolean;
  title: string;
  frame?: boolean;
  resizable?: boolean;
  movable?: boolean;
  minimizable?: boolean;
  maximizable?: boolean;
  fullscreenable?: boolean;
  skipTaskbar?: boolean;
  alwaysOnTop?: boolean;
  webPreferences: ReturnType<typeof secureWebPreferences>;
}

/** The options of the normal window. */
export function mainWindowOptions(preload: string): WindowOptions {
  return { ...MAIN_SIZE, minWidth: 380, minHeight: 420, show: false, title: 'Angelia', webPreferences: secureWebPreferences(preload) };
}

/** The options of the macOS popover: frameless, fixed, not in the Dock or the window switcher. */
export function popoverWindowOptions(preload: string): WindowOptions {
  return {
    ...POPOVER_SIZE,
    show: false,
    title: 'Angelia',
    frame: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    webPreferences: secureWebPreferences(preload),
  };
}

/** The part of Electron's `BrowserWindow` used here. */
export interface BrowserWindowLike {
  /** Its page: IPC events are sent here (`send`), only while it shows our renderer (`getURL`). */
  readonly webContents: { readonly id: number; send(channel: string, ...args: unknown[]): void; isDestroyed(): boolean; getURL(): string };
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  isVisible(): boolean;
  /** True while it has the keyboard focus (a finished turn of the chat it shows is then not notified). */
  isFocused(): boolean;
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  setPosition(x: number, y: number): void;
  on(event: 'blur' | 'closed', listener: () => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
  destroy(): void;
}

/** What the window manager needs. */
export interface WindowManagerOptions<W extends BrowserWindowLike> {
  /** `(options) => new BrowserWindow(options)`. */
  create(options: WindowOptions): W;
  location: RendererLocation;
  /** Absolute path of the preload bundle (out/preload/index.cjs). */
  preload: string;
  platform: NodeJS.Platform;
  /** `tray.getBounds()`, or null when there is no tray. */
  trayBounds(): Rect | null;
  /** The work area of the display nearest a point (`screen.getDisplayNearestPoint(p).workArea`). */
  workArea(point: { x: number; y: number }): Rect;
  /** Where a failed page load is reported. */
  onError?(error: unknown): void;
  /**
   * Makes the app the active one before a window is shown (macOS: a menu-bar app is not activated by
   * showing a window; `app.focus({ steal: true })`).
   */
  activate?(): void;
  /** The clock, in ms (tests). */
  now?(): number;
}

/**
 * A click on the tray icon blurs (and so hides) an open popover just before the click arrives; a
 * toggle this soon after a blur-hide is that same click and must not reopen it.
 */
const BLUR_CLICK_MS = 300;

/** Keeps the normal window and the macOS popover; creates each on first use. */
export class WindowManager<W extends BrowserWindowLike> {
  private main: W | null = null;
  private popover: W | null = null;
  private hiddenByBlurAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly opts: WindowManagerOptions<W>) {}

  /** Shows and focuses the normal window (creating it), on `view` when given. */
  openMain(view: WindowView = null): W {
    const existing = alive(this.main);
    if (existing) {
      if (view) this.load(existing, view);
      if (existing.isMinimized()) existing.restore();
      this.opts.activate?.();
      existing.show();
      existing.focus();
      return existing;
    }
    const win = this.opts.create(mainWindowOptions(this.opts.preload));
    this.main = win;
    win.once('ready-to-show', () => {
      this.opts.activate?.();
      win.show();
      win.focus();
    });
    win.on('closed', () => {
      if (this.main === win) this.main = null;
    });
    this.load(win, view);
    return win;
  }

  /**
   * The tray icon was clicked: on macOS shows the popover under the icon (or hides it when open);
   * elsewhere opens the normal window.
   */
  togglePopover(): void {
    if (this.opts.platform !== 'darwin') {
      this.openMain();
      return;
    }
    const open = alive(this.popover);
    if (open?.isVisible()) {
      open.hide();
      return;
    }
    if (this.now() - this.hiddenByBlurAt < BLUR_CLICK_MS) return;
    const win = open ?? this.createPopover();
    const bounds = this.opts.trayBounds() ?? { x: 0, y: 0, width: 0, height: 0 };
    const { x, y } = popoverPosition(
      bounds,
      POPOVER_SIZE,
      this.opts.workArea({ x: Math.round(bounds.x + bounds.width / 2), y: Math.round(bounds.y + bounds.height / 2) }),
    );
    win.setPosition(x, y);
    this.opts.activate?.();
    win.show();
    win.focus();
  }

  /** Every live window of ours (events go to their webContents). */
  windows(): W[] {
    return [alive(this.main), alive(this.popover)].filter((w): w is W => w !== null);
  }

  /** The normal window when `webContentsId` is its page, else null (the popover, or not ours). */
  mainOf(webContentsId: number): W | null {
    const main = alive(this.main);
    return main && main.webContents.id === webContentsId ? main : null;
  }

  /** What each window's page reported it shows (webContents id → chat id; null: the chat list). */
  private readonly shown = new Map<number, string | null>();

  /**
   * Records the chat a window's page shows (ipc.ts `bindShownChat`, the preload's `showingChat`; null:
   * the list). Ignored for a webContents that is not one of our windows.
   */
  setShownChat(webContentsId: number, chatId: string | null): void {
    if (!this.isOurs(webContentsId)) return;
    this.shown.set(webContentsId, chatId);
  }

  /**
   * True while one of our windows is focused and visible and shows `chatId`: its page reported that chat
   * (`setShownChat`), or the chat list (which shows each chat's state), or nothing yet (a page still
   * loading counts as showing every chat: the person is looking at Angelia).
   */
  isChatFocused(chatId: string): boolean {
    return this.windows().some((w) => {
      if (!w.isFocused() || !w.isVisible() || w.isMinimized()) return false;
      const shown = this.shown.get(w.webContents.id);
      return shown === undefined || shown === null || shown === chatId;
    });
  }

  /** True when a webContents id belongs to one of our windows. */
  isOurs(webContentsId: number): boolean {
    return this.windows().some((w) => w.webContents.id === webContentsId);
  }

  /** Destroys every window (quit). */
  closeAll(): void {
    for (const w of this.windows()) w.destroy();
    this.main = null;
    this.popover = null;
  }

  private createPopover(): W {
    const win = this.opts.create(popoverWindowOptions(this.opts.preload));
    this.popover = win;
    win.on('blur', () => {
      if (!win.isVisible()) return;
      win.hide();
      this.hiddenByBlurAt = this.now();
    });
    win.on('closed', () => {
      if (this.popover === win) this.popover = null;
    });
    this.load(win, null);
    return win;
  }

  private load(win: W, view: WindowView): void {
    win.loadURL(rendererUrlFor(this.opts.location, view)).catch((e: unknown) => this.opts.onError?.(e));
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}

function alive<W extends BrowserWindowLike>(w: W | null): W | null {
  return w && !w.isDestroyed() ? w : null;
}

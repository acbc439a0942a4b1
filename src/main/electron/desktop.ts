/**
 * The desktop app around a running core: IPC for our windows (and their native folder picker and browser opener), the tray (menu, badge, Allow / Deny and a
 * question's options with source `tray`, rate limits, "Sign in to Codex…"), native notifications (source `notification`; requests, turns, the usage warning and
 * limit, each as the chat's profile's `notifications` setting says), the windows, "Start at login". Every
 * Electron object arrives as a parameter (src/main/index.ts passes the real ones), so the whole wiring
 * runs in tests with fakes.
 */
import { z } from 'zod';
import { AccountView } from '../../shared/account';
import type { AppEvent, ApprovalView, ChatView, CoreApi, ProfileView, SessionView } from '../../shared/contract';
import { HomeUsage } from '../../shared/usage';
import { answerFrom, type ApprovalAnswerer } from './answers';
import { bindContract, bindFolderPicker, bindOpenExternal, bindShownChat, type FolderDialogOptions, type IpcMainLike, type OpenDialogResult } from './ipc';
import type { LoginItem } from './lifecycle';
import { NotificationRouter, type NotificationFactory } from './notifications';
import { isRendererUrl, type RendererLocation } from './renderer';
import { appIconFile, trayIconFiles } from './resources';
import { bindTray, handleTrayAction, TrayController, type MenuFactory, type TrayLike } from './tray';
import { emptyTrayState, recentFirst, sandboxedOf } from './trayModel';
import { WindowManager, type BrowserWindowLike, type Rect, type WindowOptions } from './windows';

/** The part of the orchestrator (core/chats/orchestrator.ts) the desktop app uses: the contract and named operations. */
export interface DesktopCore extends ApprovalAnswerer {
  /** Every core event, in order; returns the unsubscribe function. */
  subscribe(listener: (e: AppEvent) => void): () => void;
  /** The approvals waiting for an answer, oldest first. */
  pendingApprovals(): ApprovalView[];
  api(): CoreApi;
  chatViews(): ChatView[];
  /** A chat's sessions, most recently used first (the tray lists the chats by the first one's `lastUsedAt`). */
  sessionViews?(chatId: string): SessionView[];
  profileViews(): ProfileView[];
  tableChanges(): Promise<{ differs: boolean; changes: unknown[] }>;
}

/** The Electron objects the desktop app uses, injected. */
export interface DesktopElectron<W extends BrowserWindowLike, M, I> {
  ipcMain: IpcMainLike;
  /** `(o) => new BrowserWindow(o)`. */
  createWindow(options: WindowOptions): W;
  /** `(image) => new Tray(image)`. */
  createTray(image: I): TrayLike<M, I> & { getBounds(): Rect; destroy(): void };
  /** Electron's `Menu`. */
  menu: MenuFactory<M, I>;
  /** `nativeImage.createFromPath(path)`, marked as a template image when asked (macOS). */
  image(path: string, template: boolean): I;
  /** `(o) => new Notification(o)`. */
  createNotification: NotificationFactory;
  /** `Notification.isSupported()`. */
  notificationsSupported(): boolean;
  /** `screen.getDisplayNearestPoint(p).workArea`. */
  workArea(point: { x: number; y: number }): Rect;
  /** `app.quit()`. */
  quit(): void;
  /** Makes the app active before a window shows (macOS: `app.focus({ steal: true })`). */
  activate?(): void;
  /**
   * `dialog.showOpenDialog(parent, options)`, or `dialog.showOpenDialog(options)` with no parent. The
   * parent is the normal window when it asked; the macOS popover gets none (it hides when it loses the
   * focus, and a sheet on it would go with it).
   */
  showOpenDialog(parent: W | null, options: FolderDialogOptions): Promise<OpenDialogResult>;
  /** `shell.openExternal(url)`: the sign-in screen's ChatGPT page in the system browser (ipc.ts `bindOpenExternal`). */
  openExternal?(url: string): Promise<void>;
}

/** What `startDesktop` needs besides the Electron objects. */
export interface DesktopOptions<W extends BrowserWindowLike, M, I> {
  core: DesktopCore;
  electron: DesktopElectron<W, M, I>;
  platform: NodeJS.Platform;
  location: RendererLocation;
  /** Absolute path of out/preload/index.cjs. */
  preload: string;
  /** The icons' folder (resources.ts). */
  resources: string;
  loginItem: LoginItem;
  /** True when this run is a start at login: only the tray, no window. */
  hidden: boolean;
  /** Where errors nobody else can show go (stderr). */
  report(error: unknown): void;
}

/** The running desktop app. */
export interface Desktop<W extends BrowserWindowLike> {
  windows: WindowManager<W>;
  tray: TrayController;
  notifications: NotificationRouter;
  /** Unbinds IPC, stops listening to the core, closes notifications, removes the tray, closes windows. */
  stop(): void;
}

/**
 * Starts the desktop app on a running core: binds IPC (senders checked), builds the tray from the core's
 * state and keeps it in step with its events, routes approvals to notifications, and opens the normal
 * window unless `hidden`.
 */
export function startDesktop<W extends BrowserWindowLike, M, I>(opts: DesktopOptions<W, M, I>): Desktop<W> {
  const { core, electron, platform } = opts;
  const windows = new WindowManager<W>({
    create: (o) => electron.createWindow(o),
    location: opts.location,
    preload: opts.preload,
    platform,
    trayBounds: () => tray.getBounds(),
    workArea: (p) => electron.workArea(p),
    onError: opts.report,
    ...(electron.activate ? { activate: () => electron.activate?.() } : {}),
  });
  const trust = {
    isTrustedUrl: (url: string) => isRendererUrl(url, opts.location),
    isOurSender: (id: number) => windows.isOurs(id),
    targets: () => windows.windows().map((w) => w.webContents),
  };
  const unbindContract = bindContract(electron.ipcMain, core.api(), trust);
  const unbindPicker = bindFolderPicker(
    electron.ipcMain,
    trust,
    (senderId, options) => electron.showOpenDialog(windows.mainOf(senderId), options),
    opts.report,
  );
  const openExternal = electron.openExternal?.bind(electron);
  const unbindOpener = openExternal ? bindOpenExternal(electron.ipcMain, trust, openExternal, opts.report) : () => undefined;
  const unbindShown = bindShownChat(electron.ipcMain, trust, (senderId, chatId) => windows.setShownChat(senderId, chatId));
  const unbindIpc = (): void => {
    unbindShown();
    unbindContract();
    unbindPicker();
    unbindOpener();
  };

  const notifications = new NotificationRouter({
    create: electron.createNotification,
    isSupported: () => electron.notificationsSupported(),
    platform,
    answer: answerFrom(core, 'notification'),
    openChat: (chatId) => windows.openMain({ chat: chatId }),
    openUsage: () => windows.openMain({ review: 'account' }),
    ...(platform === 'linux' ? { icon: appIconFile(opts.resources) } : {}),
    profiles: () => core.profileViews(),
    chats: core.chatViews(),
    isChatFocused: (chatId) => windows.isChatFocused(chatId),
  });
  const unsubscribeNotifications = core.subscribe((e) => notifications.handle(e));

  const files = trayIconFiles(platform, opts.resources);
  const tray = electron.createTray(electron.image(files.normal, files.template));
  const readLogin = (): boolean => {
    try {
      return opts.loginItem.get();
    } catch (e) {
      opts.report(e);
      return false;
    }
  };
  const view = bindTray({
    tray,
    menu: electron.menu,
    images: {
      normal: electron.image(files.normal, files.template),
      attention: electron.image(files.attention, files.template),
      danger: electron.image(files.danger, false),
    },
    platform,
    onClick: () => windows.togglePopover(),
    onAction: (action) =>
      handleTrayAction(action, {
        answer: answerFrom(core, 'tray'),
        openWindow: () => windows.openMain(),
        openChat: (chatId) => windows.openMain({ chat: chatId }),
        reviewTable: () => windows.openMain({ review: 'table' }),
        signIn: () => windows.openMain({ review: 'account' }),
        toggleLogin: () => {
          try {
            opts.loginItem.set(!readLogin());
          } catch (e) {
            notifications.notice('Could not change "Start at login"', e instanceof Error ? e.message : String(e));
          }
          trayController.setStartAtLogin(readLogin());
        },
        quit: () => electron.quit(),
        notice: (text) => notifications.notice(text),
      }),
  });
  const lastUsed = (chatId: string): string | null => {
    try {
      return core.sessionViews?.(chatId)[0]?.lastUsedAt ?? null;
    } catch (e) {
      opts.report(e);
      return null;
    }
  };
  const chatsNow = core.chatViews();
  const trayController = new TrayController({
    view,
    initial: {
      ...emptyTrayState,
      chats: chatsNow,
      recent: recentFirst(chatsNow, lastUsed),
      sandboxed: sandboxedOf(core.profileViews()),
      approvals: core.pendingApprovals(),
      startAtLogin: readLogin(),
    },
    subscribe: (l) => core.subscribe(l),
    profiles: () => core.profileViews(),
  });
  core.tableChanges().then((t) => trayController.setTable({ differs: t.differs, changes: t.changes.length }), opts.report);
  // The usage and the account as they are now; events keep them current. An answer of another shape is ignored.
  const handlers = core.api().handlers;
  handlers['usage:read']({}).then((u) => {
    const parsed = z.array(HomeUsage).safeParse(u);
    if (parsed.success) trayController.setUsage(parsed.data);
  }, opts.report);
  handlers['account:read']({}).then((a) => {
    const parsed = AccountView.safeParse(a);
    if (parsed.success) trayController.setAccount(parsed.data);
  }, opts.report);
  // "resets in …" in the menu stays true without an event.
  const ticker = setInterval(() => trayController.tick(), 60_000);
  ticker.unref?.();

  if (!opts.hidden) windows.openMain();
  return {
    windows,
    tray: trayController,
    notifications,
    stop: () => {
      clearInterval(ticker);
      unbindIpc();
      unsubscribeNotifications();
      trayController.stop();
      notifications.dispose();
      tray.destroy();
      windows.closeAll();
    },
  };
}

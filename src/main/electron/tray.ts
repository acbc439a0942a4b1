/**
 * The tray's Electron binding: turns a `TrayModel` (trayModel.ts) into a menu template, builds it with
 * the injected `Menu.buildFromTemplate`, updates the injected `Tray` (image, tooltip, macOS title =
 * badge) and re-renders whenever core events change what the tray shows. Clicks become `TrayAction`s,
 * handled by `handleTrayAction` (answers go to the broker with source `tray`).
 *
 * macOS: left click toggles the popover window, right click (or ctrl-click) pops the menu up.
 * Linux: the menu is the tray's context menu (AppIndicator shows it on any click).
 */
import type { AppEvent, ProfileView } from '../../shared/contract';
import type { AnswerFn } from './answers';
import { outcomeNotice } from './text';
import { sandboxedOf, trayModel, trayStateOn, type TrayAction, type TrayItem, type TrayModel, type TrayState } from './trayModel';

/** The part of Electron's `MenuItemConstructorOptions` the tray uses. */
export interface MenuItemTemplate<I = unknown> {
  label?: string;
  type?: 'normal' | 'separator' | 'submenu' | 'checkbox';
  enabled?: boolean;
  checked?: boolean;
  icon?: I;
  click?: () => void;
  submenu?: MenuItemTemplate<I>[];
}

/** The part of Electron's `Menu` (static side) the tray uses. */
export interface MenuFactory<M, I = unknown> {
  buildFromTemplate(template: MenuItemTemplate<I>[]): M;
}

/** The part of Electron's `Tray` the binding uses. */
export interface TrayLike<M, I> {
  setImage(image: I): void;
  setToolTip(toolTip: string): void;
  setTitle(title: string): void;
  setContextMenu(menu: M | null): void;
  popUpContextMenu(menu?: M): void;
  on(event: 'click' | 'right-click', listener: () => void): unknown;
}

/** The tray's images: plain and with the attention dot (template images on macOS); the red FULL ACCESS mark. */
export interface TrayImages<I> {
  normal: I;
  attention: I;
  danger: I | null;
}

/**
 * The menu template for a model (pure but for the click closures): headers are disabled rows,
 * `danger` rows carry the red `dangerIcon`, every click calls `onAction` with the row's action.
 */
export function menuTemplate<I>(model: TrayModel, onAction: (a: TrayAction) => void, dangerIcon: I | null): MenuItemTemplate<I>[] {
  const row = (item: TrayItem): MenuItemTemplate<I> => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'header':
        return { label: item.label, enabled: false };
      case 'checkbox':
        return { label: item.label, type: 'checkbox', checked: item.checked, click: () => onAction(item.action) };
      case 'submenu':
        return { label: item.label, type: 'submenu', submenu: item.items.map(row), ...(item.danger && dangerIcon ? { icon: dangerIcon } : {}) };
      case 'action':
        return { label: item.label, click: () => onAction(item.action), ...(item.danger && dangerIcon ? { icon: dangerIcon } : {}) };
    }
  };
  return model.items.map(row);
}

/** What `bindTray` needs: the Electron objects, the images, the platform and what a click does. */
export interface TrayBindingOptions<M, I> {
  tray: TrayLike<M, I>;
  menu: MenuFactory<M, I>;
  images: TrayImages<I>;
  platform: NodeJS.Platform;
  onAction: (a: TrayAction) => void;
  /** A plain (left) click on the icon: the popover on macOS. */
  onClick: () => void;
}

/** A bound tray: `render` shows a model. */
export interface TrayView {
  render(model: TrayModel): void;
}

/** Binds the injected `Tray`: listens for clicks once and returns the view that renders models into it. */
export function bindTray<M, I>(opts: TrayBindingOptions<M, I>): TrayView {
  const mac = opts.platform === 'darwin';
  let current: M | null = null;
  let attention: boolean | null = null;
  opts.tray.on('click', () => opts.onClick());
  if (mac) opts.tray.on('right-click', () => opts.tray.popUpContextMenu(current ?? undefined));
  return {
    render(model) {
      current = opts.menu.buildFromTemplate(menuTemplate(model, opts.onAction, opts.images.danger));
      if (attention !== model.attention) {
        opts.tray.setImage(model.attention ? opts.images.attention : opts.images.normal);
        attention = model.attention;
      }
      opts.tray.setToolTip(model.tooltip);
      if (mac) opts.tray.setTitle(model.title);
      else opts.tray.setContextMenu(current);
    },
  };
}

/** What tray actions do; `answer` is `answerFrom(orchestrator, 'tray')`. */
export interface TrayActionHandlers {
  answer: AnswerFn;
  openWindow(): void;
  openChat(chatId: string): void;
  reviewTable(): void;
  /** Opens the window on the sign-in screen. */
  signIn(): void;
  toggleLogin(): void;
  quit(): void;
  /** Tells the person something short (a notification): a late or refused answer. */
  notice(text: string): void;
}

/**
 * Runs one tray action. An answer goes to the broker with source `tray` (a question's option as its
 * `answers`); when another surface was
 * first it answers nothing and says "Already answered (…)"; when the broker refuses it the reason is
 * shown. Never throws.
 */
export function handleTrayAction(action: TrayAction, h: TrayActionHandlers): void {
  switch (action.type) {
    case 'answer': {
      const r = action.answers ? h.answer(action.approvalId, action.answer, { answers: action.answers }) : h.answer(action.approvalId, action.answer);
      if (!r.ok) h.notice(`Could not answer: ${r.error.message}`);
      else {
        const text = outcomeNotice(r.value);
        if (text) h.notice(text);
      }
      return;
    }
    case 'open-window':
      return h.openWindow();
    case 'open-chat':
      return h.openChat(action.chatId);
    case 'review-table':
      return h.reviewTable();
    case 'sign-in':
      return h.signIn();
    case 'toggle-login':
      return h.toggleLogin();
    case 'quit':
      return h.quit();
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** What the tray controller needs: the view, the state to start from, the core's event stream. */
export interface TrayControllerOptions {
  view: TrayView;
  initial: TrayState;
  subscribe(listener: (e: AppEvent) => void): () => void;
  /** The profiles as they are now (read again on `profiles:changed`, for FULL ACCESS before a start). */
  profiles?: () => Pick<ProfileView, 'name' | 'sandboxed'>[];
  /** The time "resets in …" is counted from (default: the clock). */
  now?: () => Date;
}

/**
 * Keeps the tray in step with the core: renders the initial state, then folds every core event through
 * `trayStateOn` and renders again only when what the tray shows changed.
 */
export class TrayController {
  private current: TrayState;
  private readonly unsubscribe: () => void;

  constructor(private readonly opts: TrayControllerOptions) {
    this.current = opts.initial;
    opts.view.render(trayModel(this.current, this.now()));
    this.unsubscribe = opts.subscribe((e) => this.on(e));
  }

  /** The state shown now. */
  get state(): TrayState {
    return this.current;
  }

  /** Ticks or unticks "Start at login". */
  setStartAtLogin(on: boolean): void {
    if (this.current.startAtLogin !== on) this.set({ ...this.current, startAtLogin: on });
  }

  /** Records whether the table on disk differs (at start, before any `table:changed`). */
  setTable(table: TrayState['table']): void {
    this.set(trayStateOn(this.current, { event: 'table:changed', payload: table }));
  }

  /** Records the usage as read at start (before any `usage:updated`). */
  setUsage(usage: TrayState['usage']): void {
    this.set(same(usage, this.current.usage) ? this.current : { ...this.current, usage });
  }

  /** Records the account as read at start (before any `account:updated`). */
  setAccount(account: TrayState['account']): void {
    this.set(same(account, this.current.account) ? this.current : { ...this.current, account });
  }

  /** Renders again so "resets in …" stays true (desktop.ts calls it every minute while usage is known). */
  tick(): void {
    if (this.current.usage.some((u) => u.rateLimits !== null || u.pausedUntil !== null)) this.opts.view.render(trayModel(this.current, this.now()));
  }

  /** Stops listening to the core. */
  stop(): void {
    this.unsubscribe();
  }

  private on(e: AppEvent): void {
    if (e.event === 'profiles:changed' && this.opts.profiles) {
      this.set({ ...this.current, sandboxed: sandboxedOf(this.opts.profiles()) });
      return;
    }
    this.set(trayStateOn(this.current, e));
  }

  private set(next: TrayState): void {
    if (next === this.current) return;
    this.current = next;
    this.opts.view.render(trayModel(next, this.now()));
  }

  private now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }
}

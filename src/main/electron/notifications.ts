/**
 * Native notifications for approvals (README "The desktop app"): one per request. The title says which profile
 * asks what; the body shows the command, folders or files in full enough to judge (truncated by code
 * point). On macOS it carries Allow / Deny buttons (only the answers the request offers; Deny = Codex
 * `decline`); elsewhere a click opens the window on that chat. When the request is settled anywhere
 * (`approval:updated` with a state other than pending) its notification is closed. A click or button on
 * a settled request answers nothing and says "Already answered (Allowed, from the window)". Answers go
 * to the broker with source `notification` (answers.ts). A rate-limit window reaching 90 % (`usage:warning`)
 * gets one short notice per window and reset, however often the core repeats it.
 *
 * Electron's `Notification` constructor and `Notification.isSupported` are injected.
 */
import type { AppEvent, ApprovalAnswer, ApprovalView } from '../../shared/contract';
import type { AnswerFn } from './answers';
import { alreadyAnsweredText, askDetail, askPhrase, oneLine, outcomeNotice, truncateCodePoints, usageWarningText, type UsageWarning } from './text';

/** The part of Electron's `NotificationConstructorOptions` used here. */
export interface NotificationOptionsLike {
  title: string;
  body: string;
  silent?: boolean;
  actions?: { type: 'button'; text: string }[];
  closeButtonText?: string;
  urgency?: 'normal' | 'critical' | 'low';
  timeoutType?: 'default' | 'never';
  icon?: string;
}

/**
 * The part of an Electron `Notification` used here. `action` (macOS buttons) carries the button's index
 * in `details.actionIndex` (Electron ≥ 35; the second argument before that).
 */
export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'action', listener: (details: { actionIndex?: number } | undefined, actionIndex?: number) => void): unknown;
}

/** Builds a notification: `(opts) => new Notification(opts)`. */
export type NotificationFactory = (opts: NotificationOptionsLike) => NotificationLike;

/** Longest notification title, in code points. */
export const MAX_TITLE = 80;
/** Longest notification body, in code points (enough for a long command, its folder and reason). */
export const MAX_BODY = 1000;
/** The answers a notification button may give, in button order, with their labels. */
export const BUTTONS: ReadonlyArray<{ answer: ApprovalAnswer; text: string }> = [
  { answer: 'allow', text: 'Allow' },
  { answer: 'deny', text: 'Deny' },
];

/** A request's notification, as data: options and which answer each button gives (pure). */
export interface ApprovalNotification {
  options: NotificationOptionsLike;
  /** `buttons[i]` is the answer of action index i (macOS only; empty elsewhere). */
  buttons: ApprovalAnswer[];
}

/**
 * The notification for a pending request on a platform (pure). macOS: Allow / Deny buttons for the
 * answers offered, and a close button labelled "Later". Elsewhere: no buttons (click opens the window),
 * critical urgency and no timeout so it waits like the request does.
 */
export function approvalNotification(view: ApprovalView, platform: NodeJS.Platform, icon?: string): ApprovalNotification {
  const title = truncateCodePoints(oneLine(`${view.profile} ${askPhrase(view)}`), MAX_TITLE);
  const body = truncateCodePoints(askDetail(view), MAX_BODY);
  if (platform === 'darwin') {
    const offered = BUTTONS.filter((b) => view.answers.includes(b.answer));
    return {
      options: { title, body, silent: false, actions: offered.map((b) => ({ type: 'button', text: b.text })), closeButtonText: 'Later' },
      buttons: offered.map((b) => b.answer),
    };
  }
  return {
    options: { title, body: `${body}\n\nClick to review it in Angelia.`, silent: false, urgency: 'critical', timeoutType: 'never', ...(icon ? { icon } : {}) },
    buttons: [],
  };
}

/** Which button an Electron `action` event names: `details.actionIndex` (the older second argument as fallback). */
export function actionIndexOf(details: unknown, legacyIndex: unknown): number {
  if (details && typeof details === 'object' && typeof (details as { actionIndex?: unknown }).actionIndex === 'number') {
    return (details as { actionIndex: number }).actionIndex;
  }
  return typeof legacyIndex === 'number' ? legacyIndex : -1;
}

/** What the router needs. `answer` is `answerFrom(orchestrator, 'notification')`. */
export interface NotificationRouterOptions {
  create: NotificationFactory;
  isSupported: () => boolean;
  platform: NodeJS.Platform;
  answer: AnswerFn;
  /** Opens the window on a chat (a click on the notification). */
  openChat: (chatId: string) => void;
  /** Notification icon where the platform does not use the app's own (Linux). */
  icon?: string;
  /** The time a usage warning's "resets in …" is counted from (default: the clock). */
  now?: () => Date;
}

interface Shown {
  view: ApprovalView;
  notification: NotificationLike | null;
  buttons: ApprovalAnswer[];
}

/** Settled requests remembered for late clicks; the oldest are forgotten beyond this. */
const REMEMBER = 500;

/**
 * Routes approval events to native notifications (see the file comment). Feed it every core event
 * (`handle`); it keeps a reference to each live notification (Electron drops the events of one that was
 * garbage-collected).
 */
export class NotificationRouter {
  private readonly shown = new Map<string, Shown>();
  private readonly notices = new Set<NotificationLike>();
  /** The usage warnings already shown, by home, window and reset time. */
  private readonly warned = new Set<string>();

  constructor(private readonly opts: NotificationRouterOptions) {}

  /** One core event: a new pending request is notified once; a settled one has its notification closed. */
  handle(e: AppEvent): void {
    if (e.event === 'usage:warning') return this.usageWarning(e.payload);
    if (e.event !== 'approval:updated') return;
    const view = e.payload;
    const entry = this.shown.get(view.id);
    if (view.state === 'pending') {
      if (entry) entry.view = view;
      else this.show(view);
      return;
    }
    if (!entry) return;
    entry.view = view;
    this.withdraw(entry);
  }

  /** Shows a short notice ("Already answered (…)") with no buttons. */
  notice(title: string, body = ''): void {
    if (!this.opts.isSupported()) return;
    const n = this.opts.create({ title: truncateCodePoints(title, MAX_TITLE), body: truncateCodePoints(body, MAX_BODY), silent: true });
    this.notices.add(n);
    n.on('close', () => this.notices.delete(n));
    n.on('click', () => this.notices.delete(n));
    n.show();
  }

  /**
   * A rate-limit window at 90 % or more: one notice (no buttons) per home, window and reset time; the
   * same warning again shows nothing, the next window's (after its reset) shows again.
   */
  usageWarning(w: UsageWarning): void {
    const key = `${w.codexHome}\n${w.window}\n${w.resetsAt ?? ''}`;
    if (this.warned.has(key) || !this.opts.isSupported()) return;
    this.warned.add(key);
    const { title, body } = usageWarningText(w, this.opts.now ? this.opts.now() : new Date());
    this.notice(title, body);
  }

  /** Closes every notification (quit). */
  dispose(): void {
    for (const entry of this.shown.values()) this.withdraw(entry);
    for (const n of this.notices) n.close();
    this.notices.clear();
  }

  private show(view: ApprovalView): void {
    if (!this.opts.isSupported()) return;
    const { options, buttons } = approvalNotification(view, this.opts.platform, this.opts.icon);
    const notification = this.opts.create(options);
    const entry: Shown = { view, notification, buttons };
    this.remember(entry);
    notification.on('click', () => this.clicked(entry));
    notification.on('action', (details, index) => this.acted(entry, actionIndexOf(details, index)));
    notification.on('close', () => {
      if (entry.notification === notification) entry.notification = null;
    });
    notification.show();
  }

  private remember(entry: Shown): void {
    this.shown.set(entry.view.id, entry);
    if (this.shown.size <= REMEMBER) return;
    for (const [id, e] of this.shown) {
      if (e.view.state !== 'pending') {
        this.shown.delete(id);
        return;
      }
    }
  }

  private withdraw(entry: Shown): void {
    const n = entry.notification;
    entry.notification = null;
    n?.close();
  }

  private clicked(entry: Shown): void {
    if (entry.view.state !== 'pending') this.notice(alreadyAnsweredText(entry.view), oneLine(entry.view.title));
    this.opts.openChat(entry.view.chatId);
  }

  private acted(entry: Shown, index: number): void {
    if (entry.view.state !== 'pending') {
      this.notice(alreadyAnsweredText(entry.view), oneLine(entry.view.title));
      return;
    }
    const answer = entry.buttons[index];
    if (!answer) return;
    const r = this.opts.answer(entry.view.id, answer);
    if (!r.ok) {
      this.notice(`Could not answer: ${r.error.message}`, oneLine(entry.view.title));
      this.opts.openChat(entry.view.chatId);
      return;
    }
    const outcome = r.value;
    if (outcome.outcome === 'answered' || outcome.outcome === 'already-answered') {
      // The broker's event normally says the same a moment later; recording it here makes a second click
      // on the same notification answer nothing even if that event is late.
      const state = outcome.by === 'codex' ? 'withdrawn' : outcome.by === 'timeout' ? 'timedOut' : 'answered';
      entry.view = { ...entry.view, state, answer: outcome.answer, by: outcome.by };
    }
    const text = outcomeNotice(outcome);
    if (text) this.notice(text, oneLine(entry.view.title));
    this.withdraw(entry);
  }
}

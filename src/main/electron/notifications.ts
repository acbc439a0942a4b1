/**
 * Native notifications (README "The desktop app", docs/architecture.md "Notifications"): each approval,
 * agent question and MCP elicitation, a finished or failed turn, the usage limit and the 90 % warning,
 * each shown only where the `notifications` setting of the chat's profile lets it (notifyPolicy.ts;
 * the account's usage follows the loosest profile). One notification per event, replaced, never stacked:
 * a request's is closed once it is settled; a chat keeps one turn notice (the next closes it); a home one
 * usage-limit notice. A question (`<profile> asks`, the first question) offers on macOS its options as
 * buttons ("Answer: Red") when one click can answer it (notifyPolicy.ts `singleChoice`, at most 3) and it
 * is shown in full (shownInFull.ts), else "Open"; every title and body goes through `shownText` (agent
 * text escaped; Linux body markup as entities). An
 * elicitation (`<server> (MCP, <profile>) asks`) only "Open": its form is filled, and its URL opened,
 * from the card only. A finished turn is not notified while a focused window shows that chat.
 *
 * Approvals: the title says which profile
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
import type { AppEvent, ApprovalAnswer, ApprovalView, ChatItem, ChatView, ProfileView, QuestionAnswers } from '../../shared/contract';
import type { HomeUsage } from '../../shared/usage';
import type { AnswerFn } from './answers';
import { accountSetting, allows, MAX_OPTION_BUTTONS, requestKind, settingOf, singleChoice, usageLimitKey, type NotifyKind } from './notifyPolicy';
import {
  alreadyAnsweredText,
  askDetail,
  askPhrase,
  elicitationText,
  oneLine,
  outcomeNotice,
  questionText,
  shownText,
  truncateCodePoints,
  turnDoneText,
  turnFailedText,
  usageLimitText,
  usageWarningText,
  type UsageWarning,
} from './text';
import { judgeable, NOT_IN_FULL, OPTION_PREFIX } from './shownInFull';
import { burstText, RequestBurst } from './notifyBurst';
import { visibleText } from '../../shared/untrustedText';

/** The part of Electron's `NotificationConstructorOptions` used here. */
export interface NotificationOptionsLike {
  title: string;
  /** macOS: a line under the title. */
  subtitle?: string;
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
/** Longest button text, in code points. */
export const MAX_BUTTON = 40;
/** The answers a notification button may give, in button order, with their labels. */
export const BUTTONS: ReadonlyArray<{ answer: ApprovalAnswer; text: string }> = [
  { answer: 'allow', text: 'Allow' },
  { answer: 'deny', text: 'Deny' },
];

/** The button, after the answers, of a request not shown in full: it opens the card. */
export const SHOW_IN_WINDOW = 'Show in window';

/** A request's notification, as data: options and which answer each button gives (pure). */
export interface ApprovalNotification {
  options: NotificationOptionsLike;
  /** `buttons[i]` is the answer of action index i (macOS only; empty elsewhere). */
  buttons: ApprovalAnswer[];
  /** Set when the request is not shown in full: one more button, after the answers, opens the card. */
  showInWindow?: true;
}

/**
 * A request's body (pure): `detail` as is when it is shown in full (`judgeable` and at most
 * `MAX_BODY` code points), else escaped and cut; the notification then says `NOT_IN_FULL` (`notInFull`).
 */
export function requestBody(detail: string): { body: string; full: boolean } {
  if (judgeable(detail) && Array.from(detail).length <= MAX_BODY) return { body: detail, full: true };
  return { body: truncateCodePoints(visibleText(detail, { lines: true }), MAX_BODY), full: false };
}

/** macOS: the subtitle of a request not shown in full (`NOT_IN_FULL`); nothing when it is. */
function notInFull(full: boolean): { subtitle?: string } {
  return full ? {} : { subtitle: NOT_IN_FULL };
}

/**
 * The notification for a pending request on a platform (pure). macOS: Allow / Deny buttons for the
 * answers offered, and a close button labelled "Later"; Allow only when the body shows the request in
 * full (`requestBody`), else Deny and "Show in window". Elsewhere: no buttons (click opens the window),
 * critical urgency and no timeout so it waits like the request does.
 */
export function approvalNotification(view: ApprovalView, platform: NodeJS.Platform, icon?: string): ApprovalNotification {
  const title = truncateCodePoints(oneLine(`${view.profile} ${askPhrase(view)}`), MAX_TITLE);
  const { body, full } = requestBody(askDetail(view));
  if (platform === 'darwin') {
    const offered = BUTTONS.filter((b) => view.answers.includes(b.answer) && (full || b.answer !== 'allow'));
    const texts = [...offered.map((b) => b.text), ...(full ? [] : [SHOW_IN_WINDOW])];
    return {
      options: shownText(
        { title, ...notInFull(full), body, silent: false, actions: texts.map((text) => ({ type: 'button', text })), closeButtonText: 'Later' },
        platform,
      ),
      buttons: offered.map((b) => b.answer),
      ...(full ? {} : { showInWindow: true as const }),
    };
  }
  return {
    options: shownText(
      {
        title,
        body: `${body}\n\n${full ? '' : `${NOT_IN_FULL} `}Click to review it in Angelia.`,
        silent: false,
        urgency: 'critical',
        timeoutType: 'never',
        ...(icon ? { icon } : {}),
      },
      platform,
    ),
    buttons: [],
  };
}

/** What a request notification's button does: answer (a question's option carries `answers`), or open the card. */
export type RequestButton = { answer: ApprovalAnswer; answers?: QuestionAnswers } | { open: true };

/** A request's notification, as data (any kind): options and what each button does. */
export interface RequestNotification {
  options: NotificationOptionsLike;
  /** `buttons[i]` is what action index i does (macOS only; empty elsewhere). */
  buttons: RequestButton[];
}

/** A question's or an elicitation's notification: the card is where it is answered, so a click opens it. */
function cardNotification(
  text: { title: string; body: string },
  buttons: { label: string; does: RequestButton }[],
  platform: NodeJS.Platform,
  icon?: string,
  urgent = true,
): RequestNotification {
  const title = truncateCodePoints(oneLine(text.title), MAX_TITLE);
  const { body, full } = requestBody(text.body);
  if (platform === 'darwin') {
    return {
      options: shownText(
        {
          title,
          ...notInFull(full),
          body,
          silent: false,
          actions: buttons.map((b) => ({ type: 'button', text: visibleText(truncateCodePoints(oneLine(b.label), MAX_BUTTON)) })),
          closeButtonText: 'Later',
        },
        platform,
      ),
      buttons: buttons.map((b) => b.does),
    };
  }
  return {
    options: shownText(
      {
        title,
        body: `${body}\n\n${full ? '' : `${NOT_IN_FULL} `}Click to answer it in Angelia.`,
        silent: false,
        ...(urgent ? { urgency: 'critical' as const, timeoutType: 'never' as const } : { urgency: 'normal' as const }),
        ...(icon ? { icon } : {}),
      },
      platform,
    ),
    buttons: [],
  };
}

/**
 * The notification of any pending request (pure): an approval's (`approvalNotification`); a question's,
 * titled "<profile> asks" with the first question, whose options are buttons on macOS when one click
 * answers it (`singleChoice`, at most `MAX_OPTION_BUTTONS`), else one "Open" button; an elicitation's,
 * titled "<server> (MCP, <profile>) asks" with its message and only "Open" (never accepted unseen, and a
 * URL is never opened from here). Elsewhere no buttons: a click opens the card; critical urgency (it stays
 * until answered) for an approval, a question and an elicitation during a turn, normal for an elicitation
 * an MCP server sends outside any turn (`inTurn` false: nothing waits on it).
 */
export function requestNotification(view: ApprovalView, platform: NodeJS.Platform, icon?: string, inTurn = true): RequestNotification {
  const kind = requestKind(view);
  if (kind === 'approval') {
    const n = approvalNotification(view, platform, icon);
    return { options: n.options, buttons: [...n.buttons.map((answer) => ({ answer })), ...(n.showInWindow ? [{ open: true as const }] : [])] };
  }
  const open = { label: 'Open', does: { open: true } as const };
  if (kind === 'elicitation') return cardNotification(elicitationText(view), [open], platform, icon, inTurn);
  const text = questionText(view);
  // The options are buttons only when the question is shown in full and each option fits its button unchanged.
  const choice = requestBody(text.body).full ? singleChoice(view, MAX_OPTION_BUTTONS) : null;
  // Each option is prefixed ("Answer: Allow"), so no option reads as an approval's button.
  const fits = choice?.labels.every((label) => Array.from(OPTION_PREFIX + label).length <= MAX_BUTTON && judgeable(label) && !label.includes('\n'));
  const buttons =
    choice && fits
      ? choice.labels.map((label) => ({ label: OPTION_PREFIX + label, does: { answer: 'allow' as const, answers: { [choice.questionId]: [label] } } }))
      : [open];
  return cardNotification(text, buttons, platform, icon);
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
  /** Opens the window where the usage is shown, with "Try now" (a click on the usage-limit notice). */
  openUsage?: () => void;
  /** Notification icon where the platform does not use the app's own (Linux). */
  icon?: string;
  /** The time a usage warning's "resets in …" is counted from (default: the clock). */
  now?: () => Date;
  /** The profiles as they are now, for their `notifications` setting (absent: every profile shows everything). */
  profiles?: () => Pick<ProfileView, 'name' | 'notifications'>[];
  /** The chats at start (each one's profile); `chat:updated` keeps them current. */
  chats?: Pick<ChatView, 'id' | 'profile' | 'state'>[];
  /** True while a focused window of ours shows this chat: its finished turn is not notified (absent: never). */
  isChatFocused?: (chatId: string) => boolean;
}

interface Shown {
  view: ApprovalView;
  notification: NotificationLike | null;
  buttons: RequestButton[];
}

/** The chat states in which a turn runs (a turn end then is one this run of Angelia saw happen). */
const BUSY: ReadonlySet<string> = new Set(['starting', 'working', 'needs-you']);

/** Settled requests remembered for late clicks; the oldest are forgotten beyond this. */
const REMEMBER = 500;

/**
 * Routes core events to native notifications (see the file comment). Feed it every core event
 * (`handle`); it keeps a reference to each live notification (Electron drops the events of one that was
 * garbage-collected).
 */
export class NotificationRouter {
  private readonly shown = new Map<string, Shown>();
  private readonly notices = new Set<NotificationLike>();
  /** The usage warnings already shown, by home, window and reset time. */
  private readonly warned = new Set<string>();
  /** Chat id → its profile and state (`chat:updated`). */
  private readonly chats = new Map<string, { profile: string; state: string }>();
  /** Chat id → the text of the last agent message since its last turn end. */
  private readonly answers = new Map<string, string>();
  /** Chat id → its turn notice (one per chat: the next replaces it). */
  private readonly turnNotices = new Map<string, NotificationLike>();
  /** Chat id → whether a turn of it runs (an elicitation outside a turn is not urgent). */
  private readonly inTurn = new Map<string, boolean>();
  /** Requests held by the per-chat burst limit, and each chat's summary of them. */
  private readonly burst = new RequestBurst();
  private readonly bursts = new Map<string, { ids: Set<string>; notification: NotificationLike | null; timer: ReturnType<typeof setTimeout> | null }>();
  /** Codex home → its usage limit shown (`usageLimitKey`) and that notice. */
  private readonly limits = new Map<string, { key: string; notification: NotificationLike | null }>();

  constructor(private readonly opts: NotificationRouterOptions) {
    for (const c of opts.chats ?? []) {
      this.chats.set(c.id, { profile: c.profile, state: c.state });
      this.inTurn.set(c.id, BUSY.has(c.state));
    }
  }

  /**
   * One core event: a new pending request is notified once and its notification closed when settled;
   * a turn end notified (finished or failed); the usage limit and warning notified once each.
   */
  handle(e: AppEvent): void {
    switch (e.event) {
      case 'usage:warning':
        return this.usageWarning(e.payload);
      case 'usage:updated':
        return this.usageUpdated(e.payload);
      case 'chat:updated':
        this.chats.set(e.payload.id, { profile: e.payload.profile, state: e.payload.state });
        // needs-you says nothing of a turn (an MCP server may ask while the chat is idle): the state before holds.
        if (e.payload.state !== 'needs-you') this.inTurn.set(e.payload.id, BUSY.has(e.payload.state));
        return;
      case 'chat:item':
        return this.item(e.payload.chatId, e.payload.item);
      case 'approval:updated':
        return this.request(e.payload);
      default:
        return;
    }
  }

  /** Shows a short notice ("Already answered (…)") with no buttons. */
  notice(title: string, body = ''): void {
    if (!this.opts.isSupported()) return;
    const n = this.opts.create(
      shownText({ title: truncateCodePoints(title, MAX_TITLE), body: truncateCodePoints(body, MAX_BODY), silent: true }, this.opts.platform),
    );
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
    if (this.warned.has(key) || !this.opts.isSupported() || !this.wanted(null, 'usageWarning')) return;
    this.warned.add(key);
    const { title, body } = usageWarningText(w, this.opts.now ? this.opts.now() : new Date());
    this.notice(title, body);
  }

  /** Closes every notification (quit). */
  dispose(): void {
    for (const entry of this.shown.values()) this.withdraw(entry);
    for (const b of this.bursts.values()) {
      if (b.timer) clearTimeout(b.timer);
      b.notification?.close();
    }
    this.bursts.clear();
    for (const n of [...this.notices, ...this.turnNotices.values(), ...[...this.limits.values()].map((l) => l.notification)]) n?.close();
    this.notices.clear();
    this.turnNotices.clear();
    this.limits.clear();
  }

  /** Whether a notification of `kind` for `profile` (null: the account) is wanted by the settings. */
  private wanted(profile: string | null, kind: NotifyKind): boolean {
    const profiles = this.opts.profiles?.() ?? [];
    return allows(profile === null ? accountSetting(profiles) : settingOf(profiles, profile), kind);
  }

  private request(view: ApprovalView): void {
    const entry = this.shown.get(view.id);
    if (view.state === 'pending') {
      if (entry) entry.view = view;
      else if (this.wanted(view.profile, requestKind(view)) && this.opts.isSupported()) {
        if (this.burst.admit(view.chatId, view.id, this.nowMs()) === 'show') this.show(view);
        else this.hold(view);
      }
      return;
    }
    this.unhold(view.id);
    if (!entry) return;
    entry.view = view;
    this.withdraw(entry);
  }

  /**
   * A transcript item: an agent message is remembered as the turn's answer; a turn end (of a turn this
   * run saw: the chat was busy) is notified, replacing the chat's previous turn notice — a finished one
   * with the answer's first line, a failed one with its reason; none while a focused window shows the
   * chat, none for a stopped turn. Past turns read by /resume never were busy here and are not notified.
   */
  private item(chatId: string, item: ChatItem): void {
    if (item.type === 'agent') {
      if (item.text.trim()) this.answers.set(chatId, item.text);
      return;
    }
    if (item.type !== 'turnEnd') return;
    const answer = this.answers.get(chatId) ?? '';
    this.answers.delete(chatId);
    const chat = this.chats.get(chatId);
    if (!chat || !BUSY.has(chat.state) || item.status === 'interrupted') return;
    const kind = item.status === 'failed' ? 'turnFailed' : 'turnDone';
    if (!this.wanted(chat.profile, kind) || this.opts.isChatFocused?.(chatId) || !this.opts.isSupported()) return;
    const text = kind === 'turnFailed' ? turnFailedText(chatId, chat.profile, item.reason) : turnDoneText(chatId, chat.profile, answer);
    this.turnNotices.get(chatId)?.close();
    const n = this.opts.create(this.plain(text));
    this.turnNotices.set(chatId, n);
    n.on('click', () => this.opts.openChat(chatId));
    n.on('close', () => {
      if (this.turnNotices.get(chatId) === n) this.turnNotices.delete(chatId);
    });
    n.show();
  }

  /**
   * A home's usage changed: reaching its limit (`usageLimitKey`) is notified once, replacing that home's
   * previous limit notice; the notice is closed once the limit is lifted.
   */
  private usageUpdated(u: HomeUsage): void {
    const key = usageLimitKey(u);
    const last = this.limits.get(u.codexHome);
    if (last && last.key === key) return;
    last?.notification?.close();
    if (!key) {
      this.limits.delete(u.codexHome);
      return;
    }
    const entry: { key: string; notification: NotificationLike | null } = { key, notification: null };
    this.limits.set(u.codexHome, entry);
    if (!this.opts.isSupported() || !this.wanted(null, 'usageLimit')) return;
    const n = this.opts.create(this.plain(usageLimitText(u, this.opts.now ? this.opts.now() : new Date())));
    entry.notification = n;
    n.on('click', () => this.opts.openUsage?.());
    n.on('close', () => {
      if (entry.notification === n) entry.notification = null;
    });
    n.show();
  }

  /** The options of a notice with no buttons (a turn, the usage limit). */
  private plain(text: { title: string; body: string }): NotificationOptionsLike {
    const icon = this.opts.platform === 'linux' && this.opts.icon ? { icon: this.opts.icon } : {};
    const options = { title: truncateCodePoints(oneLine(text.title), MAX_TITLE), body: truncateCodePoints(text.body, MAX_BODY), silent: false, ...icon };
    return shownText(options, this.opts.platform);
  }

  private show(view: ApprovalView): void {
    if (!this.opts.isSupported()) return;
    const { options, buttons } = requestNotification(view, this.opts.platform, this.opts.icon, this.inTurn.get(view.chatId) ?? true);
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

  private nowMs(): number {
    return this.opts.now ? this.opts.now().getTime() : Date.now();
  }

  /** A request held by the burst limit (notifyBurst.ts): the chat's summary is shown once the gap is over. */
  private hold(view: ApprovalView): void {
    const b = this.bursts.get(view.chatId) ?? { ids: new Set<string>(), notification: null, timer: null };
    this.bursts.set(view.chatId, b);
    if (b.timer) return;
    b.timer = setTimeout(() => this.flush(view.chatId, view.profile), this.burst.dueIn(view.chatId, this.nowMs()));
  }

  /** Shows one "K more requests from <profile>" for the chat's held requests still pending (replacing the last). */
  private flush(chatId: string, profile: string): void {
    const b = this.bursts.get(chatId);
    if (!b) return;
    b.timer = null;
    const ids = this.burst.take(chatId, this.nowMs());
    if (ids.length === 0) return;
    for (const id of ids) b.ids.add(id);
    b.notification?.close();
    const n = this.opts.create(this.plain(burstText(profile, b.ids.size)));
    b.notification = n;
    n.on('click', () => this.opts.openChat(chatId));
    n.on('close', () => {
      if (b.notification === n) b.notification = null;
    });
    n.show();
  }

  /** A settled request leaves the burst: not in a summary still to come; the shown summary closes when none of its requests waits. */
  private unhold(id: string): void {
    this.burst.drop(id);
    for (const b of this.bursts.values()) {
      if (!b.ids.delete(id) || b.ids.size > 0) continue;
      b.notification?.close();
      b.notification = null;
    }
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
    const button = entry.buttons[index];
    if (!button) return;
    if ('open' in button) {
      this.opts.openChat(entry.view.chatId);
      return;
    }
    const r = button.answers ? this.opts.answer(entry.view.id, button.answer, { answers: button.answers }) : this.opts.answer(entry.view.id, button.answer);
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

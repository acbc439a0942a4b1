/**
 * The tray, as data: what it knows (`TrayState`, fed by core events through pure transitions) and what
 * it shows (`trayModel(state)`: badge, title, tooltip and the menu rows). The Electron binding
 * (tray.ts) only turns the model into a `Menu` and wires clicks to `TrayAction`s. The usage rows (each
 * rate-limit window's percent and reset, a pause, "Sign in to Codex…") use the window's words
 * (src/shared/usageText.ts). The chats are listed most recently used first, the quiet ones capped
 * (`MAX_RECENT_CHATS`, then "All chats…"). No Electron here.
 */
import type { AccountView } from '../../shared/account';
import type { AppEvent, ApprovalView, ChatView, ProfileView, QuestionAnswers } from '../../shared/contract';
import type { HomeUsage } from '../../shared/usage';
import { accountLine, clockText, needsSignIn, usageSummary, windowsShown } from '../../shared/usageText';
import { askDetail, enforcementLabel, oneLine, STATE_LABEL, truncateCodePoints, type EnforcementLabel } from './text';
import { chatModeLabel } from '../../shared/modeLabel';
import { requestKind, singleChoice } from './notifyPolicy';
import { judgeable, NOT_IN_FULL, OPTION_PREFIX, wrapRows } from './shownInFull';
import { visibleText } from '../../shared/untrustedText';

/** Everything the tray shows. `approvals` holds the pending requests only, oldest first. */
export interface TrayState {
  chats: ChatView[];
  /**
   * Chat ids, most recently used first (a message sent to it, or created); chats not in it follow in
   * `chats` order. Seeded from each chat's sessions (`recentFirst`), kept by `trayStateOn`.
   */
  recent: string[];
  /** Profile name → `sandbox` of the table (a profile with `sandbox = false` runs with full access). */
  sandboxed: Record<string, boolean>;
  approvals: ApprovalView[];
  /** The last `table:changed`: whether the table on disk differs from the accepted one. */
  table: { differs: boolean; changes: number };
  startAtLogin: boolean;
  /** Each Codex home's rate limits and pause (`usage:read`, then `usage:updated`). */
  usage: HomeUsage[];
  /** Angelia's Codex account (`account:read`, then `account:updated`); null until read. */
  account: AccountView | null;
}

/** Nothing known yet. */
export const emptyTrayState: TrayState = {
  chats: [],
  recent: [],
  sandboxed: {},
  approvals: [],
  table: { differs: false, changes: 0 },
  startAtLogin: false,
  usage: [],
  account: null,
};

/** The `sandboxed` map of a profile list. */
export function sandboxedOf(profiles: Pick<ProfileView, 'name' | 'sandboxed'>[]): Record<string, boolean> {
  return Object.fromEntries(profiles.map((p) => [p.name, p.sandboxed]));
}

/**
 * The ids of the chats with a last-used time (ISO 8601, e.g. the active session's `lastUsedAt`),
 * newest first; a chat whose `lastUsed` is null is left out (it follows the ranked ones in the tray).
 */
export function recentFirst(chats: readonly Pick<ChatView, 'id'>[], lastUsed: (chatId: string) => string | null): string[] {
  const timed = chats.flatMap((c) => {
    const at = lastUsed(c.id);
    const ms = at === null ? NaN : Date.parse(at);
    return Number.isNaN(ms) ? [] : [{ id: c.id, ms }];
  });
  return timed.sort((a, b) => b.ms - a.ms).map((t) => t.id);
}

/** `recent` with `chatId` first (the same array when it already is). */
function usedNow(recent: string[], chatId: string): string[] {
  return recent[0] === chatId ? recent : [chatId, ...recent.filter((id) => id !== chatId)];
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

function upsert<T extends { id: string }>(list: T[], item: T): T[] {
  const i = list.findIndex((x) => x.id === item.id);
  if (i < 0) return [...list, item];
  if (same(list[i], item)) return list;
  return list.map((x, j) => (j === i ? item : x));
}

/**
 * The tray state after one core event (pure; the same object when nothing the tray shows changed):
 * `chat:updated` upserts the chat (a new one becomes the most recently used); a `chat:item` that is the
 * user's message (`type: 'user'`) makes its chat the most recently used; `approval:updated` adds or updates a pending request and drops a
 * settled one (answered, withdrawn, timed out); `table:changed` records whether a review waits;
 * `usage:updated` replaces a home's usage; `account:updated` the account. Other events change nothing.
 */
export function trayStateOn(state: TrayState, e: AppEvent): TrayState {
  switch (e.event) {
    case 'chat:updated': {
      const chats = upsert(state.chats, e.payload);
      if (chats === state.chats) return state;
      const isNew = !state.chats.some((c) => c.id === e.payload.id);
      return { ...state, chats, ...(isNew ? { recent: usedNow(state.recent, e.payload.id) } : {}) };
    }
    case 'chat:item': {
      if (e.payload.item.type !== 'user') return state;
      const recent = usedNow(state.recent, e.payload.chatId);
      return recent === state.recent ? state : { ...state, recent };
    }
    case 'approval:updated': {
      if (e.payload.state === 'pending') {
        const approvals = upsert(state.approvals, e.payload);
        return approvals === state.approvals ? state : { ...state, approvals };
      }
      if (!state.approvals.some((a) => a.id === e.payload.id)) return state;
      return { ...state, approvals: state.approvals.filter((a) => a.id !== e.payload.id) };
    }
    case 'table:changed': {
      const table = { differs: e.payload.differs, changes: e.payload.changes };
      return same(table, state.table) ? state : { ...state, table };
    }
    case 'usage:updated': {
      const i = state.usage.findIndex((u) => u.codexHome === e.payload.codexHome);
      if (i >= 0 && same(state.usage[i], e.payload)) return state;
      const usage = i < 0 ? [...state.usage, e.payload] : state.usage.map((u, j) => (j === i ? e.payload : u));
      return { ...state, usage };
    }
    case 'account:updated':
      return same(state.account, e.payload) ? state : { ...state, account: e.payload };
    default:
      return state;
  }
}

/** What a tray row does when clicked. `answer` only ever carries an answer the request offers. */
export type TrayAction =
  | { type: 'open-window' }
  | { type: 'open-chat'; chatId: string }
  | { type: 'answer'; approvalId: string; answer: 'allow' | 'deny'; answers?: QuestionAnswers }
  | { type: 'review-table' }
  | { type: 'sign-in' }
  | { type: 'toggle-login' }
  | { type: 'quit' };

/**
 * One row of the tray menu. `danger` rows are marked red (an icon) and start with the warning glyph
 * ⚠; `warning` rows only carry the glyph.
 */
export type TrayItem =
  | { kind: 'separator' }
  | { kind: 'header'; label: string }
  | { kind: 'action'; label: string; action: TrayAction; danger?: boolean }
  | { kind: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { kind: 'submenu'; label: string; items: TrayItem[]; danger?: boolean };

/**
 * The tray as shown: `badge` = number of pending approvals; `title` is the text beside the icon on
 * macOS (the badge, or "" when none); `attention` picks the icon with a dot.
 */
export interface TrayModel {
  badge: number;
  title: string;
  tooltip: string;
  attention: boolean;
  items: TrayItem[];
}

/** The warning glyph that starts a FULL ACCESS (or external sandbox) row. */
export const WARNING_GLYPH = '⚠';
/** The row offered while Codex needs a sign-in. */
export const SIGN_IN_LABEL = 'Sign in to Codex…';
/** The row offered when the table on disk differs from the accepted one. */
export const TABLE_CHANGED_LABEL = 'The table changed — review…';
/** Longest menu label, in code points (menus do not wrap). */
export const MAX_LABEL = 72;
/** Most options of a question the tray offers as rows (more need the window). */
export const MAX_TRAY_OPTIONS = 8;
/** Most rows of what a request asks (its lines wrapped at `MAX_LABEL`); more need the window. */
export const MAX_DETAIL_ROWS = 12;
/** Most pending requests listed (the oldest first); the rest are counted in one row that opens the window. */
export const MAX_TRAY_REQUESTS = 10;
/** Most quiet chats (idle, stopped) the tray lists, the most recently used; the others are behind "All chats…". */
export const MAX_RECENT_CHATS = 5;
/** The row that opens the window when chats are left out of the tray. */
export const ALL_CHATS_LABEL = 'All chats…';

/** A chat at work or waiting on the person: always listed, whatever the cap. */
const BUSY: ReadonlySet<ChatView['state']> = new Set(['starting', 'working', 'needs-you', 'error', 'refused']);

/**
 * The chats the tray lists (pure), most recently used first (`state.recent`; the others after, in
 * `chats` order): every busy chat (starting, working, needs you, error, refused) and the
 * `MAX_RECENT_CHATS` most recently used of the rest. `hidden` = how many are left out.
 */
export function shownChats(state: Pick<TrayState, 'chats' | 'recent'>): { chats: ChatView[]; hidden: number } {
  const rank = new Map(state.recent.map((id, i) => [id, i]));
  const ordered = state.chats
    .map((chat, i) => ({ chat, key: rank.get(chat.id) ?? state.recent.length + i }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.chat);
  let quiet = 0;
  const chats = ordered.filter((c) => BUSY.has(c.state) || ++quiet <= MAX_RECENT_CHATS);
  return { chats, hidden: ordered.length - chats.length };
}

/** A chat's sandbox label: from its `mode` (attested while running, next start when cold), else from the enforcement. */
function chatLabel(chat: ChatView, sandboxed: Record<string, boolean>): EnforcementLabel {
  return chat.mode ? chatModeLabel(chat.mode) : enforcementLabel(chat.enforcement, sandboxed[chat.profile]);
}

function chatRow(chat: ChatView, sandboxed: Record<string, boolean>): TrayItem {
  const enf = chatLabel(chat, sandboxed);
  const glyph = enf.warning ? `${WARNING_GLYPH} ` : '';
  const label = truncateCodePoints(`${glyph}${chat.id} — ${STATE_LABEL[chat.state]} · ${enf.text}`, MAX_LABEL);
  return { kind: 'action', label, action: { type: 'open-chat', chatId: chat.id }, ...(enf.danger ? { danger: true } : {}) };
}

/**
 * The answers a request's submenu offers: an approval's Allow and Deny (when offered); a question's
 * options when one click answers it (`singleChoice`: one question with options, not secret), then Skip
 * (Codex's empty answer); an elicitation's Decline only (its form is filled, its URL opened, in the window).
 * Allow and the options only when the request is shown in full (`full`, shownInFull.ts) and each option
 * fits its row unchanged.
 */
function answerRows(view: ApprovalView, full: boolean): TrayItem[] {
  const row = (label: string, answer: 'allow' | 'deny', answers?: QuestionAnswers): TrayItem => ({
    kind: 'action',
    label: truncateCodePoints(oneLine(label), MAX_LABEL),
    action: { type: 'answer', approvalId: view.id, answer, ...(answers ? { answers } : {}) },
  });
  const kind = requestKind(view);
  const rows: TrayItem[] = [];
  if (full && kind === 'approval' && view.answers.includes('allow')) rows.push(row('Allow', 'allow'));
  const choice = full && kind === 'question' ? singleChoice(view, MAX_TRAY_OPTIONS) : null;
  // Each option is prefixed ("Answer: Allow"), so no option reads as an approval's Allow.
  if (choice && choice.labels.every((label) => Array.from(OPTION_PREFIX + label).length <= MAX_LABEL && judgeable(label) && !label.includes('\n')))
    for (const label of choice.labels) rows.push(row(OPTION_PREFIX + label, 'allow', { [choice.questionId]: [label] }));
  if (view.answers.includes('deny')) rows.push(row(kind === 'question' ? 'Skip' : kind === 'elicitation' ? 'Decline' : 'Deny', 'deny'));
  return rows;
}

function approvalRow(view: ApprovalView, chats: ChatView[], sandboxed: Record<string, boolean>): TrayItem {
  const chat = chats.find((c) => c.id === view.chatId);
  const danger = chat ? chatLabel(chat, sandboxed).danger : sandboxed[view.profile] === false;
  const detail = wrapRows(askDetail(view), MAX_LABEL, MAX_DETAIL_ROWS);
  const items: TrayItem[] = detail.rows.map((label) => ({ kind: 'header' as const, label }));
  if (!detail.complete) items.push({ kind: 'header', label: `${WARNING_GLYPH} ${NOT_IN_FULL}` });
  items.push({ kind: 'separator' }, ...answerRows(view, detail.complete));
  items.push({ kind: 'separator' }, { kind: 'action', label: 'Show in window…', action: { type: 'open-chat', chatId: view.chatId } });
  const label = truncateCodePoints(`${danger ? `${WARNING_GLYPH} ` : ''}${view.profile}: ${visibleText(oneLine(view.title))}`, MAX_LABEL);
  return { kind: 'submenu', label, items, ...(danger ? { danger: true } : {}) };
}

/** When the first paused home resumes ("14:05"), or null when none is paused at `now`. */
function pausedClock(usage: readonly HomeUsage[], now: Date): string | null {
  for (const u of usage) {
    if (u.pausedUntil && Date.parse(u.pausedUntil) > now.getTime()) return clockText(u.pausedUntil, now);
  }
  return null;
}

/**
 * The usage rows (pure): a header naming the account, each rate-limit window ("5 h: 42 % used · resets
 * in 2 h 14 min"; a Codex home's path first when there are several), "Paused until 14:05 (usage
 * limit)", and "Sign in to Codex…" while Codex needs one. [] when nothing is known.
 */
export function usageRows(usage: readonly HomeUsage[], account: AccountView | null, now: Date): TrayItem[] {
  const rows: TrayItem[] = [];
  const several = usage.filter((u) => u.rateLimits).length > 1;
  for (const u of usage) {
    const windows = windowsShown(u.rateLimits, now);
    if (several && windows.length) rows.push({ kind: 'header', label: truncateCodePoints(u.codexHome, MAX_LABEL) });
    for (const w of windows) rows.push({ kind: 'header', label: truncateCodePoints(w.line, MAX_LABEL) });
  }
  const paused = pausedClock(usage, now);
  if (paused) rows.push({ kind: 'header', label: `${WARNING_GLYPH} Paused until ${paused} (usage limit)` });
  if (needsSignIn(account)) rows.push({ kind: 'action', label: SIGN_IN_LABEL, action: { type: 'sign-in' } });
  if (rows.length === 0 && !account?.signedIn) return [];
  const who = account ? accountLine(account) : null;
  return [{ kind: 'header', label: truncateCodePoints(who ? `Usage — ${who}` : 'Usage', MAX_LABEL) }, ...rows];
}

function tooltipOf(state: TrayState, now: Date): string {
  const parts: string[] = [];
  const n = state.approvals.length;
  if (n > 0) parts.push(`${n} approval${n === 1 ? '' : 's'} waiting`);
  const working = state.chats.filter((c) => c.state === 'working' || c.state === 'starting').length;
  if (working > 0) parts.push(`${working} working`);
  const trouble = state.chats.filter((c) => c.state === 'error' || c.state === 'refused').length;
  if (trouble > 0) parts.push(`${trouble} in trouble`);
  if (state.table.differs) parts.push('the table changed');
  if (needsSignIn(state.account)) parts.push('Codex is not signed in');
  const paused = pausedClock(state.usage, now);
  if (paused) parts.push(`paused until ${paused}`);
  const summary = usageSummary(state.usage, now);
  if (summary) parts.push(summary);
  return parts.length ? `Angelia — ${parts.join(', ')}` : 'Angelia';
}

/**
 * The tray for a state (pure): pending approvals first (each a submenu with what is asked, its lines
 * wrapped into at most `MAX_DETAIL_ROWS` rows, then Allow and Deny when offered — Deny is Codex
 * `decline`; a question's options and Skip; an elicitation's Decline; Allow and options only when the
 * request is shown in full, shownInFull.ts — and "Show in window…"; at most `MAX_TRAY_REQUESTS`, then
 * "… and K more — open the window"), then the chats `shownChats`
 * picks (most recently used first), one row each with its state and enforcement (FULL ACCESS marked
 * red with ⚠), and "All chats…" (opens the window) when some are left out, then the usage rows (`usageRows`), then
 * "The table changed — review…" when a review waits, "Open Angelia", "Start at login" (checkbox) and
 * "Quit". The tooltip sums it up, rate limits included ("5 h 42 % · week 12 %"). `now` dates "resets in …".
 */
export function trayModel(state: TrayState, now: Date = new Date()): TrayModel {
  const badge = state.approvals.length;
  const items: TrayItem[] = [];
  if (badge > 0) {
    items.push({ kind: 'header', label: `Waiting for you (${badge})` });
    for (const a of state.approvals.slice(0, MAX_TRAY_REQUESTS)) items.push(approvalRow(a, state.chats, state.sandboxed));
    const more = badge - MAX_TRAY_REQUESTS;
    if (more > 0) items.push({ kind: 'action', label: `… and ${more} more — open the window`, action: { type: 'open-window' } });
    items.push({ kind: 'separator' });
  }
  items.push({ kind: 'header', label: state.chats.length ? 'Chats' : 'No chats yet' });
  const shown = shownChats(state);
  for (const c of shown.chats) items.push(chatRow(c, state.sandboxed));
  if (shown.hidden > 0) items.push({ kind: 'action', label: ALL_CHATS_LABEL, action: { type: 'open-window' } });
  items.push({ kind: 'separator' });
  const usage = usageRows(state.usage, state.account, now);
  if (usage.length) items.push(...usage, { kind: 'separator' });
  if (state.table.differs) items.push({ kind: 'action', label: TABLE_CHANGED_LABEL, action: { type: 'review-table' } });
  items.push(
    { kind: 'action', label: 'Open Angelia', action: { type: 'open-window' } },
    { kind: 'checkbox', label: 'Start at login', checked: state.startAtLogin, action: { type: 'toggle-login' } },
    { kind: 'separator' },
    { kind: 'action', label: 'Quit', action: { type: 'quit' } },
  );
  return { badge, title: badge > 0 ? String(badge) : '', tooltip: tooltipOf(state, now), attention: badge > 0, items };
}

/**
 * Which native notifications are shown (README "The desktop app", docs/architecture.md "Notifications"):
 * each kind obeys the `notifications` field of the chat's profile (src/shared/profileFields.ts): `all`
 * shows everything, `requests` only approvals, agent questions and MCP elicitations, `none` nothing (the
 * tray still counts what waits). What concerns the whole account (the usage warning and limit) follows
 * the loosest setting among the profiles. And which question can be answered from a button or a tray
 * row: one question with options, not secret. Pure; no Electron.
 */
import type { ApprovalView, ProfileView } from '../../shared/contract';
import type { NotificationSetting } from '../../shared/profileFields';
import type { HomeUsage } from '../../shared/usage';

/** The kinds of native notification. */
export type NotifyKind = 'approval' | 'question' | 'elicitation' | 'turnDone' | 'turnFailed' | 'usageLimit' | 'usageWarning';

/** The kinds `requests` lets through: a person must answer them. */
export const REQUEST_KINDS: ReadonlySet<NotifyKind> = new Set<NotifyKind>(['approval', 'question', 'elicitation']);

/** Most options a macOS notification offers as buttons (more need the window). */
export const MAX_OPTION_BUTTONS = 3;

/** True when `setting` (absent: `all`, a host older than the field) lets a notification of `kind` through. */
export function allows(setting: NotificationSetting | undefined, kind: NotifyKind): boolean {
  const s = setting ?? 'all';
  return s === 'all' || (s === 'requests' && REQUEST_KINDS.has(kind));
}

/** The notification kind of a request: `userInput` is a question, `elicitation` an MCP form, anything else an approval. */
export function requestKind(view: Pick<ApprovalView, 'kind'>): 'approval' | 'question' | 'elicitation' {
  return view.kind === 'userInput' ? 'question' : view.kind === 'elicitation' ? 'elicitation' : 'approval';
}

/** The setting of profile `name` (`all` for a profile not in the list, e.g. one removed while its chat runs). */
export function settingOf(profiles: readonly Pick<ProfileView, 'name' | 'notifications'>[], name: string): NotificationSetting {
  return profiles.find((p) => p.name === name)?.notifications ?? 'all';
}

const LOOSEST: readonly NotificationSetting[] = ['all', 'requests', 'none'];

/** The setting of what concerns the account (usage): the loosest of every profile's; `all` when there is none. */
export function accountSetting(profiles: readonly Pick<ProfileView, 'name' | 'notifications'>[]): NotificationSetting {
  if (profiles.length === 0) return 'all';
  const given = new Set(profiles.map((p) => p.notifications ?? 'all'));
  return LOOSEST.find((s) => given.has(s)) ?? 'all';
}

/** A question one click can answer: the question's id and its option labels, in order. */
export interface SingleChoice {
  questionId: string;
  labels: string[];
}

/**
 * The options of a pending question that one click may answer (pure), or null: the request is a
 * `userInput` offering `allow` (submit) with exactly one question, which has 1 to `max` options and is
 * not secret (a secret answer is typed in the window only). The answer sent is `{ [questionId]: [label] }`.
 */
export function singleChoice(view: Pick<ApprovalView, 'kind' | 'questions' | 'answers'>, max: number): SingleChoice | null {
  if (view.kind !== 'userInput' || !view.answers.includes('allow')) return null;
  const qs = view.questions ?? [];
  const q = qs[0];
  if (qs.length !== 1 || !q || q.isSecret || !q.options || q.options.length === 0 || q.options.length > max) return null;
  return { questionId: q.id, labels: q.options.map((o) => o.label) };
}

/**
 * What makes a Codex home's usage limit one event (pure): its pause (`pausedUntil`), else the reset of a
 * window at 100 %; null while the limit is not reached. The same key again is the same limit, not a new one.
 */
export function usageLimitKey(u: HomeUsage): string | null {
  if (u.pausedUntil) return `${u.codexHome}\npaused ${u.pausedUntil}`;
  const full = [u.rateLimits?.primary, u.rateLimits?.secondary].find((w) => w && w.usedPercent >= 100);
  return full ? `${u.codexHome}\nfull ${full.resetsAt ?? ''}` : null;
}

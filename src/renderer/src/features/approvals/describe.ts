/**
 * What an approval card says, as pure functions: button labels from the offered answers (with the
 * scope of each Allow), the settled line ("Allowed once — answered in the window", "Timed out after 10
 * min: denied", "Withdrawn: the turn ended"), how a command waiting for its approval shows
 * (`shownItemStatus`), the requested folders as a diff against the profile ("+ write /path (not in the
 * profile)"), the grant made of the entries left checked, and what was granted.
 */
import type {
  AnswerOutcome,
  AnswerSource,
  ApprovalAnswer,
  ApprovalKind,
  ApprovalView,
  ChatItem,
  ProfileView,
  RequestedAccess,
} from '../../../../shared/contract';
import { withdrawnText } from '../../../../shared/withdrawnText';

/** A command's or file change's status as the item carries it. */
type ItemStatus = Extract<ChatItem, { type: 'command' }>['status'];

/** How a command or file-change item shows: its own status, or `waiting` while an approval for it is pending. */
export type ShownItemStatus = ItemStatus | 'waiting';

/**
 * The approval that decides how item `itemId` shows, among `approvals` (oldest first): a pending one
 * naming it (`ApprovalView.itemId`), else the last settled one naming it; undefined when none does.
 */
export function approvalForItem(approvals: Iterable<ApprovalView>, itemId: string): ApprovalView | undefined {
  let found: ApprovalView | undefined;
  for (const a of approvals) {
    if (a.itemId !== itemId) continue;
    if (a.state === 'pending') return a;
    found = a;
  }
  return found;
}

/**
 * How a command or file-change item's status shows, given the approval that names it (`approvalForItem`).
 * Codex sends the item's `item/started` (status inProgress) BEFORE it asks (codex 0.169.0,
 * `item/commandExecution/requestApproval`), so a `running` item whose approval is pending is `waiting`
 * (for approval), not running; once denied (Deny, "Deny and stop", or a timeout's deny) it is `declined`
 * until Codex's `item/completed` says so itself; once allowed it is as the item says (running). A
 * withdrawn approval, or an item that is no longer running, changes nothing.
 */
export function shownItemStatus(status: ItemStatus, approval: Pick<ApprovalView, 'state' | 'answer'> | undefined): ShownItemStatus {
  if (status !== 'running' || !approval) return status;
  if (approval.state === 'pending') return 'waiting';
  if ((approval.state === 'answered' || approval.state === 'timedOut') && (approval.answer === 'deny' || approval.answer === 'cancel')) return 'declined';
  return status;
}

/**
 * Button label of each answer, by the kind of request, so the scope of an Allow is plain: a command or
 * a file change is allowed "once" (Codex `accept`) or "for this session" (`acceptForSession`); a
 * permissions request grants its folders "for this turn" (reply `scope: "turn"`) or "for this session"
 * (`scope: "session"`), as codex 0.169.0 offers them (core/codex/serverRequests.ts). Deny = Codex
 * `decline` (the turn goes on); cancel stops the turn. Which answers show comes from the view's
 * `answers` (Codex's `availableDecisions` when it sent them).
 */
export function answerLabel(kind: ApprovalKind, answer: ApprovalAnswer): string {
  const asked = askedLabels(kind);
  if (asked) return asked[answer][0];
  switch (answer) {
    case 'allow':
      return kind === 'permissions' ? 'Allow for this turn' : 'Allow once';
    case 'allowForSession':
      return 'Allow for this session';
    case 'deny':
      return 'Deny';
    case 'cancel':
      return 'Deny and stop';
  }
}

/**
 * The button and past-tense words of a question or an elicitation (src/shared/questions.ts): a
 * question's Allow submits the answers, its Deny skips; an elicitation's Allow accepts, Deny declines,
 * cancel cancels. Null for the other kinds.
 */
function askedLabels(kind: ApprovalKind): Record<ApprovalAnswer, [string, string]> | null {
  if (kind === 'userInput')
    return {
      allow: ['Submit', 'Answered'],
      allowForSession: ['Submit', 'Answered'],
      deny: ['Skip', 'Skipped'],
      cancel: ['Skip and stop', 'Skipped and stopped'],
    };
  if (kind === 'elicitation')
    return { allow: ['Accept', 'Accepted'], allowForSession: ['Accept', 'Accepted'], deny: ['Decline', 'Declined'], cancel: ['Cancel', 'Cancelled'] };
  return null;
}

/** The answer in force, in the past tense, with the same scope words as its button. Null kind: without the scope. */
export function answeredLabel(kind: ApprovalKind | null, answer: ApprovalAnswer): string {
  const asked = kind && askedLabels(kind);
  if (asked) return asked[answer][1];
  switch (answer) {
    case 'allow':
      return kind === null ? 'Allowed' : kind === 'permissions' ? 'Allowed for this turn' : 'Allowed once';
    case 'allowForSession':
      return 'Allowed for this session';
    case 'deny':
      return 'Denied';
    case 'cancel':
      return 'Denied and stopped';
  }
}

/**
 * Where an answer came from, from the `by` the core recorded (never from whether this page clicked it:
 * a reload starts a new page, and its earlier answers are still the window's): "in the window", "from a
 * notification", "from the tray", "from the command line", "through the local API"; "timed out" and "by
 * Codex" for the two ways a request settles unanswered.
 */
export function sourceLabel(by: AnswerSource): string {
  switch (by) {
    case 'window':
      return 'in the window';
    case 'notification':
      return 'from a notification';
    case 'tray':
      return 'from the tray';
    case 'cli':
      return 'from the command line';
    case 'api':
      return 'through the local API';
    case 'timeout':
      return 'timed out';
    case 'codex':
      return 'by Codex';
  }
}

/**
 * One line saying what was answered and where ("Denied — answered from a notification", "Allowed once —
 * answered in the window"); `kind` gives the Allow its scope words (null: without them).
 */
export function answeredLine(answer: ApprovalAnswer | null, by: AnswerSource | null, kind: ApprovalKind | null = null): string {
  const what = answer ? answeredLabel(kind, answer) : 'Answered';
  if (!by) return what;
  return by === 'timeout' || by === 'codex' ? `${what} — ${sourceLabel(by)}` : `${what} — answered ${sourceLabel(by)}`;
}

/** True when the answer in force on `view` is this page's own (its `approvals:answer` said `answered`). */
export function answeredHere(view: Pick<ApprovalView, 'state' | 'by'>, outcome: AnswerOutcome | undefined): boolean {
  return view.state === 'answered' && view.by === 'window' && outcome?.outcome === 'answered';
}

/** A duration in words for a settled card: "45 s", "1 min", "10 min" (minutes rounded). */
export function waitedFor(ms: number): string {
  if (ms < 60_000) return `${Math.max(0, Math.round(ms / 1000))} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/**
 * The line shown once a request is no longer pending, saying how it ended:
 * - answered: `answeredLine` ("Allowed once — answered in the window");
 * - timed out: "Timed out after 10 min: denied" (from `createdAt` to `settledAt`; "Timed out: denied"
 *   when the host did not say when);
 * - withdrawn: "Withdrawn: the turn ended" (the core's `withdrawnWhy`, else "Codex settled it, or the turn ended").
 */
export function settledLine(view: ApprovalView): string {
  switch (view.state) {
    case 'answered':
      return answeredLine(view.answer, view.by, view.kind);
    case 'withdrawn':
      return `Withdrawn: ${view.withdrawnWhy ?? 'Codex settled it, or the turn ended'}`;
    case 'timedOut': {
      if (view.kind === 'userInput') return 'Nobody answered in time — the agent got an empty answer';
      if (view.kind === 'elicitation') return `Nobody answered in time — ${answeredLabel('elicitation', view.answer ?? 'deny').toLowerCase()}`;
      const outcome = answeredLabel(null, view.answer ?? 'deny').toLowerCase();
      const waited = view.settledAt ? Date.parse(view.settledAt) - Date.parse(view.createdAt) : NaN;
      return Number.isFinite(waited) ? `Timed out after ${waitedFor(waited)}: ${outcome}` : `Timed out: ${outcome}`;
    }
    default:
      return '';
  }
}

/**
 * Said when this page's click came after the request was settled (its `approvals:answer` answered
 * `already-answered`): "Already answered (Allowed once, from a notification)"; a `window` answer that
 * beat this click was given in another window: "(…, from another window)"; for a timeout or Codex,
 * "Already settled (timed out, denied)" / "Already settled (withdrawn by Codex)".
 */
export function alreadyAnsweredLine(answer: ApprovalAnswer | null, by: AnswerSource | null, kind: ApprovalKind | null = null): string {
  if (by === 'timeout') return `Already settled (timed out, ${answer ? answeredLabel(null, answer).toLowerCase() : 'denied'})`;
  if (by === 'codex') return 'Already settled (withdrawn by Codex)';
  const what = answer ? answeredLabel(kind, answer) : 'Answered';
  if (!by) return `Already answered (${what})`;
  return `Already answered (${what}, ${by === 'window' ? 'from another window' : sourceLabel(by)})`;
}

/**
 * The note shown after this page's click, or null when there is nothing to add. An
 * `already-answered` outcome means another answer won.
 */
export function outcomeNote(outcome: AnswerOutcome | undefined, kind: ApprovalKind | null = null): string | null {
  if (!outcome) return null;
  if (outcome.outcome === 'already-answered' && outcome.by === 'codex') return withdrawnText(outcome.withdrawn);
  if (outcome.outcome === 'already-answered') return alreadyAnsweredLine(outcome.answer, outcome.by, kind);
  if (outcome.outcome === 'unknown') return 'This request is no longer open';
  return null;
}

/**
 * One line of the requested-access diff: `+` adds to the profile, `=` the profile already allows it.
 * `key` names the entry ("write:/path", "read:/path", "network") for the grant checkboxes.
 */
export interface AccessLine {
  sign: '+' | '=';
  text: string;
  key: string;
}

function within(path: string, dir: string): boolean {
  const d = dir.endsWith('/') ? dir : `${dir}/`;
  return path === dir || path.startsWith(d);
}

/** The requested folders against what the profile already gives (its folder and `add_dirs` are writable). */
export function accessDiff(requested: RequestedAccess, profile: ProfileView | undefined): AccessLine[] {
  const writable = profile && profile.permissionMode !== 'plan' ? [profile.cwd, ...profile.addDirs] : [];
  const readable = profile ? [profile.cwd, ...profile.addDirs] : [];
  const lines: AccessLine[] = [];
  for (const path of requested.write) {
    const key = `write:${path}`;
    lines.push(
      writable.some((d) => within(path, d))
        ? { sign: '=', text: `write ${path} (the profile already allows it)`, key }
        : { sign: '+', text: `write ${path} (not in the profile)`, key },
    );
  }
  for (const path of requested.read) {
    const key = `read:${path}`;
    lines.push(
      readable.some((d) => within(path, d))
        ? { sign: '=', text: `read ${path} (the profile already allows it)`, key }
        : { sign: '+', text: `read ${path} (not in the profile)`, key },
    );
  }
  if (requested.network) lines.push({ sign: '+', text: 'network', key: 'network' });
  return lines;
}

/**
 * The paths a request named that Angelia never grants, one line each: "✗ read /x — never granted:
 * Angelia's private state", or for a place the agent can already write (`already`) "= write /w/a —
 * already writable, not granted again: it lies in /w (…)". [] when nothing was refused (`view.refused`
 * absent or empty).
 */
export function refusedLines(view: Pick<ApprovalView, 'refused'>): string[] {
  return (view.refused ?? []).map((r) => (r.already ? `= ${r.access} ${r.path} — ${r.why}` : `✗ ${r.access} ${r.path} — never granted: ${r.why}`));
}

/** How many things a permissions request asks for (folders, and network); more than one can be granted in part. */
export function accessCount(requested: RequestedAccess): number {
  return requested.read.length + requested.write.length + (requested.network ? 1 : 0);
}

/**
 * The grant to send with an Allow, given the entry keys the user unchecked: null when nothing was
 * unchecked (no grant is sent, so everything asked is granted), else the subset still checked.
 */
export function grantOf(requested: RequestedAccess, unchecked: ReadonlySet<string>): RequestedAccess | null {
  if (unchecked.size === 0) return null;
  return {
    read: requested.read.filter((p) => !unchecked.has(`read:${p}`)),
    write: requested.write.filter((p) => !unchecked.has(`write:${p}`)),
    network: requested.network && !unchecked.has('network'),
  };
}

/** The entries of an access, one per folder and network: ["write /a", "read /b", "network"]. */
export function accessEntries(access: RequestedAccess): string[] {
  return [...access.write.map((p) => `write ${p}`), ...access.read.map((p) => `read ${p}`), ...(access.network ? ['network'] : [])];
}

/**
 * What an Allow of a permissions request granted, and what it left out of the request: "Granted: write
 * /a, network" and "Not granted: write /b" (null when everything asked was granted).
 */
export function grantedLines(requested: RequestedAccess | null, granted: RequestedAccess): { granted: string; notGranted: string | null } {
  const given = accessEntries(granted);
  const left = requested ? accessEntries(requested).filter((e) => !given.includes(e)) : [];
  return { granted: `Granted: ${given.length ? given.join(', ') : 'nothing'}`, notGranted: left.length ? `Not granted: ${left.join(', ')}` : null };
}

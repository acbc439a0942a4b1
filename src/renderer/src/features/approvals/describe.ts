/**
 * What an approval card says, as pure functions: button labels from the offered answers (with the
 * scope of each Allow), the settled line ("Allowed once — from this window", "… — from a
 * notification"), the requested folders as a diff against the profile ("+ write /path (not in the
 * profile)"), the grant made of the entries left checked, and what was granted.
 */
import type { AnswerOutcome, AnswerSource, ApprovalAnswer, ApprovalKind, ApprovalView, ProfileView, RequestedAccess } from '../../../../shared/contract';

/**
 * Button label of each answer, by the kind of request, so the scope of an Allow is plain: a command or
 * a file change is allowed "once" (Codex `accept`) or "for this session" (`acceptForSession`); a
 * permissions request grants its folders "for this turn" (reply `scope: "turn"`) or "for this session"
 * (`scope: "session"`), as codex 0.169.0 offers them (core/codex/serverRequests.ts). Deny = Codex
 * `decline` (the turn goes on); cancel stops the turn. Which answers show comes from the view's
 * `answers` (Codex's `availableDecisions` when it sent them).
 */
export function answerLabel(kind: ApprovalKind, answer: ApprovalAnswer): string {
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

/** The answer in force, in the past tense, with the same scope words as its button. Null kind: without the scope. */
export function answeredLabel(kind: ApprovalKind | null, answer: ApprovalAnswer): string {
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
 * Where an answer came from, as the window says it. The core records every window's answer as
 * `window`; only this window knows which answers were its own (`mine`: its `approvals:answer` was the
 * one in force), so `window` reads "from this window" or "from another window" (a reload starts a new
 * window: its earlier answers read "from another window").
 */
export function sourceLabel(by: AnswerSource, mine: boolean): string {
  switch (by) {
    case 'window':
      return mine ? 'from this window' : 'from another window';
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

/** Who answered and how a card knows it: `mine` when this window's own answer is the one in force. */
export interface AnsweredBy {
  kind: ApprovalKind | null;
  mine: boolean;
}

const NOBODY: AnsweredBy = { kind: null, mine: false };

/** One line saying what was answered and by whom ("Denied — from a notification", "Allowed once — from this window"). */
export function answeredLine(answer: ApprovalAnswer | null, by: AnswerSource | null, who: AnsweredBy = NOBODY): string {
  const what = answer ? answeredLabel(who.kind, answer) : 'Answered';
  return by ? `${what} — ${sourceLabel(by, who.mine)}` : what;
}

/** True when the answer in force on `view` is this window's own (its `approvals:answer` said `answered`). */
export function answeredHere(view: Pick<ApprovalView, 'state' | 'by'>, outcome: AnswerOutcome | undefined): boolean {
  return view.state === 'answered' && view.by === 'window' && outcome?.outcome === 'answered';
}

/** The line shown once a request is no longer pending; `mine` as `answeredHere`. */
export function settledLine(view: ApprovalView, mine = false): string {
  switch (view.state) {
    case 'answered':
      return answeredLine(view.answer, view.by, { kind: view.kind, mine });
    case 'withdrawn':
      return 'Withdrawn — Codex settled it, or the turn ended';
    case 'timedOut':
      return 'Timed out — no answer in time, denied';
    default:
      return '';
  }
}

/**
 * Said when a click came after the request was settled: "Already answered (Allowed once, from a
 * notification)", "(…, from another window)", or, for a timeout or Codex, "Already settled (timed out,
 * denied)" / "Already settled (withdrawn by Codex)". `who.mine` only for a click on a card this window
 * itself answered.
 */
export function alreadyAnsweredLine(answer: ApprovalAnswer | null, by: AnswerSource | null, who: AnsweredBy = NOBODY): string {
  if (by === 'timeout') return `Already settled (timed out, ${answer ? answeredLabel(null, answer).toLowerCase() : 'denied'})`;
  if (by === 'codex') return 'Already settled (withdrawn by Codex)';
  const what = answer ? answeredLabel(who.kind, answer) : 'Answered';
  return `Already answered (${by ? `${what}, ${sourceLabel(by, who.mine)}` : what})`;
}

/**
 * The note shown after this window's click, or null when there is nothing to add. An
 * `already-answered` outcome means another answer won, so a `window` source is another window.
 */
export function outcomeNote(outcome: AnswerOutcome | undefined, kind: ApprovalKind | null = null): string | null {
  if (!outcome) return null;
  if (outcome.outcome === 'already-answered') return alreadyAnsweredLine(outcome.answer, outcome.by, { kind, mine: false });
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
    lines.push(writable.some((d) => within(path, d)) ? { sign: '=', text: `write ${path} (the profile already allows it)`, key } : { sign: '+', text: `write ${path} (not in the profile)`, key });
  }
  for (const path of requested.read) {
    const key = `read:${path}`;
    lines.push(readable.some((d) => within(path, d)) ? { sign: '=', text: `read ${path} (the profile already allows it)`, key } : { sign: '+', text: `read ${path} (not in the profile)`, key });
  }
  if (requested.network) lines.push({ sign: '+', text: 'network', key: 'network' });
  return lines;
}

/**
 * The paths a request named that Angelia never grants, one line each: "✗ read /x — never granted:
 * Angelia's private state". [] when nothing was refused (`view.refused` absent or empty).
 */
export function refusedLines(view: Pick<ApprovalView, 'refused'>): string[] {
  return (view.refused ?? []).map((r) => `✗ ${r.access} ${r.path} — never granted: ${r.why}`);
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

/**
 * What an approval card says, as pure functions: button labels from the offered answers, the settled
 * line ("Allowed — from this window"), the requested folders as a diff against the profile
 * ("+ write /path, this turn only"), the grant made of the entries left checked, and what was granted.
 */
import type { AnswerOutcome, AnswerSource, ApprovalAnswer, ApprovalView, ProfileView, RequestedAccess } from '../../../../shared/contract';

/** Button label of each answer. Deny = Codex `decline` (the turn goes on); cancel stops the turn. */
export const ANSWER_LABEL: Record<ApprovalAnswer, string> = {
  allow: 'Allow',
  allowForSession: 'Allow for this session',
  deny: 'Deny',
  cancel: 'Deny and stop',
};

/** The answer in force, in the past tense. */
export const ANSWERED_LABEL: Record<ApprovalAnswer, string> = {
  allow: 'Allowed',
  allowForSession: 'Allowed for this session',
  deny: 'Denied',
  cancel: 'Denied and stopped',
};

/** Where an answer came from. */
export const SOURCE_LABEL: Record<AnswerSource, string> = {
  window: 'from this window',
  notification: 'from a notification',
  tray: 'from the tray menu',
  cli: 'from the command line',
  api: 'through the local API',
  timeout: 'after the timeout',
  codex: 'by Codex',
};

/** One line saying what was answered and by whom ("Denied — from a notification"). */
export function answeredLine(answer: ApprovalAnswer | null, by: AnswerSource | null): string {
  const what = answer ? ANSWERED_LABEL[answer] : 'Answered';
  return by ? `${what} — ${SOURCE_LABEL[by]}` : what;
}

/** The line shown once a request is no longer pending. */
export function settledLine(view: ApprovalView): string {
  switch (view.state) {
    case 'answered':
      return answeredLine(view.answer, view.by);
    case 'withdrawn':
      return 'Withdrawn — Codex settled it, or the turn ended';
    case 'timedOut':
      return 'No answer in time — denied';
    default:
      return '';
  }
}

/** Said when a click came after another answer: "Already answered (Allowed, from a notification)". */
export function alreadyAnsweredLine(answer: ApprovalAnswer | null, by: AnswerSource | null): string {
  const what = answer ? ANSWERED_LABEL[answer] : 'Answered';
  return `Already answered (${by ? `${what}, ${SOURCE_LABEL[by]}` : what})`;
}

/** The note shown after this window's click, or null when there is nothing to add. */
export function outcomeNote(outcome: AnswerOutcome | undefined): string | null {
  if (!outcome) return null;
  if (outcome.outcome === 'already-answered') return alreadyAnsweredLine(outcome.answer, outcome.by);
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
    lines.push(writable.some((d) => within(path, d)) ? { sign: '=', text: `write ${path} (the profile already allows it)`, key } : { sign: '+', text: `write ${path}, this turn only`, key });
  }
  for (const path of requested.read) {
    const key = `read:${path}`;
    lines.push(readable.some((d) => within(path, d)) ? { sign: '=', text: `read ${path} (the profile already allows it)`, key } : { sign: '+', text: `read ${path}, this turn only`, key });
  }
  if (requested.network) lines.push({ sign: '+', text: 'network, this turn only', key: 'network' });
  return lines;
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

/**
 * What an approval card says, as pure functions: button labels from the offered answers, the settled
 * line ("Allowed — from this window"), and the requested folders as a diff against the profile
 * ("+ write /path, this turn only").
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

/** The note shown after this window's click, or null when there is nothing to add. */
export function outcomeNote(outcome: AnswerOutcome | undefined): string | null {
  if (!outcome) return null;
  if (outcome.outcome === 'already-answered') return `Already answered: ${answeredLine(outcome.answer, outcome.by)}`;
  if (outcome.outcome === 'unknown') return 'This request is no longer open';
  return null;
}

/** One line of the requested-access diff: `+` adds to the profile, `=` the profile already allows it. */
export interface AccessLine {
  sign: '+' | '=';
  text: string;
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
    lines.push(writable.some((d) => within(path, d)) ? { sign: '=', text: `write ${path} (the profile already allows it)` } : { sign: '+', text: `write ${path}, this turn only` });
  }
  for (const path of requested.read) {
    lines.push(readable.some((d) => within(path, d)) ? { sign: '=', text: `read ${path} (the profile already allows it)` } : { sign: '+', text: `read ${path}, this turn only` });
  }
  if (requested.network) lines.push({ sign: '+', text: 'network, this turn only' });
  return lines;
}

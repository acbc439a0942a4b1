/**
 * Words the tray and the notifications share: state and enforcement labels, what an approval, a question
 * or an MCP elicitation asks in one line and in full, who answered it, the usage warning and limit, a
 * finished or failed turn, and truncation by code point (never splitting a surrogate pair). Pure; no Electron.
 */
import { AGENT_STATE_LABEL } from '../../shared/modeLabel';
import { outsideSandboxLines } from '../../shared/approvalText';
import { withdrawnText } from '../../shared/withdrawnText';
import type { AnswerOutcome, AnswerSource, ApprovalAnswer, ApprovalView, ElicitationView, Enforcement, PayloadOf } from '../../shared/contract';
import type { HomeUsage } from '../../shared/usage';
import { clockText, percentText, resetsText, windowName } from '../../shared/usageText';
import { visibleText } from '../../shared/untrustedText';

/** The part of a notification's options whose text is cleaned (`shownText`). */
export interface NotificationText {
  title: string;
  body: string;
}

/**
 * A notification's title and body as shown (pure; docs/security-model.md "What an agent's text can do on
 * screen"): the title on one line, every control or invisible character in either escaped
 * (src/shared/untrustedText.ts `visibleText`: a bidi override shows as `\u{202E}`); on Linux the body's
 * `&`, `<` and `>` written as entities, because Electron hands the body to libnotify as it is and
 * notification servers with body markup (GNOME, KDE, dunst, mako) read tags and links in it.
 */
export function shownText<T extends NotificationText>(o: T, platform: NodeJS.Platform): T {
  const body = visibleText(o.body, { lines: true });
  return {
    ...o,
    title: visibleText(oneLine(o.title)),
    body: platform === 'linux' ? body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : body,
  };
}

/** The ellipsis appended to truncated text. */
export const ELLIPSIS = '…';

/**
 * `text` cut to at most `max` code points (an astral character such as 🙂 counts as one and is never
 * split), with `…` as the last code point when something was cut. `max` < 1 gives "".
 */
export function truncateCodePoints(text: string, max: number): string {
  if (max < 1) return '';
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, max - 1).join('') + ELLIPSIS;
}

/** Collapses every run of whitespace (newlines included) to one space, for one-line labels. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** How an agent state reads in the tray (src/shared/modeLabel.ts `AGENT_STATE_LABEL`). */
export const STATE_LABEL = AGENT_STATE_LABEL;

/** The enforcement as the tray shows it, and whether it is dangerous (drawn red, with a warning glyph). */
export interface EnforcementLabel {
  text: string;
  danger: boolean;
  warning: boolean;
}

/**
 * The enforcement in force for a chat, like the window's badge: `managed` → "managed sandbox";
 * `disabled` → "FULL ACCESS" (danger); `external` → "external sandbox" (warning: Angelia cannot vouch
 * for it). Before the first start it is unknown ("not started") unless the profile has `sandbox =
 * false` (`sandboxed === false`), which means full access from the first message.
 */
export function enforcementLabel(enforcement: Enforcement | null, sandboxed: boolean | undefined): EnforcementLabel {
  const effective = enforcement ?? (sandboxed === false ? 'disabled' : null);
  if (effective === 'managed') return { text: 'managed sandbox', danger: false, warning: false };
  if (effective === 'disabled') return { text: 'FULL ACCESS', danger: true, warning: true };
  if (effective === 'external') return { text: 'external sandbox', danger: false, warning: true };
  return { text: 'not started', danger: false, warning: false };
}

/**
 * What a request asks, as a short phrase after the profile name ("wants to run a command"; "wants to run
 * a command OUTSIDE the sandbox" for an escalation, `outsideSandbox`).
 */
export function askPhrase(view: Pick<ApprovalView, 'kind' | 'requested' | 'command' | 'outsideSandbox'>): string {
  switch (view.kind) {
    case 'command':
      return view.requested ? 'wants more access for a command' : view.outsideSandbox ? 'wants to run a command OUTSIDE the sandbox' : 'wants to run a command';
    case 'fileChange':
      return 'wants to change files';
    case 'permissions':
      return 'asks for more access';
    case 'userInput':
      return 'asks you a question';
    case 'elicitation':
      return 'asks for input';
    default:
      return 'asks for something';
  }
}

function accessLines(requested: NonNullable<ApprovalView['requested']>): string[] {
  return [...requested.write.map((p) => `+ write ${p}`), ...requested.read.map((p) => `+ read ${p}`), ...(requested.network ? ['+ network'] : [])];
}

/**
 * Everything needed to judge a request, as plain lines: for a command run outside the sandbox first
 * what that means (shared/approvalText.ts, the first line marked ⚠, so a truncated body keeps it), then
 * the command (with its folder and reason), the folders asked for (and those never granted, marked ✗),
 * or the files a change touches (path and kind). Not truncated.
 */
export function askDetail(view: ApprovalView): string {
  const lines: string[] = [];
  if (view.outsideSandbox) {
    const [headline, ...rest] = outsideSandboxLines(view.outsideSandbox);
    lines.push(`⚠ ${headline}`, ...rest);
  }
  if (view.command) lines.push(`$ ${view.command}`);
  if (view.cwd) lines.push(`in ${view.cwd}`);
  if (view.requested) lines.push(...accessLines(view.requested));
  for (const r of view.refused ?? []) lines.push(r.already ? `= ${r.access} ${r.path} (${r.why})` : `✗ ${r.access} ${r.path} (never granted: ${r.why})`);
  for (const c of view.changes) lines.push(`${c.kind} ${c.path}`);
  for (const q of view.questions ?? []) lines.push(q.header && q.header !== q.question ? `${q.header}: ${q.question}` : q.question);
  if (view.elicitation) lines.push(...elicitationLines(view.elicitation));
  if (view.reason) lines.push(`Why: ${view.reason}`);
  if (lines.length === 0) lines.push(view.title);
  return lines.join('\n');
}

/** How an answer reads after the fact: Allowed, Allowed for the session, Denied, Denied and stopped. */
export const ANSWER_PAST: Record<ApprovalAnswer, string> = {
  allow: 'Allowed',
  allowForSession: 'Allowed for the session',
  deny: 'Denied',
  cancel: 'Denied and stopped',
};

/** Where an answer came from, as a phrase ("from the window"). */
export const SOURCE_PHRASE: Record<AnswerSource, string> = {
  window: 'from the window',
  notification: 'from a notification',
  tray: 'from the tray menu',
  cli: 'from the command line',
  api: 'through the API',
  timeout: 'nobody answered in time',
  codex: 'Codex settled it',
};

/**
 * What happened to a settled request, in a few words: "Allowed, from the window", "Denied, nobody
 * answered in time", "Withdrawn, Codex settled it". A request still pending reads "Still waiting".
 */
export function settledSummary(view: Pick<ApprovalView, 'state' | 'answer' | 'by'>): string {
  if (view.state === 'pending') return 'Still waiting';
  const what = view.state === 'withdrawn' || !view.answer ? 'Withdrawn' : ANSWER_PAST[view.answer];
  return view.by ? `${what}, ${SOURCE_PHRASE[view.by]}` : what;
}

/** "Already answered (Allowed, from the window)": what a late click on a settled request is told. */
export function alreadyAnsweredText(view: Pick<ApprovalView, 'state' | 'answer' | 'by'>): string {
  return `Already answered (${settledSummary(view)})`;
}

/**
 * What to tell the person after an answer from the tray or a notification, or null when it simply
 * went through: "Already answered (Allowed, from the window)" when another surface (or the timeout) was
 * first; "Codex withdrew this request at … (why)" when Codex had (shared/withdrawnText.ts); "That request
 * is no longer known" for an unknown id.
 */
export function outcomeNotice(outcome: AnswerOutcome): string | null {
  if (outcome.outcome === 'answered') return null;
  if (outcome.outcome === 'unknown') return 'That request is no longer known (it may belong to an earlier run of Angelia)';
  if (outcome.by === 'codex') return withdrawnText(outcome.withdrawn);
  const state = outcome.by === 'timeout' ? 'timedOut' : 'answered';
  return alreadyAnsweredText({ state, answer: outcome.answer, by: outcome.by });
}

/** A `usage:warning` as it arrives (src/shared/contract.ts `eventTable`). */
export type UsageWarning = PayloadOf<'usage:warning'>;

/**
 * The native notification of a rate-limit window at 90 % or more (pure): title "Codex usage at 92 % of
 * the 5 h limit", body saying when it resets and what happens at 100 % (agents pause; queued messages
 * wait until the reset).
 */
export function usageWarningText(w: UsageWarning, now: Date): { title: string; body: string } {
  const name = windowName(null, w.window);
  const resets = resetsText(w.resetsAt, now);
  return {
    title: `Codex usage at ${percentText(w.usedPercent)} of the ${name} limit`,
    body: `${resets ? `It ${resets}. ` : ''}At 100 % the agents pause; messages you send wait in their chat's queue until the reset.`,
  };
}

/** An elicitation's lines: its message, then what it asks for (a form's fields, or the site a URL opens; never the URL as a link). */
function elicitationLines(e: ElicitationView): string[] {
  const lines = [e.message];
  if (e.mode === 'form' && e.fields.length) lines.push(`Form: ${e.fields.map((f) => f.title ?? f.name).join(', ')}`);
  if (e.mode === 'url') lines.push(`It asks you to open a page on ${e.domain ?? 'another site'}`);
  return lines;
}

/** The name a notification gives a chat: its profile, and the chat's own id when it differs ("coder (coder-2)"). */
export function chatName(chatId: string, profile: string): string {
  return chatId === profile ? profile : `${profile} (${chatId})`;
}

/** The first line of a text that is not blank, trimmed ("" when there is none). */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  );
}

/**
 * An agent question's notification (pure): title "<profile> asks", body the first question (with its
 * header when it adds something), and "(n more questions)" when there are more.
 */
export function questionText(view: ApprovalView): { title: string; body: string } {
  const qs = view.questions ?? [];
  const first = qs[0];
  const head = first ? (first.header && first.header !== first.question ? `${first.header}: ${first.question}` : first.question) : view.title;
  const more = qs.length > 1 ? `\n(${qs.length - 1} more question${qs.length === 2 ? '' : 's'})` : '';
  return { title: `${view.profile} asks`, body: `${head}${more}` };
}

/**
 * An MCP elicitation's notification (pure): title "<server> (MCP, <profile>) asks", body its message;
 * a URL elicitation names the site only (the URL is opened from the card, never from a notification).
 */
export function elicitationText(view: ApprovalView): { title: string; body: string } {
  const e = view.elicitation;
  if (!e) return { title: `${view.profile} asks`, body: view.title };
  const site = e.mode === 'url' ? `\nIt asks you to open a page on ${e.domain ?? 'another site'}.` : '';
  return { title: `${e.serverName} (MCP, ${view.profile}) asks`, body: `${e.message}${site}` };
}

/** A finished turn (pure): "<chat> finished", the first line of the agent's last answer (or that it said nothing). */
export function turnDoneText(chatId: string, profile: string, answer: string): { title: string; body: string } {
  return { title: `${chatName(chatId, profile)} finished`, body: firstLine(answer) || 'The turn ended without an answer.' };
}

/** A failed turn (pure): "<chat>: the turn failed", the plain reason of its turn end. */
export function turnFailedText(chatId: string, profile: string, reason: string | null): { title: string; body: string } {
  return { title: `${chatName(chatId, profile)}: the turn failed`, body: reason?.trim() || 'The turn failed.' };
}

/**
 * The usage limit reached (pure): "Codex usage limit reached", and until when the agents pause (the
 * home's `pausedUntil`, else the reset of the window at 100 %).
 */
export function usageLimitText(u: HomeUsage, now: Date): { title: string; body: string } {
  const full = [u.rateLimits?.primary, u.rateLimits?.secondary].find((w) => w && w.usedPercent >= 100);
  const until = u.pausedUntil ?? full?.resetsAt ?? null;
  const clock = until ? clockText(until, now) : null;
  return {
    title: 'Codex usage limit reached',
    body: `${clock ? `The agents pause until ${clock}` : 'The agents pause until the limit resets'}; messages you send wait in their chat's queue.`,
  };
}

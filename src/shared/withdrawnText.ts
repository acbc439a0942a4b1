/**
 * What a late answer is told when Codex had withdrawn the request (`serverRequest/resolved`, a turn that
 * ended, a Codex that exited: approvals/broker.ts `withdraw`), in the same words on every surface: the
 * loopback API's 409 (and so `angelia` commands that answer through it), the window's card note, the
 * tray and the notification. Nothing here imports Node, Electron or React.
 */
import type { AnswerOutcome } from './approvals';

/** An ISO time as "2026-12-02 03:40:12 UTC" (the same on every host); the text itself when it is no time. */
function atText(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * "Codex withdrew this request at 2026-12-02 03:40:12 UTC (the turn ended); nothing was answered, and
 * your answer was not sent." `withdrawn` is the outcome's (`AnswerOutcome.withdrawn`); without it, when
 * and why are left out.
 */
export function withdrawnText(withdrawn: AnswerOutcome['withdrawn']): string {
  const at = withdrawn?.at ? ` at ${atText(withdrawn.at)}` : '';
  const why = withdrawn?.why ? ` (${withdrawn.why})` : '';
  return `Codex withdrew this request${at}${why}; nothing was answered, and your answer was not sent.`;
}

/**
 * Answering an approval from the tray or a notification. It goes through the one broker, exactly like
 * the window's `approvals:answer` (both are the orchestrator's `answerApproval`; the window's is
 * `by: 'window'`), but records who answered: `tray` or `notification`. First answer wins; a late one
 * learns "already answered".
 */
import type { AnswerOutcome, ApprovalAnswer, QuestionAnswers } from '../../shared/contract';
import { toAppError, type Result } from '../../shared/result';

/** What an answer may carry besides the answer: a question's chosen option (`approvals:answer` `answers`). */
export interface AnswerExtra {
  answers?: QuestionAnswers;
}

/** The part of the orchestrator this module uses: its named operation `answerApproval` (core/chats/orchestrator.ts). */
export interface ApprovalAnswerer {
  answerApproval(id: string, answer: ApprovalAnswer, by: 'tray' | 'notification', opts?: AnswerExtra): AnswerOutcome;
}

/**
 * Answers one approval; never throws (a refused answer, e.g. one not offered, comes back as an error).
 * `extra.answers`: a question answered by one of its options (`allow` with `{ [questionId]: [label] }`).
 */
export type AnswerFn = (id: string, answer: ApprovalAnswer, extra?: AnswerExtra) => Result<AnswerOutcome>;

/**
 * An answer function for one surface: `answerFrom(orchestrator, 'tray')(id, 'deny')` calls
 * `orchestrator.answerApproval(id, 'deny', 'tray')`. The broker's AppFailure (`bad-answer` when the
 * answer was not offered; an audit write error) comes back as `{ ok: false }`, so a menu click or a
 * notification button can never throw into Electron.
 */
export function answerFrom(owner: ApprovalAnswerer, source: 'tray' | 'notification'): AnswerFn {
  return (id, answer, extra) => {
    try {
      return { ok: true, value: extra ? owner.answerApproval(id, answer, source, extra) : owner.answerApproval(id, answer, source) };
    } catch (e) {
      return { ok: false, error: toAppError(e) };
    }
  };
}

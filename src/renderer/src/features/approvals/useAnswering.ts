/**
 * Sending one answer from a card, as the approval card does (ApprovalCard.tsx): the buttons wait while
 * it is on its way, a failure is said on the card ("Could not answer: … — <fix>"), and a click that
 * comes after the request was settled says who answered first.
 */
import { useState } from 'react';
import type { AnswerOutcome, ApprovalAnswer, ApprovalView } from '../../../../shared/contract';
import type { Result } from '../../../../shared/result';
import type { AnswerExtra } from '../../api/session';
import { alreadyAnsweredLine } from './describe';

/** How a card sends its answer (`session.answer`, or a test's double). */
export type OnAnswer = (answer: ApprovalAnswer, extra: AnswerExtra) => Promise<Result<AnswerOutcome>>;

/** `busy` while an answer is on its way, this card's `note`, and `send` (true once the core took the answer). */
export function useAnswering(
  view: ApprovalView,
  onAnswer: OnAnswer,
): { busy: boolean; note: string | null; send: (a: ApprovalAnswer, extra?: AnswerExtra) => Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const send = async (a: ApprovalAnswer, extra: AnswerExtra = {}): Promise<boolean> => {
    if (view.state !== 'pending') {
      setNote(alreadyAnsweredLine(view.answer, view.by, view.kind));
      return false;
    }
    setBusy(true);
    setNote(null);
    const r = await onAnswer(a, extra);
    setBusy(false);
    if (!r.ok) setNote(`Could not answer: ${r.error.message}${r.error.fix ? ` — ${r.error.fix}` : ''}`);
    return r.ok;
  };
  return { busy, note, send };
}

/**
 * An agent question card's answers as pure functions (codex 0.169.0 `item/tool/requestUserInput`; the
 * mapping in src/shared/questions.ts) over what is picked or typed per question (store/answerDrafts.ts
 * `QuestionDraft`): the `answers` a Submit sends (question id → [chosen option label] or [free text]), which questions still
 * lack an answer (Submit waits for all), and what a settled card shows of the core's `given` (secret
 * answers already masked by the core).
 */
import type { ApprovalView, QuestionAnswers, QuestionView } from '../../../../shared/contract';
import { entryOf, OTHER, type QuestionDraft, type QuestionEntry } from '../../store/answerDrafts';

/** Whether question `q` offers free text: it has no options, or `isOther`. */
export function offersText(q: Pick<QuestionView, 'options' | 'isOther'>): boolean {
  return !q.options || q.options.length === 0 || q.isOther;
}

/**
 * The answer of one question, or null when it has none yet: the chosen option's label, or the typed
 * text (a secret exactly as typed, other text trimmed; blank text is no answer).
 */
export function answerOf(q: QuestionView, entry: QuestionEntry): string[] | null {
  const hasOptions = q.options !== null && q.options.length > 0;
  if (hasOptions && entry.choice !== null && entry.choice !== OTHER) {
    return q.options?.some((o) => o.label === entry.choice) ? [entry.choice] : null;
  }
  if (hasOptions && entry.choice !== OTHER) return null;
  if (!offersText(q) || entry.text.trim() === '') return null;
  return [q.isSecret ? entry.text : entry.text.trim()];
}

/**
 * What a Submit sends, or the questions still without an answer: `{ answers }` (every question id →
 * its answer) when each has one, else `{ missing }` (their ids, in the card's order).
 */
export function questionAnswers(questions: readonly QuestionView[], draft: QuestionDraft): { answers: QuestionAnswers } | { missing: string[] } {
  const answers: QuestionAnswers = {};
  const missing: string[] = [];
  for (const q of questions) {
    const a = answerOf(q, entryOf(draft, q.id));
    if (a) answers[q.id] = a;
    else missing.push(q.id);
  }
  return missing.length > 0 ? { missing } : { answers };
}

/** Why Submit waits ("Answer every question to submit (1 left)"), or null when it can be sent. */
export function submitHint(questions: readonly QuestionView[], draft: QuestionDraft): string | null {
  const r = questionAnswers(questions, draft);
  if ('answers' in r) return null;
  return `Answer every question to submit (${r.missing.length} left)`;
}

/** One line of a settled card per answered question: its header (or text) and the answer as given (secrets masked by the core). */
export interface GivenLine {
  id: string;
  header: string;
  answer: string;
}

/**
 * What the answered card shows of `view.given` (the core's record, secret answers already replaced by
 * `SECRET_MASK`): one line per question it answered, in the card's order. [] when nothing was given
 * (skipped, timed out, withdrawn).
 */
export function givenLines(view: Pick<ApprovalView, 'questions' | 'given'>): GivenLine[] {
  const given = view.given;
  if (!given) return [];
  return (view.questions ?? [])
    .filter((q) => given[q.id] !== undefined)
    .map((q) => ({ id: q.id, header: q.header || q.question, answer: (given[q.id] ?? []).join(', ') || '(empty)' }));
}

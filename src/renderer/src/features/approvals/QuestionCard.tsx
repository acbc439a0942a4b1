/**
 * The card of an agent's questions (codex 0.169.0 `item/tool/requestUserInput`; src/shared/questions.ts),
 * inline in the chat like the approval card: each question with its header and text, its options as
 * radio buttons (label and description), a free-text field when it has no options or allows another
 * answer, and a masked field for a secret one. Submit (the broker's `allow`, with `answers`) waits until
 * every question has an answer; Skip (`deny`) sends Codex the empty answer. Enter in a text field
 * submits. A question that is not blocking (Codex `isBlocking` false) says the agent may go on without waiting. A secret answer stays
 * in this card's own state (never the store), and once settled the card shows only the core's `given`,
 * where secrets are masked. Settled: "Answered — answered in the window", "Skipped …", "Nobody answered
 * in time — the agent got an empty answer", "Withdrawn: the turn ended".
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import type { AnswerOutcome, ApprovalAnswer, ApprovalView, QuestionView } from '../../../../shared/contract';
import { draftQuestions } from '../../store/approvals';
import { withSlice } from '../../store/app';
import { entryOf, onlySecrets, OTHER, pickChoice, typeText, withoutSecrets, type QuestionDraft } from '../../store/answerDrafts';
import { update, useAppStore } from '../../store/store';
import { answerLabel, outcomeNote, settledLine } from './describe';
import { givenLines, offersText, questionAnswers, submitHint } from './questionDraft';
import { useAnswering, type OnAnswer } from './useAnswering';
import { Untrusted } from './Untrusted';
import { visibleText } from '../../../../shared/untrustedText';
import { ApprovalNote, SettledStatus } from './CardFooter';

const NO_DRAFT: QuestionDraft = {};

/** The question card of approval `view`, fed from the store (non-secret picks) and its own state (secret ones). */
export function QuestionCard({ view, outcome, onAnswer }: { view: ApprovalView; outcome: AnswerOutcome | undefined; onAnswer: OnAnswer }): ReactElement {
  const stored = useAppStore((s) => s.approvals.questionDrafts[view.id] ?? NO_DRAFT);
  const [secret, setSecret] = useState<QuestionDraft>(NO_DRAFT);
  const questions = view.questions ?? [];
  const onDraft = (next: QuestionDraft): void => {
    setSecret(onlySecrets(questions, next));
    update((s) => withSlice(s, 'approvals', draftQuestions(s.approvals, view.id, withoutSecrets(questions, next))));
  };
  const answer: OnAnswer = async (a, extra) => {
    const r = await onAnswer(a, extra);
    if (r.ok) setSecret(NO_DRAFT);
    return r;
  };
  return <QuestionCardView view={view} outcome={outcome} draft={{ ...stored, ...secret }} onDraft={onDraft} onAnswer={answer} />;
}

/** What `QuestionCardView` shows and does: the request, this page's outcome, the picks so far, and how to change and send them. */
export interface QuestionCardProps {
  view: ApprovalView;
  outcome: AnswerOutcome | undefined;
  draft: QuestionDraft;
  onDraft: (next: QuestionDraft) => void;
  onAnswer: OnAnswer;
}

/** The card for one `userInput` view (see the file comment). */
export function QuestionCardView({ view, outcome, draft, onDraft, onAnswer }: QuestionCardProps): ReactElement {
  const { busy, note, send } = useAnswering(view, onAnswer);
  const pending = view.state === 'pending';
  const questions = view.questions ?? [];
  const ready = questionAnswers(questions, draft);
  const hint = submitHint(questions, draft);
  const submit = (e?: FormEvent): void => {
    e?.preventDefault();
    if (pending && !busy && 'answers' in ready && view.answers.includes('allow')) void send('allow', { answers: ready.answers });
  };
  const click = (a: ApprovalAnswer): void => (a === 'allow' ? submit() : void send(a));
  const shownNote = note ?? outcomeNote(outcome, view.kind);
  return (
    <form
      className={`approval-card question-card ${pending ? 'pending' : 'settled'}`}
      data-testid="question-card"
      data-state={view.state}
      data-answer={view.answer ?? undefined}
      data-approval-id={view.id}
      onSubmit={submit}
      noValidate
    >
      <div className="approval-title">
        <span className="approval-dot" aria-hidden="true" /> <Untrusted text={view.title} />
      </div>
      {view.isBlocking === false && pending && (
        <div className="meta question-not-blocking" data-testid="question-not-blocking">
          The agent may go on without waiting for this answer.
        </div>
      )}
      {pending ? (
        questions.map((q) => <QuestionField key={q.id} cardId={view.id} q={q} draft={draft} disabled={busy} onDraft={onDraft} />)
      ) : (
        <Given view={view} />
      )}
      <div className="approval-buttons">
        {view.answers.map((a) => (
          <button
            key={a}
            type={a === 'allow' ? 'submit' : 'button'}
            className={`btn answer-${a}${view.answer === a ? ' chosen' : ''}`}
            data-testid={`question-${a}`}
            aria-pressed={view.answer === a ? true : undefined}
            disabled={!pending || busy || (a === 'allow' && hint !== null)}
            title={!pending ? settledLine(view) : a === 'allow' && hint ? hint : undefined}
            onClick={a === 'allow' ? undefined : () => click(a)}
          >
            {answerLabel(view.kind, a)}
          </button>
        ))}
        {pending && hint && (
          <span className="meta" data-testid="question-hint">
            {hint}
          </span>
        )}
        {view.answers.length === 0 && pending && <span className="meta">No answer can be given from here.</span>}
      </div>
      <SettledStatus settled={!pending} line={settledLine(view)} />
      <ApprovalNote note={shownNote} />
    </form>
  );
}

/** One question while it waits: header, text, options, free text (masked when secret). */
function QuestionField({
  cardId,
  q,
  draft,
  disabled,
  onDraft,
}: {
  cardId: string;
  q: QuestionView;
  draft: QuestionDraft;
  disabled: boolean;
  onDraft: (next: QuestionDraft) => void;
}): ReactElement {
  const entry = entryOf(draft, q.id);
  const options = q.options ?? [];
  const group = `${cardId}:${q.id}`;
  const text = offersText(q) && (
    <input
      type={q.isSecret ? 'password' : 'text'}
      className="question-input"
      data-testid="question-input"
      data-question-id={q.id}
      // A secret is left uncontrolled: a controlled input mirrors its value into the page's HTML (the value attribute).
      {...(q.isSecret ? {} : { value: entry.text })}
      disabled={disabled}
      autoComplete="off"
      spellCheck={!q.isSecret}
      aria-label={visibleText(options.length > 0 ? `${q.header || q.question}: another answer` : q.header || q.question)}
      placeholder={q.isSecret ? 'Hidden as you type' : options.length > 0 ? 'Another answer' : 'Your answer'}
      onChange={(e) => onDraft(typeText(draft, q, e.target.value))}
    />
  );
  return (
    <fieldset className="question" data-testid="question" data-question-id={q.id} data-secret={q.isSecret || undefined}>
      {q.header && (
        <legend className="question-header">
          <Untrusted text={q.header} />
        </legend>
      )}
      <div className="question-text">
        <Untrusted text={q.question} />
      </div>
      {options.map((o) => (
        <label key={o.label} className="question-option" data-testid="question-option">
          <input type="radio" name={group} checked={entry.choice === o.label} disabled={disabled} onChange={() => onDraft(pickChoice(draft, q.id, o.label))} />
          <span>
            <span className="option-label">
              <Untrusted text={o.label} />
            </span>
            {o.description && (
              <span className="option-description">
                <Untrusted text={o.description} />
              </span>
            )}
          </span>
        </label>
      ))}
      {options.length > 0 && text ? (
        <label className="question-option question-other">
          <input type="radio" name={group} checked={entry.choice === OTHER} disabled={disabled} onChange={() => onDraft(pickChoice(draft, q.id, OTHER))} />
          <span className="option-label">Other:</span>
          {text}
        </label>
      ) : (
        text
      )}
      {q.isSecret && <div className="meta">Secret: masked here, and never shown or recorded in clear.</div>}
    </fieldset>
  );
}

/** A settled card: each question, and what was answered (`given`, secrets masked by the core). */
function Given({ view }: { view: ApprovalView }): ReactElement {
  const given = new Map(givenLines(view).map((l) => [l.id, l.answer]));
  return (
    <dl className="question-given" data-testid="question-given">
      {(view.questions ?? []).map((q) => (
        <div key={q.id} className="given-row" data-question-id={q.id}>
          <dt>
            <Untrusted text={q.header || q.question} />
          </dt>
          <dd data-testid="question-given-answer">{given.get(q.id) ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

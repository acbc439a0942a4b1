/**
 * Approvals slice: every ApprovalView by id, plus what the window learnt from its own answers (so a
 * click on a card that was already answered elsewhere says so), and what is being filled in on an open
 * question or elicitation card (answerDrafts.ts; dropped once the request is no longer pending). Pure
 * transitions; each returns the same object when nothing changed.
 */
import type { AnswerOutcome, ApprovalView } from '../../../shared/contract';
import type { FormDraft, QuestionDraft } from './answerDrafts';
import { equal } from './equal';

/** Approvals by id, the outcome of this window's last answer per approval, and the drafts of open cards by approval id. */
export interface ApprovalsSlice {
  byId: Record<string, ApprovalView>;
  outcomes: Record<string, AnswerOutcome>;
  /** A question card's picks and typed text (never a secret question's: answerDrafts.ts `withoutSecrets`). */
  questionDrafts: Record<string, QuestionDraft>;
  /** An elicitation form's values. */
  formDrafts: Record<string, FormDraft>;
}

/** The empty approvals slice. */
export const initialApprovals: ApprovalsSlice = { byId: {}, outcomes: {}, questionDrafts: {}, formDrafts: {} };

/** `state` without the drafts of approvals that are no longer pending (or no longer known). */
function dropSettledDrafts(state: ApprovalsSlice): ApprovalsSlice {
  const open = (id: string): boolean => state.byId[id]?.state === 'pending';
  const stale = (r: Record<string, unknown>): boolean => Object.keys(r).some((id) => !open(id));
  if (!stale(state.questionDrafts) && !stale(state.formDrafts)) return state;
  const keep = <T>(r: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(r).filter(([id]) => open(id)));
  return { ...state, questionDrafts: keep(state.questionDrafts), formDrafts: keep(state.formDrafts) };
}

/** A question card's draft changed (the caller leaves secret questions out). Ignored once the approval is not pending. */
export function draftQuestions(state: ApprovalsSlice, id: string, draft: QuestionDraft): ApprovalsSlice {
  if (state.byId[id]?.state !== 'pending' || state.questionDrafts[id] === draft) return state;
  return { ...state, questionDrafts: { ...state.questionDrafts, [id]: draft } };
}

/** An elicitation form's draft changed. Ignored once the approval is not pending. */
export function draftForm(state: ApprovalsSlice, id: string, draft: FormDraft): ApprovalsSlice {
  if (state.byId[id]?.state !== 'pending' || state.formDrafts[id] === draft) return state;
  return { ...state, formDrafts: { ...state.formDrafts, [id]: draft } };
}

/** `approval:updated`: inserts or replaces one approval. */
export function upsertApproval(state: ApprovalsSlice, view: ApprovalView): ApprovalsSlice {
  const old = state.byId[view.id];
  if (old && equal(old, view)) return state;
  return dropSettledDrafts({ ...state, byId: { ...state.byId, [view.id]: view } });
}

/** `approvals:list` answer: the full list replaces what was known (outcomes are kept). */
export function setApprovals(state: ApprovalsSlice, list: ApprovalView[]): ApprovalsSlice {
  const byId: Record<string, ApprovalView> = {};
  for (const a of list) byId[a.id] = a;
  if (equal(byId, state.byId)) return state;
  return dropSettledDrafts({ ...state, byId });
}

/**
 * The answer to this window's `approvals:answer`: records the outcome, and settles the approval when
 * the core says an answer is in force (before, or without, its `approval:updated` event).
 */
export function answerSettled(state: ApprovalsSlice, id: string, outcome: AnswerOutcome): ApprovalsSlice {
  const old = state.byId[id];
  let byId = state.byId;
  if (old && old.state === 'pending' && outcome.outcome !== 'unknown' && outcome.answer) {
    byId = { ...byId, [id]: { ...old, state: 'answered', answer: outcome.answer, by: outcome.by } };
  }
  if (byId === state.byId && equal(state.outcomes[id], outcome)) return state;
  return dropSettledDrafts({ ...state, byId, outcomes: { ...state.outcomes, [id]: outcome } });
}

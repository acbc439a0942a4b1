/**
 * Approvals slice: every ApprovalView by id, plus what the window learnt from its own answers (so a
 * click on a card that was already answered elsewhere says so). Pure transitions; each returns the same
 * object when nothing changed.
 */
import type { AnswerOutcome, ApprovalView } from '../../../shared/contract';
import { equal } from './equal';

/** Approvals by id, and the outcome of this window's last answer per approval. */
export interface ApprovalsSlice {
  byId: Record<string, ApprovalView>;
  outcomes: Record<string, AnswerOutcome>;
}

/** The empty approvals slice. */
export const initialApprovals: ApprovalsSlice = { byId: {}, outcomes: {} };

/** `approval:updated`: inserts or replaces one approval. */
export function upsertApproval(state: ApprovalsSlice, view: ApprovalView): ApprovalsSlice {
  const old = state.byId[view.id];
  if (old && equal(old, view)) return state;
  return { ...state, byId: { ...state.byId, [view.id]: view } };
}

/** `approvals:list` answer: the full list replaces what was known (outcomes are kept). */
export function setApprovals(state: ApprovalsSlice, list: ApprovalView[]): ApprovalsSlice {
  const byId: Record<string, ApprovalView> = {};
  for (const a of list) byId[a.id] = a;
  if (equal(byId, state.byId)) return state;
  return { ...state, byId };
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
  return { byId, outcomes: { ...state.outcomes, [id]: outcome } };
}

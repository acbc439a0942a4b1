/**
 * A question card's answers (features/approvals/questionDraft.ts) and the drafts it keeps
 * (store/answerDrafts.ts, store/approvals.ts): what a Submit sends per question, what is still missing,
 * what a settled card shows of `given`, and that no secret entry ever reaches the store.
 */
import { describe, expect, it } from 'vitest';
import type { QuestionView } from '../../src/shared/contract';
import { answerOf, givenLines, offersText, questionAnswers, submitHint } from '../../src/renderer/src/features/approvals/questionDraft';
import { entryOf, onlySecrets, OTHER, pickChoice, typeText, withoutSecrets, type QuestionDraft } from '../../src/renderer/src/store/answerDrafts';
import { answerSettled, draftQuestions, initialApprovals, upsertApproval } from '../../src/renderer/src/store/approvals';
import { questionApproval } from '../fixtures/fakeCore/questions';

const q = (over: Partial<QuestionView>): QuestionView => ({ id: 'q', header: 'H', question: 'Q?', isOther: false, isSecret: false, options: null, ...over });
const OPTIONS = [
  { label: 'a', description: 'first' },
  { label: 'b', description: '' },
];

describe('one question: its answer, or none yet', () => {
  const cases: Array<[string, QuestionView, { choice: string | null; text: string }, string[] | null]> = [
    ['free text, typed', q({}), { choice: null, text: '  hello ' }, ['hello']],
    ['free text, blank', q({}), { choice: null, text: '   ' }, null],
    ['secret, sent exactly as typed', q({ isSecret: true }), { choice: null, text: ' s3 cret ' }, [' s3 cret ']],
    ['options, one chosen', q({ options: OPTIONS }), { choice: 'b', text: '' }, ['b']],
    ['options, none chosen', q({ options: OPTIONS }), { choice: null, text: '' }, null],
    ['options, a label not offered', q({ options: OPTIONS }), { choice: 'zzz', text: '' }, null],
    ['options + other, Other with text', q({ options: OPTIONS, isOther: true }), { choice: OTHER, text: 'c' }, ['c']],
    ['options + other, Other without text', q({ options: OPTIONS, isOther: true }), { choice: OTHER, text: '' }, null],
    ['options + other, an option beats the text typed before', q({ options: OPTIONS, isOther: true }), { choice: 'a', text: 'c' }, ['a']],
    ['options without other, Other is no answer', q({ options: OPTIONS }), { choice: OTHER, text: 'c' }, null],
    ['empty options list: free text', q({ options: [] }), { choice: null, text: 'x' }, ['x']],
  ];
  it.each(cases)('%s', (_name, question, entry, want) => {
    expect(answerOf(question, entry)).toEqual(want);
  });

  it.each([
    [q({}), true],
    [q({ options: OPTIONS }), false],
    [q({ options: OPTIONS, isOther: true }), true],
    [q({ options: [] }), true],
  ])('offersText %#', (question, want) => {
    expect(offersText(question)).toBe(want);
  });
});

describe('the whole card', () => {
  const questions = questionApproval().questions ?? [];

  it('Submit waits for every question, then sends each id with its answer', () => {
    let d: QuestionDraft = {};
    expect(questionAnswers(questions, d)).toEqual({ missing: ['target', 'token', 'note'] });
    expect(submitHint(questions, d)).toBe('Answer every question to submit (3 left)');
    d = pickChoice(d, 'target', 'production');
    d = typeText(d, questions[1] as QuestionView, 'tok-123');
    expect(submitHint(questions, d)).toBe('Answer every question to submit (1 left)');
    d = typeText(d, questions[2] as QuestionView, 'Faster builds');
    expect(submitHint(questions, d)).toBeNull();
    expect(questionAnswers(questions, d)).toEqual({ answers: { target: ['production'], token: ['tok-123'], note: ['Faster builds'] } });
  });

  it('typing in the Other field of a question with options chooses Other', () => {
    const d = typeText(pickChoice({}, 'target', 'staging'), questions[0] as QuestionView, 'canary');
    expect(entryOf(d, 'target')).toEqual({ choice: OTHER, text: 'canary' });
    expect(questionAnswers(questions.slice(0, 1), d)).toEqual({ answers: { target: ['canary'] } });
  });

  it('a transition that changes nothing returns the same draft', () => {
    const d = pickChoice({}, 'target', 'staging');
    expect(pickChoice(d, 'target', 'staging')).toBe(d);
    const t = typeText({}, questions[2] as QuestionView, 'x');
    expect(typeText(t, questions[2] as QuestionView, 'x')).toBe(t);
  });

  it('secret entries are split from the rest: the store gets none', () => {
    const d = typeText(pickChoice({}, 'target', 'staging'), questions[1] as QuestionView, 'tok-123');
    expect(withoutSecrets(questions, d)).toEqual({ target: { choice: 'staging', text: '' } });
    expect(onlySecrets(questions, d)).toEqual({ token: { choice: null, text: 'tok-123' } });
    const plain = pickChoice({}, 'target', 'staging');
    expect(withoutSecrets(questions, plain)).toBe(plain);
  });
});

describe('a settled card shows `given`', () => {
  it.each([
    ['answered', { target: ['staging'], token: ['••••••'], note: ['x'] }, ['Target: staging', 'Token: ••••••', 'Release note: x']],
    ['an empty answer', { target: [], token: ['••••••'] }, ['Target: (empty)', 'Token: ••••••']],
    ['skipped (nothing given)', undefined, []],
  ])('%s', (_name, given, want) => {
    const lines = givenLines(questionApproval({ state: 'answered', ...(given ? { given } : {}) }));
    expect(lines.map((l) => `${l.header}: ${l.answer}`)).toEqual(want);
  });
});

describe('drafts in the approvals slice', () => {
  const view = questionApproval();
  const open = upsertApproval(initialApprovals, view);
  const draft = pickChoice({}, 'target', 'staging');

  it('kept by approval id while pending, dropped once settled', () => {
    const withDraft = draftQuestions(open, view.id, draft);
    expect(withDraft.questionDrafts[view.id]).toBe(draft);
    expect(draftQuestions(withDraft, view.id, draft)).toBe(withDraft);
    const settled = upsertApproval(withDraft, { ...view, state: 'answered', answer: 'deny', by: 'tray' });
    expect(settled.questionDrafts).toEqual({});
    const answered = answerSettled(withDraft, view.id, { outcome: 'answered', answer: 'allow', by: 'window' });
    expect(answered.questionDrafts).toEqual({});
  });

  it('a draft for a request that is not pending (or unknown) is ignored', () => {
    expect(draftQuestions(initialApprovals, 'nope', draft)).toBe(initialApprovals);
    const done = upsertApproval(initialApprovals, { ...view, state: 'withdrawn' });
    expect(draftQuestions(done, view.id, draft)).toBe(done);
  });
});

import { describe, expect, it } from 'vitest';
import type { AskRequest } from '../../../src/main/core/codex/askRequest';
import { checkAnswers, maskAnswers, questionTitle, readQuestions } from '../../../src/main/core/codex/questions';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';
import { SECRET_MASK, type QuestionAnswers, type QuestionView } from '../../../src/shared/contract';
import { AppFailure } from '../../../src/shared/result';

const ctx = { fileChanges: new Map(), onRequest: true };

/** A `ToolRequestUserInputParams` (codex 0.169.0) with these questions. */
function params(questions: unknown[], over: Record<string, unknown> = {}): Record<string, unknown> {
  return { threadId: 't', turnId: 'u', itemId: 'call_q', questions, isBlocking: true, autoResolutionMs: null, ...over };
}

const db = {
  id: 'db',
  header: 'Database',
  question: 'Which database should the tests use?',
  isOther: false,
  isSecret: false,
  options: [
    { label: 'SQLite', description: 'fast' },
    { label: 'Postgres', description: 'real' },
  ],
};
const name = { id: 'name', header: 'Name', question: 'What is the project called?', isOther: false, isSecret: false, options: null };
const token = { id: 'token', header: 'Token', question: 'Paste the deploy token', isOther: false, isSecret: true, options: null };
const other = { ...db, id: 'other', isOther: true };

function ask(questions: unknown[], over: Record<string, unknown> = {}): AskRequest {
  const c = classifyServerRequest('item/tool/requestUserInput', params(questions, over), ctx);
  if (c.type !== 'ask') throw new Error(`expected ask, got ${c.type}`);
  return c;
}

function failureOf(f: () => unknown): AppFailure {
  try {
    f();
  } catch (e) {
    if (e instanceof AppFailure) return e;
    throw e;
  }
  throw new Error('expected an AppFailure');
}

describe('item/tool/requestUserInput → an ask of kind userInput', () => {
  it('shows the questions, offers submit (allow) and skip (deny), times out as the empty answer', () => {
    const c = ask([db, name]);
    expect(c).toMatchObject({ kind: 'userInput', answers: ['allow', 'deny'], timeoutAnswer: 'deny', isBlocking: true, threadId: 't', turnId: 'u' });
    expect(c.questions?.map((q) => q.id)).toEqual(['db', 'name']);
    expect(c.title).toBe('The agent asks: Which database should the tests use? (and 1 more)');
    expect(c.toWire('deny')).toEqual({ answers: {} });
    expect(c.toWire(c.timeoutAnswer)).toEqual({ answers: {} });
  });

  it('writes every answer as {answers: {<id>: {answers}}}', () => {
    expect(ask([db, name]).toWire('allow', { answers: { db: ['SQLite'], name: ['Angelia'] } })).toEqual({
      answers: { db: { answers: ['SQLite'] }, name: { answers: ['Angelia'] } },
    });
  });

  it('keeps isBlocking false as Codex sent it (absent reads as blocking)', () => {
    expect(ask([db], { isBlocking: false }).isBlocking).toBe(false);
    expect(ask([db], { isBlocking: undefined }).isBlocking).toBe(true);
  });

  it('a request without any question is answered at once with the empty answer', () => {
    const c = classifyServerRequest('item/tool/requestUserInput', params([{ header: 'no id' }]), ctx);
    expect(c).toMatchObject({ type: 'immediate', kind: 'userInput', result: { answers: {} } });
  });

  const refusals: [string, () => unknown, RegExp][] = [
    [
      'an unknown question id',
      () => ask([db]).toWire('allow', { answers: { db: ['SQLite'], nope: ['x'] } }),
      /"nope" is not a question of this request \(its questions: db\)/,
    ],
    [
      'a question left unanswered',
      () => ask([db, name]).toWire('allow', { answers: { db: ['SQLite'] } }),
      /question "name" \(Name\) has no answer.*Deny to skip/,
    ],
    ['a blank answer', () => ask([name]).toWire('allow', { answers: { name: ['  '] } }), /question "name" \(Name\) has no answer/],
    [
      'free text where only options fit',
      () => ask([db]).toWire('allow', { answers: { db: ['MySQL'] } }),
      /takes one of its options \("SQLite", "Postgres"\), not free text/,
    ],
    ['answers with a skip', () => ask([db]).toWire('deny', { answers: { db: ['SQLite'] } }), /Deny skips the questions and sends no answers/],
    ['a grant', () => ask([db]).toWire('allow', { grant: { read: ['/x'], write: [], network: false } }), /a grant only goes with a permissions request/],
    ['form content', () => ask([db]).toWire('allow', { content: { a: 'b' } }), /content only goes with an MCP form request/],
    ['an answer not offered', () => ask([db]).toWire('allowForSession'), /"allowForSession" was not offered/],
  ];
  for (const [what, f, message] of refusals) {
    it(`refuses ${what} (bad-answer)`, () => {
      const e = failureOf(f);
      expect(e.app.code).toBe('bad-answer');
      expect(e.app.message).toMatch(message);
    });
  }

  it('takes free text where isOther is set or options are null', () => {
    expect(ask([other, name]).toWire('allow', { answers: { other: ['MySQL'], name: ['x'] } })).toEqual({
      answers: { other: { answers: ['MySQL'] }, name: { answers: ['x'] } },
    });
  });

  it('answers to a question of an approval request are refused (answers only go with an agent question)', () => {
    const c = classifyServerRequest('item/fileChange/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i' }, ctx);
    if (c.type !== 'ask') throw new Error('expected ask');
    expect(failureOf(() => c.toWire('allow', { answers: { a: ['b'] } })).app.message).toMatch(/answers only go with an agent question/);
    expect(failureOf(() => c.toWire('allow', { content: { a: 'b' } })).app.message).toMatch(/content only goes with an MCP form request/);
  });
});

describe('readQuestions', () => {
  const cases: [string, unknown, QuestionView[]][] = [
    ['not an array', null, []],
    ['entries without an id dropped, a repeated id keeps the first', [{ header: 'x' }, name, { ...name, header: 'again' }], [name]],
    [
      'missing texts and flags read as empty / false, options without a label dropped',
      [{ id: 'a', options: [{ label: 'L' }, { description: 'no label' }] }],
      [{ id: 'a', header: '', question: '', isOther: false, isSecret: false, options: [{ label: 'L', description: '' }] }],
    ],
  ];
  for (const [what, input, out] of cases) it(what, () => expect(readQuestions(input)).toEqual(out));
});

describe('questionTitle', () => {
  const cases: [QuestionView[], string][] = [
    [[db], 'The agent asks: Which database should the tests use?'],
    [[{ ...name, question: '' }], 'The agent asks: Name'],
    [[{ ...name, question: 'a\n  b' }, db, token], 'The agent asks: a b (and 2 more)'],
    [[{ ...name, question: 'x'.repeat(400) }], `The agent asks: ${'x'.repeat(159)}…`],
  ];
  for (const [qs, title] of cases) it(title.slice(0, 60), () => expect(questionTitle(qs)).toBe(title));
});

describe('checkAnswers and maskAnswers', () => {
  it('drops blank entries of a multi-entry answer', () => {
    expect(checkAnswers([name], { name: ['', 'Angelia'] })).toEqual({ name: ['Angelia'] });
  });
  it('replaces every answer of a secret question by one mask, keeps the others', () => {
    const given: QuestionAnswers = { token: ['hunter2-secret'], name: ['Angelia'] };
    expect(maskAnswers([token, name], given)).toEqual({ token: [SECRET_MASK], name: ['Angelia'] });
    expect(JSON.stringify(maskAnswers([token, name], given))).not.toContain('hunter2');
  });
});

/**
 * Names that reach Object.prototype (askLimits.ts `RESERVED_NAMES`: `__proto__`, `constructor`,
 * `prototype`) are refused as question ids and form field names, at once with a notice; answers and
 * form content are looked up as own properties only (questions.ts `checkAnswers`, elicitation.ts
 * `checkContent`).
 */
import { describe, expect, it } from 'vitest';
import { reservedName } from '../../../src/main/core/codex/askLimits';
import { checkContent, readForm, type FormField } from '../../../src/main/core/codex/elicitation';
import { checkAnswers, readQuestions } from '../../../src/main/core/codex/questions';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';
import { AppFailure } from '../../../src/shared/result';

const ctx = { fileChanges: new Map(), onRequest: true };
const question = (id: string, over: Record<string, unknown> = {}) => ({ id, header: 'H', question: 'Q?', options: [{ label: 'a', description: '' }], ...over });
const userInput = (questions: unknown[]) => classifyServerRequest('item/tool/requestUserInput', { threadId: 't', turnId: 'u', itemId: 'i', questions }, ctx);
const form = (properties: Record<string, unknown>, message = 'Fill in') =>
  classifyServerRequest(
    'mcpServer/elicitation/request',
    { threadId: 't', turnId: null, serverName: 'docs', mode: 'form', message, requestedSchema: { type: 'object', properties }, _meta: null },
    ctx,
  );

describe('reservedName', () => {
  it('the first reserved name, or null', () => {
    expect(reservedName(['a', 'constructor', '__proto__'])).toBe('constructor');
    expect(reservedName(['a', 'toString'])).toBe(null);
  });
});

describe('a question id that is a reserved name: the empty answer at once', () => {
  const cases: [string, unknown[], RegExp][] = [
    ['an id __proto__', [question('__proto__')], /a question with the id "__proto__", a name Angelia does not take as an id/],
    ['an id constructor', [question('ok'), question('constructor')], /the id "constructor"/],
    ['an id prototype', [question('prototype')], /the id "prototype"/],
  ];
  for (const [what, qs, notice] of cases) {
    it(what, () => {
      const c = userInput(qs);
      expect(c).toMatchObject({ type: 'immediate', kind: 'userInput', result: { answers: {} } });
      if (c.type === 'immediate') expect(c.notice).toMatch(notice);
    });
  }
});

describe('a form field that is a reserved name: declined at once', () => {
  const cases: [string, ReturnType<typeof form>, RegExp][] = [
    [
      'a field __proto__',
      form(JSON.parse('{"__proto__": {"type": "string"}}') as Record<string, unknown>),
      /a field named "__proto__", a name Angelia does not take/,
    ],
    ['a field constructor', form({ constructor: { type: 'string' } }), /a field named "constructor"/],
    ['a field prototype', form({ prototype: { type: 'string' } }), /a field named "prototype"/],
  ];
  for (const [what, c, notice] of cases) {
    it(what, () => {
      expect(c).toMatchObject({ type: 'immediate', kind: 'elicitation', result: { action: 'decline', content: null, _meta: null } });
      if (c.type === 'immediate') expect(c.notice).toMatch(notice);
    });
  }
});

describe('own properties only', () => {
  const failure = (f: () => unknown): AppFailure => {
    try {
      f();
    } catch (e) {
      if (e instanceof AppFailure) return e;
      throw e;
    }
    throw new Error('expected an AppFailure');
  };
  it('an optional field named toString left out is accepted (not read from Object.prototype)', () => {
    const fields = readForm({ type: 'object', properties: { toString: { type: 'string' }, name: { type: 'string' } } }) as FormField[];
    expect(checkContent(fields, { name: 'x' })).toEqual({ name: 'x' });
  });
  it('a required field named hasOwnProperty left out is refused as missing', () => {
    const fields = readForm({ type: 'object', properties: { hasOwnProperty: { type: 'string' } }, required: ['hasOwnProperty'] }) as FormField[];
    expect(failure(() => checkContent(fields, {})).app.message).toMatch(/the field "hasOwnProperty" is required/);
  });
  it('a question id toString with no answer is refused as unanswered (bad-answer, not a TypeError)', () => {
    const qs = readQuestions([question('toString', { options: null })]);
    expect(failure(() => checkAnswers(qs, {})).app.message).toMatch(/question "toString" \(H\) has no answer/);
    expect(checkAnswers(qs, { toString: ['x'] })).toEqual({ toString: ['x'] });
  });
  it('an answer that is not a list of strings is bad-answer', () => {
    const qs = readQuestions([question('q', { options: null })]);
    expect(failure(() => checkAnswers(qs, { q: 'x' } as unknown as Record<string, string[]>)).app.message).toMatch(/answers\["q"\] must be a list of strings/);
  });
});

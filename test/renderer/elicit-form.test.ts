/**
 * An elicitation form (features/approvals/elicitForm.ts, store/answerDrafts.ts): each field's check
 * and its message, the `content` an Accept sends (JSON types, empty optional fields left out), which
 * problems show before and after an Accept was tried, and which addresses may be opened.
 */
import { describe, expect, it } from 'vitest';
import type { ElicitField } from '../../src/shared/contract';
import {
  fieldHint,
  fieldProblem,
  formContent,
  inputType,
  isToolGate,
  openableUrl,
  problemsSummary,
  shownProblems,
} from '../../src/renderer/src/features/approvals/elicitForm';
import { EMPTY_FORM, initialValue, setValue, toggleChoice, tried, type FieldValue } from '../../src/renderer/src/store/answerDrafts';
import { draftForm, initialApprovals, upsertApproval } from '../../src/renderer/src/store/approvals';
import { elicitationApproval, field, FORM_FIELDS, questionApproval, toolGateApproval, urlElicitationApproval } from '../fixtures/fakeCore/questions';

const CHOICES = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
];

describe('each field is checked with a message a person can act on', () => {
  const cases: Array<[string, ElicitField, FieldValue, string | null]> = [
    ['required text, empty', field('x', 'string', { required: true }), '  ', 'Required.'],
    ['optional text, empty', field('x', 'string'), '', null],
    ['email, fine', field('x', 'string', { format: 'email' }), ' ada@example.com ', null],
    ['email, wrong', field('x', 'string', { format: 'email' }), 'ada@', 'Enter an email address (name@example.com).'],
    ['uri, fine', field('x', 'string', { format: 'uri' }), 'https://example.com/a', null],
    ['uri, no scheme', field('x', 'string', { format: 'uri' }), 'example.com', 'Enter a full address with its scheme (https://…).'],
    ['date, fine', field('x', 'string', { format: 'date' }), '2025-02-28', null],
    ['date, no such day', field('x', 'string', { format: 'date' }), '2025-02-30', 'Enter a date as YYYY-MM-DD.'],
    ['date-time, fine', field('x', 'string', { format: 'date-time' }), '2025-01-31T09:00:00Z', null],
    ['date-time, no zone', field('x', 'string', { format: 'date-time' }), '2025-01-31T09:00', 'Enter a date and time as 2025-01-31T09:00:00Z.'],
    ['too short', field('x', 'string', { minLength: 3 }), 'ab', 'Enter at least 3 characters (now 2).'],
    ['too long', field('x', 'string', { minLength: 1, maxLength: 3 }), 'abcd', 'Enter 1 to 3 characters (now 4).'],
    ['length counts characters, not UTF-16 units', field('x', 'string', { maxLength: 2 }), '😀😀', null],
    ['number, fine', field('x', 'number', { minimum: 0, maximum: 1 }), '0.5', null],
    ['number, not a number', field('x', 'number'), '1,5', 'Enter a number.'],
    ['number, above the maximum', field('x', 'number', { minimum: 0, maximum: 1 }), '2', 'Enter a number from 0 to 1.'],
    ['integer, a fraction', field('x', 'integer', { minimum: 1 }), '1.5', 'Enter a whole number 1 or more.'],
    ['integer, below the minimum', field('x', 'integer', { minimum: 1, maximum: 50 }), '0', 'Enter a whole number from 1 to 50.'],
    ['integer, only a maximum', field('x', 'integer', { maximum: 9 }), '10', 'Enter a whole number 9 or less.'],
    ['required number, empty', field('x', 'integer', { required: true }), '', 'Required.'],
    ['boolean, never wrong', field('x', 'boolean', { required: true }), false, null],
    ['required choice, none', field('x', 'enum', { required: true, choices: CHOICES }), '', 'Choose one.'],
    ['choice, one offered', field('x', 'enum', { choices: CHOICES }), 'b', null],
    ['choice, not offered', field('x', 'enum', { choices: CHOICES }), 'z', 'Choose among the values offered.'],
    ['required multi, none', field('x', 'enum', { required: true, multiple: true, choices: CHOICES }), [], 'Choose at least one.'],
    ['optional multi, none', field('x', 'enum', { multiple: true, choices: CHOICES }), [], null],
  ];
  it.each(cases)('%s', (_name, f, value, want) => {
    expect(fieldProblem(f, value)).toBe(want);
  });
});

describe('input types and hints', () => {
  it.each([
    ['an email', field('x', 'string', { format: 'email' }), 'email', 'An email address'],
    ['an address', field('x', 'string', { format: 'uri' }), 'url', 'A full address (https://…)'],
    ['a date', field('x', 'string', { format: 'date' }), 'date', null],
    ['a date and time', field('x', 'string', { format: 'date-time' }), 'text', 'A date and time (2025-01-31T09:00:00Z)'],
    ['a whole number in a range', field('x', 'integer', { minimum: 1, maximum: 50 }), 'text', 'A whole number from 1 to 50'],
    ['a number', field('x', 'number'), 'text', null],
    ['a number with a minimum', field('x', 'number', { minimum: 0.5 }), 'text', 'A number 0.5 or more'],
    ['a text with a maximum length', field('x', 'string', { maxLength: 20 }), 'text', 'At most 20 characters'],
  ])('%s', (_name, f, type, hint) => {
    expect(inputType(f)).toBe(type);
    expect(fieldHint(f)).toBe(hint);
  });
});

describe('the content an Accept sends', () => {
  it('each value in its JSON type; an empty optional field is left out; defaults count', () => {
    let d = setValue(EMPTY_FORM, 'email', ' ada@example.com ');
    d = setValue(d, 'plan', 'team');
    d = toggleChoice(d, FORM_FIELDS[3] as ElicitField, 'audit');
    d = setValue(d, 'terms', true);
    expect(formContent(FORM_FIELDS, d)).toEqual({ content: { email: 'ada@example.com', seats: 5, plan: 'team', addons: ['audit'], terms: true } });
  });

  it('a multi-select keeps the order of its choices', () => {
    const f = FORM_FIELDS[3] as ElicitField;
    const d = toggleChoice(toggleChoice(EMPTY_FORM, f, 'audit'), f, 'sso');
    expect(d.values.addons).toEqual(['sso', 'audit']);
    expect(toggleChoice(d, f, 'sso').values.addons).toEqual(['audit']);
  });

  it('with a wrong field, the problems instead of content', () => {
    const d = setValue(setValue(EMPTY_FORM, 'email', 'nope'), 'seats', '99');
    expect(formContent(FORM_FIELDS, d)).toEqual({
      problems: {
        email: 'Enter an email address (name@example.com).',
        seats: 'Enter a whole number from 1 to 50.',
        plan: 'Choose one.',
      },
    });
  });

  it('problems show for the fields changed, and all of them once an Accept was tried', () => {
    const d = setValue(EMPTY_FORM, 'email', 'nope');
    expect(shownProblems(FORM_FIELDS, EMPTY_FORM)).toEqual({});
    expect(shownProblems(FORM_FIELDS, d)).toEqual({ email: 'Enter an email address (name@example.com).' });
    expect(Object.keys(shownProblems(FORM_FIELDS, tried(d)))).toEqual(['email', 'plan']);
    expect(problemsSummary(shownProblems(FORM_FIELDS, tried(d)))).toBe('Fix the 2 fields marked below.');
    expect(problemsSummary({ a: 'x' })).toBe('Fix the field marked below.');
    expect(problemsSummary({})).toBeNull();
  });

  it('initial values come from the defaults, in the shape the input holds', () => {
    expect(initialValue(field('x', 'integer', { default: 5 }))).toBe('5');
    expect(initialValue(field('x', 'boolean', { default: true }))).toBe(true);
    expect(initialValue(field('x', 'boolean'))).toBe(false);
    expect(initialValue(field('x', 'enum', { multiple: true, default: ['a'] }))).toEqual(['a']);
    expect(initialValue(field('x', 'string'))).toBe('');
  });

  it('a change that changes nothing returns the same draft; a form draft is dropped once settled', () => {
    const d = setValue(EMPTY_FORM, 'email', 'a');
    expect(setValue(d, 'email', 'a')).toBe(d);
    const t = tried(d);
    expect(tried(t)).toBe(t);
    const view = elicitationApproval();
    const open = draftForm(upsertApproval(initialApprovals, view), view.id, d);
    expect(open.formDrafts[view.id]).toBe(d);
    expect(upsertApproval(open, { ...view, state: 'answered', answer: 'deny', by: 'cli' }).formDrafts).toEqual({});
  });
});

describe('which addresses may be opened', () => {
  it.each([
    ['https://example.com/x', true],
    ['http://127.0.0.1:8000/', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
    [null, false],
  ])('%s', (url, want) => {
    expect(openableUrl(url)).toBe(want);
  });
});

describe("Codex's gate before an MCP tool runs", () => {
  const gate = toolGateApproval();
  const empty = elicitationApproval({ elicitation: { ...(gate.elicitation as NonNullable<typeof gate.elicitation>), serverName: 'billing' } });
  it.each([
    ['the gate', gate, true],
    ['the gate of a tool without parameters or description, persist session', toolGateApproval({ command: null, reason: null }), true],
    [
      'the gate of a tool without parameters, description or persist',
      toolGateApproval({ command: null, reason: null, answers: ['allow', 'deny', 'cancel'] }),
      false,
    ],
    ["a server's own empty form", empty, false],
    ["a server's form with fields", elicitationApproval(), false],
    ['a URL elicitation', urlElicitationApproval(), false],
    ['a question', questionApproval(), false],
  ])('%s', (_name, view, want) => {
    expect(isToolGate(view)).toBe(want);
  });
});

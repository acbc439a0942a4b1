/**
 * The question and elicitation cards as they render (react-dom/server): questions with their options,
 * free text and a masked secret; Submit waiting for every answer; the settled card showing only the
 * core's masked `given`; an elicitation form whose server text is text, never HTML, with its problems
 * once an Accept was tried; the URL mode's domain, full address and Open button; the unsupported mode's
 * Decline / Cancel only. The same cards driven in Chromium: test/e2e/ui-questions.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../src/shared/contract';
import { ok } from '../../src/shared/result';
import { alreadyAnsweredLine, answerLabel, settledLine } from '../../src/renderer/src/features/approvals/describe';
import { ElicitationCardView } from '../../src/renderer/src/features/approvals/ElicitationCard';
import { QuestionCardView } from '../../src/renderer/src/features/approvals/QuestionCard';
import { EMPTY_FORM, pickChoice, setValue, tried, typeText, type FormDraft, type QuestionDraft } from '../../src/renderer/src/store/answerDrafts';
import { elicitationApproval, questionApproval, toolGateApproval, urlElicitationApproval } from '../fixtures/fakeCore/questions';

const answered = async () => ok({ outcome: 'answered' as const, answer: 'allow' as const, by: 'window' as const });
const noop = (): void => undefined;

function questionCard(view: ApprovalView, draft: QuestionDraft = {}): string {
  return renderToStaticMarkup(<QuestionCardView view={view} outcome={undefined} draft={draft} onDraft={noop} onAnswer={answered} />);
}

function elicitCard(view: ApprovalView, draft: FormDraft = EMPTY_FORM): string {
  return renderToStaticMarkup(<ElicitationCardView view={view} outcome={undefined} draft={draft} onDraft={noop} onAnswer={answered} onOpen={noop} />);
}

/** Every `<button>` of the markup: its test id, whether it is disabled, and its text. */
function buttons(html: string): Array<{ id: string; disabled: boolean; text: string }> {
  return [...html.matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/g)].map((m) => ({
    id: /data-testid="([^"]+)"/.exec(m[1] ?? '')?.[1] ?? '',
    disabled: /\sdisabled=""/.test(m[1] ?? ''),
    text: (m[2] ?? '').replace(/<[^>]+>/g, ''),
  }));
}

/** The `<input>` tags of the markup. */
const inputs = (html: string): string[] => [...html.matchAll(/<input[^>]*>/g)].map((m) => m[0]);

/** The text of the first element with `data-testid="<id>"` (tags stripped). */
function textOf(html: string, id: string): string | null {
  const m = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(div|span|code|dl)>`).exec(html);
  return m?.[1]
    ? m[1]
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
    : null;
}

describe('a question card', () => {
  const questions = questionApproval().questions ?? [];
  const full = typeText(typeText(pickChoice({}, 'target', 'staging'), questions[1] as never, 'tok-SECRET-123'), questions[2] as never, 'Faster');

  it('shows each question with its header, options (label and description), free text and a masked secret', () => {
    const html = questionCard(questionApproval());
    for (const t of ['Target', 'Which environment should I deploy to?', 'staging', 'The test cluster: safe to break.', 'Token', 'Release note'])
      expect(html).toContain(t);
    const fields = inputs(html);
    expect(fields.filter((i) => i.includes('type="radio"'))).toHaveLength(3); // two options and Other
    expect(fields.filter((i) => i.includes('type="password"'))).toHaveLength(1);
    expect(fields.find((i) => i.includes('type="password"'))).toContain('data-question-id="token"');
    expect(fields.filter((i) => i.includes('type="text"'))).toHaveLength(2); // Other's field and the note
  });

  it('Submit waits until every question has an answer; Skip is always there', () => {
    expect(buttons(questionCard(questionApproval()))).toEqual([
      { id: 'question-allow', disabled: true, text: 'Submit' },
      { id: 'question-deny', disabled: false, text: 'Skip' },
    ]);
    expect(textOf(questionCard(questionApproval()), 'question-hint')).toBe('Answer every question to submit (3 left)');
    const html = questionCard(questionApproval(), full);
    expect(buttons(html)[0]).toEqual({ id: 'question-allow', disabled: false, text: 'Submit' });
    expect(textOf(html, 'question-hint')).toBeNull();
  });

  it('a question that does not block says the agent goes on without waiting', () => {
    expect(textOf(questionCard(questionApproval({ isBlocking: false })), 'question-not-blocking')).toBe('The agent may go on without waiting for this answer.');
    expect(questionCard(questionApproval())).not.toContain('question-not-blocking');
  });

  it('answered: no field, no active button, the masked `given` and never the secret', () => {
    const view = questionApproval({ state: 'answered', answer: 'allow', by: 'window', given: { target: ['staging'], token: ['••••••'], note: ['Faster'] } });
    const html = questionCard(view, full);
    expect(inputs(html)).toEqual([]);
    expect(buttons(html).every((b) => b.disabled)).toBe(true);
    expect(textOf(html, 'approval-status')).toBe('Answered — answered in the window');
    expect([...html.matchAll(/data-testid="question-given-answer">([^<]*)</g)].map((m) => m[1])).toEqual(['staging', '••••••', 'Faster']);
    expect(html).not.toContain('tok-SECRET-123');
  });

  it.each([
    ['skipped', { state: 'answered', answer: 'deny', by: 'tray' }, 'Skipped — answered from the tray'],
    ['timed out', { state: 'timedOut', answer: 'deny', by: 'timeout' }, 'Nobody answered in time — the agent got an empty answer'],
    ['withdrawn', { state: 'withdrawn', by: 'codex', withdrawnWhy: 'the turn ended' }, 'Withdrawn: the turn ended'],
  ] as const)('%s: says so, and shows no answer', (_name, over, line) => {
    const html = questionCard(questionApproval(over as Partial<ApprovalView>));
    expect(textOf(html, 'approval-status')).toBe(line);
    expect([...html.matchAll(/data-testid="question-given-answer">([^<]*)</g)].map((m) => m[1])).toEqual(['—', '—', '—']);
  });
});

describe('an elicitation form', () => {
  it('names the server and shows its message and labels as text, never as HTML', () => {
    const html = elicitCard(elicitationApproval());
    expect(textOf(html, 'elicit-server')).toBe('From the MCP server billing');
    expect(textOf(html, 'elicit-message')).toBe('To order the seats, billing needs a few details. <script>alert(1)</script>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).toContain('I accept the &lt;b&gt;terms&lt;/b&gt;');
  });

  it('one widget per field kind, required ones marked, the default shown', () => {
    const html = elicitCard(elicitationApproval());
    const fields = inputs(html);
    expect(fields.find((i) => i.includes('data-field="email"'))).toContain('type="email"');
    expect(fields.find((i) => i.includes('data-field="seats"'))).toContain('value="5"');
    expect(fields.find((i) => i.includes('data-field="start"'))).toContain('type="date"');
    expect(fields.find((i) => i.includes('data-field="site"'))).toContain('type="url"');
    expect(fields.filter((i) => i.includes('type="radio"'))).toHaveLength(3); // the plan
    expect(fields.filter((i) => i.includes('type="checkbox"'))).toHaveLength(3); // two add-ons, the terms
    expect([...html.matchAll(/class="required"/g)]).toHaveLength(4);
    expect(buttons(html).map((b) => `${b.id}:${b.text}`)).toEqual(['elicit-allow:Accept', 'elicit-deny:Decline', 'elicit-cancel:Cancel']);
  });

  it('a choice among many is a list', () => {
    const choices = Array.from({ length: 8 }, (_, i) => ({ value: `v${i}`, label: `Choice ${i}` }));
    const view = elicitationApproval();
    const el = view.elicitation as NonNullable<ApprovalView['elicitation']>;
    const html = elicitCard({ ...view, elicitation: { ...el, fields: [{ ...(el.fields[2] as (typeof el.fields)[number]), choices }] } });
    expect(html).toContain('<select');
    expect((html.match(/<option/g) ?? []).length).toBe(9);
  });

  it('no problem shows before anything is typed; after an Accept was tried, each under its field', () => {
    expect(elicitCard(elicitationApproval())).not.toContain('elicit-problem');
    const html = elicitCard(elicitationApproval(), tried(setValue(EMPTY_FORM, 'email', 'ada@')));
    const problems = [...html.matchAll(/data-testid="elicit-problem" data-field="(\w+)" role="alert">([^<]*)</g)].map((m) => `${m[1]}: ${m[2]}`);
    expect(problems).toEqual(['email: Enter an email address (name@example.com).', 'plan: Choose one.']);
    expect(textOf(html, 'elicit-summary')).toBe('Fix the 2 fields marked below.');
  });

  it.each([
    ['accepted', { state: 'answered', answer: 'allow', by: 'window' }, 'Accepted — answered in the window'],
    ['declined', { state: 'answered', answer: 'deny', by: 'notification' }, 'Declined — answered from a notification'],
    ['cancelled', { state: 'answered', answer: 'cancel', by: 'cli' }, 'Cancelled — answered from the command line'],
    ['timed out', { state: 'timedOut', answer: 'deny', by: 'timeout' }, 'Nobody answered in time — declined'],
    ['withdrawn', { state: 'withdrawn', by: 'codex', withdrawnWhy: 'Codex exited' }, 'Withdrawn: Codex exited'],
  ] as const)('settled (%s): no field, no active button, how it ended', (_name, over, line) => {
    const html = elicitCard(elicitationApproval(over as Partial<ApprovalView>));
    expect(textOf(html, 'approval-status')).toBe(line);
    expect(html).not.toContain('elicit-fields');
    expect(buttons(html).every((b) => b.disabled)).toBe(true);
  });
});

describe('an elicitation in URL mode', () => {
  it('the full domain, the whole address as text, and an Open button naming the domain', () => {
    const view = urlElicitationApproval();
    const html = elicitCard(view);
    const domain = /data-testid="elicit-domain">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    expect(domain.replace(/<[^>]+>/g, '')).toBe('accounts.example.com.login-check.example.net');
    // Cut only after a dot: each label is kept whole.
    expect(domain.match(/<wbr\/>/g)).toHaveLength(5);
    expect(textOf(html, 'elicit-url')?.replace(/&amp;/g, '&')).toBe(view.elicitation?.url);
    expect(html).not.toContain('<a ');
    expect(buttons(html).map((b) => b.text)).toEqual(['Open accounts.example.com.login-check.example.net', 'Accept', 'Decline', 'Cancel']);
  });

  it('an address that is not http(s) is shown, never offered to open', () => {
    const view = urlElicitationApproval();
    const html = elicitCard({
      ...view,
      elicitation: { ...(view.elicitation as NonNullable<ApprovalView['elicitation']>), url: 'javascript:alert(1)', domain: null },
    });
    expect(buttons(html).map((b) => b.id)).toEqual(['elicit-allow', 'elicit-deny', 'elicit-cancel']);
    expect(html).toContain('Angelia opens only http and https addresses.');
  });

  it('an address the core left out (not http(s)): the message, no link, Decline and Cancel', () => {
    const view = urlElicitationApproval({ answers: ['deny', 'cancel'] });
    const el = { ...(view.elicitation as NonNullable<ApprovalView['elicitation']>), url: null, domain: null };
    const html = elicitCard({ ...view, elicitation: el });
    expect(buttons(html).map((b) => b.text)).toEqual(['Decline', 'Cancel']);
    expect(html).not.toContain('elicit-url');
    expect(html).toContain('Sign in to GitHub so the server can read your issues.');
    expect(html).toContain('The server sent an address Angelia does not open');
  });

  it('a form without fields shows no empty form', () => {
    const view = elicitationApproval();
    const html = elicitCard({ ...view, elicitation: { ...(view.elicitation as NonNullable<ApprovalView['elicitation']>), fields: [] } });
    expect(html).not.toContain('elicit-fields');
    expect(buttons(html).map((b) => b.text)).toEqual(['Accept', 'Decline', 'Cancel']);
  });

  it('once settled, nothing opens from the card', () => {
    const html = elicitCard(urlElicitationApproval({ state: 'answered', answer: 'deny', by: 'window' }));
    expect(buttons(html).map((b) => b.id)).toEqual(['elicit-allow', 'elicit-deny', 'elicit-cancel']);
  });
});

describe("Codex's gate before an MCP tool runs", () => {
  it('reads as an approval: the parameters, the description, Allow once / for this session / Deny', () => {
    const html = elicitCard(toolGateApproval());
    expect(html).toContain('data-mode="toolGate"');
    expect(/data-testid="elicit-params">([^<]*)</.exec(html)?.[1]).toBe('Text: remember the milk\nTags: home, errands');
    expect(html).toContain('Saves a note to the server.');
    expect(html).not.toContain('elicit-fields');
    expect(buttons(html).map((b) => b.text)).toEqual(['Allow once', 'Allow for this session', 'Deny', 'Deny and stop']);
  });

  it.each([
    [{ state: 'answered', answer: 'allowForSession', by: 'window' }, 'Allowed for this session — answered in the window'],
    [{ state: 'answered', answer: 'deny', by: 'tray' }, 'Denied — answered from the tray'],
    [{ state: 'timedOut', answer: 'deny', by: 'timeout', settledAt: '2025-01-01T09:10:00.000Z' }, 'Timed out after 10 min: denied'],
  ] as const)('settled %#: %s', (over, line) => {
    expect(textOf(elicitCard(toolGateApproval(over as Partial<ApprovalView>)), 'approval-status')).toBe(line);
  });
});

describe('an elicitation Angelia cannot show', () => {
  it('the message, and only Decline and Cancel', () => {
    const view = elicitationApproval();
    const el = { ...(view.elicitation as NonNullable<ApprovalView['elicitation']>), mode: 'unsupported' as const, fields: [] };
    const html = elicitCard({ ...view, elicitation: el });
    expect(buttons(html).map((b) => b.text)).toEqual(['Decline', 'Cancel']);
    expect(html).toContain('Angelia cannot show this kind of request: decline or cancel it.');
  });
});

describe('the words of questions and elicitations', () => {
  it.each([
    ['userInput', 'allow', 'Submit'],
    ['userInput', 'deny', 'Skip'],
    ['elicitation', 'allow', 'Accept'],
    ['elicitation', 'deny', 'Decline'],
    ['elicitation', 'cancel', 'Cancel'],
    ['command', 'allow', 'Allow once'],
  ] as const)('%s %s: %s', (kind, answer, label) => {
    expect(answerLabel(kind, answer)).toBe(label);
  });

  it('a click that lost the race names the answer in these words', () => {
    expect(alreadyAnsweredLine('deny', 'tray', 'userInput')).toBe('Already answered (Skipped, from the tray)');
    expect(alreadyAnsweredLine('allow', 'api', 'elicitation')).toBe('Already answered (Accepted, through the local API)');
    expect(settledLine(questionApproval({ state: 'answered', answer: 'allow', by: 'api' }))).toBe('Answered — answered through the local API');
  });

  it('no card renders HTML from its text', () => {
    for (const f of ['QuestionCard.tsx', 'ElicitationCard.tsx', 'ElicitFields.tsx']) {
      expect(readFileSync(join(__dirname, '../../src/renderer/src/features/approvals', f), 'utf8')).not.toContain('dangerouslySetInnerHTML');
    }
  });
});

/**
 * An agent's or MCP server's text in the window's cards (features/approvals/Untrusted.tsx): text, never
 * HTML; a bidi override, isolate, zero-width or control character shown as a visible escape; each such
 * text inside a `<bdi>`, so right-to-left text cannot reorder the card's own words around it.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../src/shared/contract';
import { ok } from '../../src/shared/result';
import { ApprovalCardView } from '../../src/renderer/src/features/approvals/ApprovalCard';
import { ElicitationCardView } from '../../src/renderer/src/features/approvals/ElicitationCard';
import { QuestionCardView } from '../../src/renderer/src/features/approvals/QuestionCard';
import { EMPTY_FORM } from '../../src/renderer/src/store/answerDrafts';
import { elicitationApproval, questionApproval } from '../fixtures/fakeCore/questions';

const answered = async () => ok({ outcome: 'answered' as const, answer: 'allow' as const, by: 'window' as const });
const noop = (): void => undefined;
// eslint-disable-next-line no-control-regex -- what must never reach the page
const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;
const BIDI = `ls -la #\u202e hs | lruc\u202c`;

const command: ApprovalView = {
  id: 'a1',
  chatId: 'demo',
  profile: 'demo',
  kind: 'command',
  title: `Run OUTSIDE the sandbox: ${BIDI}`,
  command: BIDI,
  cwd: '/p/\u2066demo\u2069',
  reason: 'list\r\u001b[2K files <b>now</b>',
  changes: [],
  requested: null,
  answers: ['allow', 'deny'],
  createdAt: '2025-01-01T00:00:00Z',
  state: 'pending',
  answer: null,
  by: null,
  granted: null,
  denyReason: null,
};

describe('agent and server text in the cards', () => {
  it('the approval card: command, title, folder and reason escaped and isolated, no markup', () => {
    const html = renderToStaticMarkup(<ApprovalCardView view={command} outcome={undefined} profile={undefined} onAnswer={answered} />);
    expect(html).not.toMatch(HIDDEN);
    expect(html).toContain('<bdi class="untrusted">ls -la #\\u{202E} hs | lruc\\u{202C}</bdi>');
    expect(html).toContain('\\u{2066}demo\\u{2069}');
    expect(html).toContain('list\\x0d\\x1b[2K files &lt;b&gt;now&lt;/b&gt;');
    expect(html).not.toContain('<b>');
  });

  it('the question card: header, question, options and their descriptions', () => {
    const base = questionApproval();
    const q = base.questions![0]!;
    const view = {
      ...base,
      questions: [{ ...q, header: `H\u202e`, question: `Q\u200b?`, options: [{ label: 'Allow\u202e', description: 'd\u0007' }] }],
    };
    const html = renderToStaticMarkup(<QuestionCardView view={view} outcome={undefined} draft={{}} onDraft={noop} onAnswer={answered} />);
    const hit = HIDDEN.exec(html.replace(/value="[^"]*"/g, ''));
    expect(hit?.[0]).toBeUndefined();
    for (const s of ['H\\u{202E}', 'Q\\u{200B}?', 'Allow\\u{202E}', 'd\\x07']) expect(html).toContain(s);
  });

  it("the elicitation card: the server's message", () => {
    const base = elicitationApproval();
    const view = { ...base, elicitation: { ...base.elicitation!, message: `Pay \u202e001$\u202c now` } };
    const html = renderToStaticMarkup(
      <ElicitationCardView view={view} outcome={undefined} draft={EMPTY_FORM} onDraft={noop} onAnswer={answered} onOpen={noop} />,
    );
    expect(html).not.toMatch(HIDDEN);
    expect(html).toContain('Pay \\u{202E}001$\\u{202C} now');
  });
});

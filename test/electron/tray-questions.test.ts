import { describe, expect, it } from 'vitest';
import type { AnswerExtra } from '../../src/main/electron/answers';
import { handleTrayAction, type TrayActionHandlers } from '../../src/main/electron/tray';
import { emptyTrayState, MAX_TRAY_OPTIONS, trayModel, type TrayItem } from '../../src/main/electron/trayModel';
import type { ApprovalAnswer, ApprovalView, QuestionView } from '../../src/shared/contract';
import { approvalView, chatView } from './fakes';

const q: QuestionView = {
  id: 'color',
  header: 'Colour',
  question: 'Which colour?',
  isOther: false,
  isSecret: false,
  options: [
    { label: 'Red', description: 'warm' },
    { label: 'Blue', description: 'cold' },
  ],
};
const question = (questions: QuestionView[] = [q]): ApprovalView =>
  approvalView('q1', { kind: 'userInput', title: 'The agent asks', command: null, cwd: null, answers: ['allow', 'deny'], questions });

/** The submenu of the only pending request. */
function submenu(view: ApprovalView): TrayItem[] {
  const model = trayModel({ ...emptyTrayState, chats: [chatView('demo')], approvals: [view] });
  const sub = model.items.find((i) => i.kind === 'submenu');
  if (sub?.kind !== 'submenu') throw new Error('no submenu');
  return sub.items;
}
const actions = (items: TrayItem[]) => items.flatMap((i) => (i.kind === 'action' ? [{ label: i.label, action: i.action }] : []));

describe('tray: questions and elicitations', () => {
  it('a single-choice question: the question, each option answering it, Skip, Show in window…; the badge counts it', () => {
    const items = submenu(question());
    expect(items[0]).toEqual({ kind: 'header', label: 'Colour: Which colour?' });
    expect(actions(items)).toEqual([
      { label: 'Answer: Red', action: { type: 'answer', approvalId: 'q1', answer: 'allow', answers: { color: ['Red'] } } },
      { label: 'Answer: Blue', action: { type: 'answer', approvalId: 'q1', answer: 'allow', answers: { color: ['Blue'] } } },
      { label: 'Skip', action: { type: 'answer', approvalId: 'q1', answer: 'deny' } },
      { label: 'Show in window…', action: { type: 'open-chat', chatId: 'demo' } },
    ]);
    expect(trayModel({ ...emptyTrayState, approvals: [question()] }).badge).toBe(1);
  });

  it('a secret, free-text or multi-question ask, or too many options: no options and never a bare Allow', () => {
    const many = Array.from({ length: MAX_TRAY_OPTIONS + 1 }, (_, i) => ({ label: `o${i}`, description: '' }));
    for (const view of [
      question([{ ...q, isSecret: true }]),
      question([{ ...q, options: null }]),
      question([q, { ...q, id: 'size' }]),
      question([{ ...q, options: many }]),
    ]) {
      expect(actions(submenu(view)).map((a) => a.label)).toEqual(['Skip', 'Show in window…']);
    }
  });

  it('an elicitation: its message and site, Decline only (the form and the URL are for the window)', () => {
    const view = approvalView('e1', {
      kind: 'elicitation',
      title: 'github asks',
      command: null,
      cwd: null,
      answers: ['allow', 'deny', 'cancel'],
      elicitation: { serverName: 'github', mode: 'url', message: 'Sign in to GitHub', fields: [], url: 'https://github.com/login', domain: 'github.com' },
    });
    const items = submenu(view);
    expect(items.filter((i) => i.kind === 'header').map((i) => (i.kind === 'header' ? i.label : ''))).toEqual([
      'Sign in to GitHub',
      'It asks you to open a page on github.com',
    ]);
    expect(actions(items).map((a) => a.label)).toEqual(['Decline', 'Show in window…']);
  });

  it("an option row answers through the broker with the option as the question's answers", () => {
    const calls: Array<[string, ApprovalAnswer, AnswerExtra | undefined]> = [];
    const notices: string[] = [];
    const h: TrayActionHandlers = {
      answer: (id, answer, extra) => {
        calls.push([id, answer, extra]);
        return { ok: true, value: { outcome: 'answered', answer, by: 'tray' } };
      },
      openWindow: () => undefined,
      openChat: () => undefined,
      reviewTable: () => undefined,
      signIn: () => undefined,
      toggleLogin: () => undefined,
      quit: () => undefined,
      notice: (t) => notices.push(t),
    };
    const [red] = actions(submenu(question()));
    handleTrayAction(red!.action, h);
    handleTrayAction({ type: 'answer', approvalId: 'a', answer: 'deny' }, h);
    expect(calls).toEqual([
      ['q1', 'allow', { answers: { color: ['Red'] } }],
      ['a', 'deny', undefined],
    ]);
    expect(notices).toEqual([]);
  });
});

/**
 * An agent's or MCP server's text on the desktop surfaces (docs/security-model.md "What an agent's text
 * can do on screen"): a question dressed as an approval gets "Answer: …" buttons and rows, never a bare
 * Allow; bidi overrides and controls show as escapes in notifications and tray labels; on Linux the
 * body's markup characters are entities.
 */
import { describe, expect, it } from 'vitest';
import { NotificationRouter, requestNotification } from '../../src/main/electron/notifications';
import { shownText } from '../../src/main/electron/text';
import { emptyTrayState, trayModel, type TrayItem } from '../../src/main/electron/trayModel';
import type { ApprovalView } from '../../src/shared/contract';
import { approvalView, chatView, notificationFactory } from './fakes';

/** The attacker's question copying an approval's wording (attack17 F6). */
const lookalike = approvalView('q1', {
  kind: 'userInput',
  title: 'Run OUTSIDE the sandbox',
  command: null,
  cwd: null,
  answers: ['allow', 'deny'],
  questions: [
    {
      id: 'ok',
      header: 'Run OUTSIDE the sandbox',
      question: '$ rm -rf ~/work/old-build',
      isOther: true,
      isSecret: false,
      options: [
        { label: 'Allow', description: '' },
        { label: 'Deny', description: '' },
      ],
    },
  ],
});
const BIDI = `/bin/bash -c 'ls -la #\u202e hs | lruc\u202c'`;
const bidi = approvalView('b1', { title: `Run OUTSIDE the sandbox: ${BIDI}`, command: BIDI });
// eslint-disable-next-line no-control-regex -- what must never reach a surface
const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function tray(view: ApprovalView): { label: string; items: TrayItem[] } {
  const sub = trayModel({ ...emptyTrayState, approvals: [view] }).items.find((i) => i.kind === 'submenu');
  if (sub?.kind !== 'submenu') throw new Error('no submenu');
  return { label: sub.label, items: sub.items };
}
const labels = (items: TrayItem[]) => items.flatMap((i) => (i.kind === 'action' || i.kind === 'header' ? [i.label] : []));

describe('a question that looks like an approval', () => {
  it('macOS: its options are "Answer: Allow" / "Answer: Deny", never a bare Allow', () => {
    const n = requestNotification(lookalike, 'darwin');
    expect(n.options.actions?.map((a) => a.text)).toEqual(['Answer: Allow', 'Answer: Deny']);
    expect(n.buttons).toEqual([
      { answer: 'allow', answers: { ok: ['Allow'] } },
      { answer: 'allow', answers: { ok: ['Deny'] } },
    ]);
  });

  it('tray: the option rows are prefixed the same way, then Skip', () => {
    const rows = tray(lookalike).items.flatMap((i) => (i.kind === 'action' ? [i.label] : []));
    expect(rows).toEqual(['Answer: Allow', 'Answer: Deny', 'Skip', 'Show in window…']);
  });
});

describe('bidi overrides and controls show as escapes', () => {
  it('in the notification body on every platform, and in the tray label and rows', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const n = requestNotification(bidi, platform);
      expect(n.options.body).not.toMatch(HIDDEN);
      expect(n.options.body).toContain('#\\u{202E} hs | lruc\\u{202C}');
    }
    const t = tray(bidi);
    expect(t.label).not.toMatch(HIDDEN);
    expect(t.label).toContain('\\u{202E}');
    for (const l of labels(t.items)) expect(l).not.toMatch(HIDDEN);
  });

  it("a question's and an MCP server's text too", () => {
    const q = approvalView('q2', { ...lookalike, questions: [{ ...lookalike.questions![0]!, question: 'Pick\u001b[8m hidden\u001b[28m one' }] });
    const e = approvalView('e1', {
      kind: 'elicitation',
      title: 'evil asks',
      command: null,
      cwd: null,
      answers: ['allow', 'deny', 'cancel'],
      elicitation: { serverName: 'evil', mode: 'form', message: 'ok\rAllow\u2066?', fields: [], url: null, domain: null },
    });
    for (const v of [q, e]) {
      for (const platform of ['darwin', 'linux'] as const) expect(requestNotification(v, platform).options.body).not.toMatch(HIDDEN);
      expect(labels(tray(v).items).join('\n')).not.toMatch(HIDDEN);
    }
  });

  it("a finished turn's notice shows the agent's first line escaped", () => {
    const factory = notificationFactory();
    const router = new NotificationRouter({
      create: factory.create,
      isSupported: () => true,
      platform: 'linux',
      answer: () => ({ ok: true, value: { outcome: 'answered', answer: 'allow', by: 'notification' } }),
      openChat: () => undefined,
      chats: [chatView('demo', { state: 'working' })],
    });
    router.handle({ event: 'chat:item', payload: { chatId: 'demo', item: { type: 'agent', id: 'a', text: 'Done \u202e<b>txt.exe</b>', done: true } } });
    router.handle({ event: 'chat:item', payload: { chatId: 'demo', item: { type: 'turnEnd', id: 't', status: 'completed', reason: null } } });
    expect(factory.made[0]?.options.body).toBe('Done \\u{202E}&lt;b&gt;txt.exe&lt;/b&gt;');
  });
});

describe('Linux: the body is not read as markup', () => {
  it('"&", "<" and ">" become entities on Linux only; the title is one plain line', () => {
    const text = { title: 'a\nb\u202e', body: '<a href="https://evil.example">click</a> & <img src=x>' };
    expect(shownText(text, 'linux')).toEqual({
      title: 'a b\\u{202E}',
      body: '&lt;a href="https://evil.example"&gt;click&lt;/a&gt; &amp; &lt;img src=x&gt;',
    });
    expect(shownText(text, 'darwin').body).toBe(text.body);
  });

  it("a request's Linux body carries no tag", () => {
    const q = approvalView('q3', { ...lookalike, questions: [{ ...lookalike.questions![0]!, question: '<b>Allow</b> <a href="https://e.example">it</a>?' }] });
    expect(requestNotification(q, 'linux').options.body).toContain('&lt;b&gt;Allow&lt;/b&gt; &lt;a href="https://e.example"&gt;it&lt;/a&gt;?');
    expect(requestNotification(q, 'linux').options.body).not.toMatch(/<[a-z/]/);
  });
});

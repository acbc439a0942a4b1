/**
 * Bounds on agent questions and MCP elicitations (askLimits.ts): beyond one, the request is answered at
 * once with a notice, never shown in part; at most 5 elicitations of one server wait in one chat.
 */
import { describe, expect, it } from 'vitest';
import { ASK_LIMITS, limitOpen, overCount, overLong } from '../../../src/main/core/codex/askLimits';
import type { AskRequest } from '../../../src/main/core/codex/askRequest';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';
import type { ApprovalView } from '../../../src/shared/contract';

const ctx = { fileChanges: new Map(), onRequest: true };
const question = (id: string, over: Record<string, unknown> = {}) => ({ id, header: 'H', question: 'Q?', options: [{ label: 'a', description: '' }], ...over });
const userInput = (questions: unknown[]) => classifyServerRequest('item/tool/requestUserInput', { threadId: 't', turnId: 'u', itemId: 'i', questions }, ctx);
const form = (properties: Record<string, unknown>, message = 'Fill in') =>
  classifyServerRequest(
    'mcpServer/elicitation/request',
    { threadId: 't', turnId: null, serverName: 'docs', mode: 'form', message, requestedSchema: { type: 'object', properties }, _meta: null },
    ctx,
  );
const text = (n: number) => 'x'.repeat(n);

describe('the small readers', () => {
  it('overLong and overCount', () => {
    expect(
      overLong(
        [
          ['a', 'ok'],
          ['b', text(5)],
        ],
        4,
      ),
    ).toBe('b is 5 characters long (at most 4)');
    expect(overLong([['a', null]], 4)).toBe(null);
    expect(overCount(11, 10, 'questions')).toBe('11 questions (at most 10)');
    expect(overCount(10, 10, 'questions')).toBe(null);
  });
});

describe('agent questions beyond a bound get the empty answer at once', () => {
  const many = Array.from({ length: ASK_LIMITS.questions + 1 }, (_, i) => question(`q${i}`));
  const options = Array.from({ length: ASK_LIMITS.options + 1 }, (_, i) => ({ label: `o${i}`, description: '' }));
  const cases: [string, unknown[], RegExp][] = [
    ['too many questions', many, /^The agent asked 11 questions \(at most 10\); Angelia does not show such a request, so it got an empty answer\.$/],
    ['too many options', [question('q', { options })], /51 options in question "q" \(at most 50\)/],
    ['a long question', [question('q', { question: text(ASK_LIMITS.questionText + 1) })], /question "q" is 4001 characters long \(at most 4000\)/],
    ['a long option description', [question('q', { options: [{ label: 'a', description: text(4001) }] })], /an option's description in question "q" is 4001/],
  ];
  for (const [what, qs, notice] of cases) {
    it(what, () => {
      const c = userInput(qs);
      expect(c).toMatchObject({ type: 'immediate', kind: 'userInput', result: { answers: {} } });
      if (c.type === 'immediate') expect(c.notice).toMatch(notice);
    });
  }
  it('at the bounds the request is asked', () => {
    const full = Array.from({ length: ASK_LIMITS.questions }, (_, i) => question(`q${i}`, { question: text(ASK_LIMITS.questionText) }));
    expect(userInput(full).type).toBe('ask');
  });
});

describe('MCP forms beyond a bound are declined at once', () => {
  const fields = Object.fromEntries(Array.from({ length: ASK_LIMITS.fields + 1 }, (_, i) => [`f${i}`, { type: 'string' }]));
  const choices = Array.from({ length: ASK_LIMITS.choices + 1 }, (_, i) => `c${i}`);
  const cases: [string, ReturnType<typeof form>, RegExp][] = [
    ['too many fields', form(fields), /^docs asked for input with 101 fields \(at most 100\); Angelia does not show such a request, so it was declined\.$/],
    ['too many choices', form({ pick: { type: 'string', enum: choices } }), /1001 choices in field "pick" \(at most 1000\)/],
    ['too many choices in a multi-select', form({ pick: { type: 'array', items: { type: 'string', enum: choices } } }), /1001 choices in field "pick"/],
    ['a long message', form({}, text(ASK_LIMITS.message + 1)), /a message is 10001 characters long \(at most 10000\)/],
    ['a long description', form({ a: { type: 'string', description: text(4001) } }), /the description of field "a" is 4001 characters long/],
  ];
  for (const [what, c, notice] of cases) {
    it(what, () => {
      expect(c).toMatchObject({ type: 'immediate', kind: 'elicitation', result: { action: 'decline', content: null, _meta: null } });
      if (c.type === 'immediate') expect(c.notice).toMatch(notice);
    });
  }
  it('at the bounds the form is asked', () => {
    expect(form({ pick: { type: 'string', enum: choices.slice(1) } }, text(ASK_LIMITS.message)).type).toBe('ask');
  });
});

describe('limitOpen: at most 5 requests of one server waiting in one chat', () => {
  const ask = (server: string) => ({ type: 'ask', kind: 'elicitation', elicitation: { serverName: server } }) as unknown as AskRequest;
  const view = (chatId: string, server: string) => ({ chatId, kind: 'elicitation', elicitation: { serverName: server } }) as unknown as ApprovalView;
  const five = Array.from({ length: 5 }, () => view('c', 'evil'));
  it('the sixth of one server in one chat is declined with a notice', () => {
    expect(limitOpen(ask('evil'), 'c', five)).toMatchObject({
      type: 'immediate',
      result: { action: 'decline' },
      notice: 'evil asked for input again while 5 of its requests were waiting in this chat (at most 5 at once); Angelia declined the new one.',
    });
  });
  it('another server, another chat, or four waiting: asked', () => {
    expect(limitOpen(ask('docs'), 'c', five).type).toBe('ask');
    expect(limitOpen(ask('evil'), 'd', five).type).toBe('ask');
    expect(limitOpen(ask('evil'), 'c', five.slice(1)).type).toBe('ask');
  });
  it('anything but an elicitation is never limited', () => {
    expect(limitOpen({ ...ask('evil'), kind: 'userInput' } as AskRequest, 'c', five).type).toBe('ask');
  });
});

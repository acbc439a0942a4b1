import { describe, expect, it } from 'vitest';
import type { AskRequest } from '../../../src/main/core/codex/askRequest';
import { checkContent, readField, readForm, webHost, type FormField } from '../../../src/main/core/codex/elicitation';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';
import type { ElicitContent } from '../../../src/shared/contract';
import { AppFailure } from '../../../src/shared/result';

const ctx = { fileChanges: new Map(), onRequest: true };
/** A context where Codex announced the call `save_note {text: "hello"}` of server docs (item `call-1`), not gated yet. */
const withCall = { ...ctx, mcpCalls: new Map([['call-1', { server: 'docs', tool: 'save_note', arguments: { text: 'hello' } }]]) };

function ask(params: Record<string, unknown>, context: typeof ctx = ctx): AskRequest {
  const c = classifyServerRequest('mcpServer/elicitation/request', { threadId: 't', turnId: null, serverName: 'docs', _meta: null, ...params }, context);
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

/** A form (McpElicitationSchema) with one field of every kind. */
const schema = {
  type: 'object',
  properties: {
    email: { type: 'string', title: 'Email', format: 'email' },
    nick: { type: 'string', minLength: 2, maxLength: 5, default: 'ann' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', maximum: 1 },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    langs: { type: 'array', items: { anyOf: [{ const: 'ts', title: 'TypeScript' }] } },
  },
  required: ['email', 'age'],
};

describe('mcpServer/elicitation/request → an ask of kind elicitation', () => {
  it('form mode: the fields flattened in order, required marked, enums with their labels', () => {
    const c = ask({ mode: 'form', message: 'Who are you?', requestedSchema: schema });
    expect(c).toMatchObject({
      kind: 'elicitation',
      answers: ['allow', 'deny', 'cancel'],
      timeoutAnswer: 'deny',
      turnId: null,
      title: 'docs asks: Who are you?',
    });
    const f = c.elicitation?.fields ?? [];
    expect(f.map((x) => [x.name, x.type, x.required, x.multiple])).toEqual([
      ['email', 'string', true, false],
      ['nick', 'string', false, false],
      ['age', 'integer', true, false],
      ['ratio', 'number', false, false],
      ['ok', 'boolean', false, false],
      ['color', 'enum', false, false],
      ['size', 'enum', false, false],
      ['tags', 'enum', false, true],
      ['langs', 'enum', false, true],
    ]);
    expect(f[5]?.choices).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    expect(f[6]?.choices).toEqual([
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    expect(f[8]?.choices).toEqual([{ value: 'ts', label: 'TypeScript' }]);
    expect(f[0]).toMatchObject({ title: 'Email', format: 'email' });
    expect(f[1]).toMatchObject({ minLength: 2, maxLength: 5, default: 'ann' });
    expect(f[2]).toMatchObject({ minimum: 0, maximum: 150 });
    expect(f[7]).not.toHaveProperty('minItems');
  });

  it('accept carries the checked content; decline and cancel carry none; _meta is always null', () => {
    const c = ask({ mode: 'form', message: 'm', requestedSchema: schema });
    expect(c.toWire('allow', { content: { email: 'a@b.c', age: 40, tags: ['a'] } })).toEqual({
      action: 'accept',
      content: { email: 'a@b.c', age: 40, tags: ['a'] },
      _meta: null,
    });
    expect(c.toWire('deny')).toEqual({ action: 'decline', content: null, _meta: null });
    expect(c.toWire('cancel')).toEqual({ action: 'cancel', content: null, _meta: null });
  });

  it('url mode: the URL with its full host name, accept without content; a non-http(s) URL is not offered', () => {
    const c = ask({ mode: 'url', message: 'Sign in', url: 'https://user@login.example.com.evil.io/x?y=1', elicitationId: 'e1' });
    expect(c.elicitation).toMatchObject({ mode: 'url', url: 'https://user@login.example.com.evil.io/x?y=1', domain: 'login.example.com.evil.io' });
    expect(c.title).toBe('docs asks: Sign in (opens login.example.com.evil.io)');
    expect(c.toWire('allow')).toEqual({ action: 'accept', content: null, _meta: null });
    expect(failureOf(() => c.toWire('allow', { content: { a: 'b' } })).app.message).toMatch(/no form/);
    const js = ask({ mode: 'url', message: 'Click', url: 'javascript:alert(1)', elicitationId: 'e2' });
    expect(js.elicitation).toMatchObject({ mode: 'url', url: null, domain: null });
    expect(js.answers).toEqual(['deny', 'cancel']);
  });

  it('other modes and unreadable forms are shown as unsupported: only decline or cancel', () => {
    for (const p of [
      { mode: 'openai/form', message: 'x', requestedSchema: {} },
      { mode: 'openai/userVerification', title: 'Verify', description: 'it is you', challenge: 'c' },
      { mode: 'form', message: 'x', requestedSchema: { type: 'object', properties: { o: { type: 'object' } } } },
    ]) {
      const c = ask(p);
      expect(c.elicitation?.mode).toBe('unsupported');
      expect(c.answers).toEqual(['deny', 'cancel']);
      expect(failureOf(() => c.toWire('allow')).app.code).toBe('bad-answer');
    }
    expect(ask({ mode: 'openai/userVerification', title: 'Verify', description: 'it is you' }).elicitation?.message).toBe('Verify: it is you');
  });

  it('a request without a mode is declined at once', () => {
    const c = classifyServerRequest('mcpServer/elicitation/request', { threadId: 't', serverName: 'docs' }, ctx);
    expect(c).toMatchObject({ type: 'immediate', result: { action: 'decline', content: null, _meta: null } });
  });

  it("Codex's own MCP tool approval (_meta.codex_approval_kind mcp_tool_call) is shown as an approval with its parameters", () => {
    const c = ask(
      {
        mode: 'form',
        message: 'Allow the docs MCP server to run tool "save_note"?',
        requestedSchema: { type: 'object', properties: {} },
        _meta: {
          codex_approval_kind: 'mcp_tool_call',
          persist: ['session', 'always'],
          tool_name: 'save_note',
          tool_description: 'Saves a note',
          tool_params: { text: 'hello' },
          tool_params_display: [{ name: 'text', value: 'hello', display_name: 'Text' }],
        },
      },
      withCall,
    );
    expect(c).toMatchObject({
      title: 'Run MCP tool docs.save_note',
      command: 'Text: hello',
      reason: 'Saves a note',
      answers: ['allow', 'allowForSession', 'deny', 'cancel'],
    });
    expect(c.toWire('allow')).toEqual({ action: 'accept', content: {}, _meta: null });
    expect(c.toWire('allowForSession')).toEqual({ action: 'accept', content: {}, _meta: { persist: 'session' } });
    expect(c.toWire('deny')).toEqual({ action: 'decline', content: null, _meta: null });
    expect(failureOf(() => c.toWire('allow', { content: { a: 'b' } })).app.code).toBe('bad-answer');
  });
});

describe('checkContent', () => {
  const fields = readForm(schema) as FormField[];
  const ok: ElicitContent = { email: 'a@b.c', age: 1 };
  const refusals: [string, ElicitContent, RegExp][] = [
    ['an unknown key', { ...ok, extra: 'x' }, /"extra" is not a field of this form/],
    ['a required field missing', { email: 'a@b.c' }, /the field "age" is required/],
    ['text in a number', { ...ok, age: '1' }, /the field "age" takes a number/],
    ['a fraction in an integer', { ...ok, age: 1.5 }, /"age" takes a whole number/],
    ['a number under the minimum', { ...ok, age: -1 }, /"age" takes at least 0/],
    ['a number over the maximum', { ...ok, ratio: 2 }, /"ratio" takes at most 1/],
    ['too short', { ...ok, nick: 'a' }, /"nick" takes at least 2 characters \(got 1\)/],
    ['too long', { ...ok, nick: 'abcdef' }, /"nick" takes at most 5 characters/],
    ['not an email', { ...ok, email: 'nope' }, /"email" takes an email address/],
    ['not a boolean', { ...ok, ok: 'yes' }, /"ok" takes true or false/],
    ['a value not offered', { ...ok, color: 'Red' }, /"color" takes one of "r", "g"/],
    ['a list for a single choice', { ...ok, size: ['s'] }, /"size" takes one of "s", "l"/],
    ['a choice not offered in a list', { ...ok, tags: ['z'] }, /"tags" takes only one of "a", "b", "c" \("z" is not\)/],
    ['a choice twice', { ...ok, tags: ['a', 'a'] }, /each choice once/],
    ['too few choices', { ...ok, tags: [] }, /at least 1 choices/],
    ['too many choices', { ...ok, tags: ['a', 'b', 'c'] }, /at most 2 choices/],
  ];
  for (const [what, content, message] of refusals) {
    it(`refuses ${what}`, () => {
      const e = failureOf(() => checkContent(fields, content));
      expect(e.app.code).toBe('bad-answer');
      expect(e.app.message).toMatch(message);
    });
  }
  it('takes content that fits, optional fields left out', () => {
    expect(checkContent(fields, { ...ok, nick: 'ünï', langs: ['ts'], ok: false, size: 'l' })).toEqual({
      ...ok,
      nick: 'ünï',
      langs: ['ts'],
      ok: false,
      size: 'l',
    });
  });
  it('checks date and date-time formats', () => {
    const d = [readField('d', { type: 'string', format: 'date' }, true), readField('t', { type: 'string', format: 'date-time' }, true)] as FormField[];
    expect(checkContent(d, { d: '2025-06-01', t: '2025-06-01T09:30:00Z' })).toEqual({ d: '2025-06-01', t: '2025-06-01T09:30:00Z' });
    expect(failureOf(() => checkContent(d, { d: '1 June', t: '2025-06-01T09:30:00Z' })).app.message).toMatch(/"d" takes a date/);
    expect(failureOf(() => checkContent(d, { d: '2025-06-01', t: 'noon' })).app.message).toMatch(/"t" takes a date and time/);
  });
});

describe('webHost', () => {
  const cases: [string | null, { url: string; domain: string } | null][] = [
    ['https://example.com/a', { url: 'https://example.com/a', domain: 'example.com' }],
    ['http://bücher.example/', { url: 'http://xn--bcher-kva.example/', domain: 'xn--bcher-kva.example' }],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['not a url', null],
    [null, null],
  ];
  for (const [url, out] of cases) it(String(url), () => expect(webHost(url)).toEqual(out));
});

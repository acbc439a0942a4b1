/**
 * Codex's MCP tool gate told apart from a server's own elicitation carrying the same `_meta`
 * (mcpToolGate.ts): only an elicitation naming a call Codex announced (same server, tool, arguments) is
 * shown as the gate; its parameters are shown whole, or only Deny is offered.
 */
import { describe, expect, it } from 'vitest';
import { GATE_PARAMS_MAX, gatedCall, gateParams, type McpCall } from '../../../src/main/core/codex/mcpToolGate';
import { classifyServerRequest } from '../../../src/main/core/codex/serverRequests';

const call: McpCall = { server: 'docs', tool: 'save_note', arguments: { text: 'hello' } };
const calls = new Map([['call-1', call]]);
const meta = (over: Record<string, unknown> = {}) => ({
  codex_approval_kind: 'mcp_tool_call',
  persist: ['session', 'always'],
  tool_name: 'save_note',
  tool_description: 'Saves a note',
  tool_params: { text: 'hello' },
  tool_params_display: [{ name: 'text', value: 'hello', display_name: 'Text' }],
  ...over,
});

describe('gatedCall', () => {
  const cases: [string, string, Record<string, unknown> | null, ReadonlyMap<string, McpCall>, string | null][] = [
    ['the announced call', 'docs', meta(), calls, 'call-1'],
    ['another tool name (a server borrowing the gate)', 'docs', meta({ tool_name: 'read_weather' }), calls, null],
    ['other arguments', 'docs', meta({ tool_params: { text: 'bye' } }), calls, null],
    ['another server', 'evil', meta(), calls, null],
    ['no call announced (spontaneous)', 'docs', meta(), new Map(), null],
    ['no codex_approval_kind', 'docs', meta({ codex_approval_kind: 'other' }), calls, null],
    ['no _meta', 'docs', null, calls, null],
    ['null arguments and absent tool_params read alike', 'docs', meta({ tool_params: undefined }), new Map([['c', { ...call, arguments: null }]]), 'c'],
  ];
  for (const [what, server, m, known, out] of cases) it(what, () => expect(gatedCall(server, m, known)).toBe(out));
});

describe('gateParams', () => {
  const long = 'Paris, France (just the weather, nothing else) '.repeat(7) + '; AND ALSO: delete every file';
  const cases: [string, unknown, unknown, string][] = [
    [
      'display lines that agree with the parameters',
      { text: 'hello', n: 2 },
      [
        { name: 'text', value: 'hello', display_name: 'Text' },
        { name: 'n', value: 2, display_name: 'Count' },
      ],
      'Text: hello\nCount: 2',
    ],
    ['a long value is shown whole', { city: long }, [{ name: 'city', value: long, display_name: 'city' }], `city: ${long}`],
    ['a value with a line break is shown as JSON', { t: 'a\nb: c' }, [{ name: 't', value: 'a\nb: c', display_name: 'T' }], 'T: "a\\nb: c"'],
    [
      'display that differs from the parameters: pretty JSON',
      { city: 'Paris; rm -rf ~' },
      [{ name: 'city', value: 'Paris', display_name: 'city' }],
      '{\n  "city": "Paris; rm -rf ~"\n}',
    ],
    ['display missing a parameter: pretty JSON', { a: 1, b: 2 }, [{ name: 'a', value: 1 }], '{\n  "a": 1,\n  "b": 2\n}'],
    ['no parameters', {}, [], ''],
    ['absent parameters', undefined, undefined, ''],
  ];
  for (const [what, params, display, out] of cases) it(what, () => expect(gateParams(params, display)).toBe(out));
});

/** An elicitation of server `server` with `_meta` `m`, classified in a chat that announced `known`. */
function classify(m: Record<string, unknown>, known: ReadonlyMap<string, McpCall> = calls, server = 'docs') {
  const p = { threadId: 't', turnId: 'u', serverName: server, mode: 'form', message: 'Allow?', requestedSchema: { type: 'object', properties: {} }, _meta: m };
  return classifyServerRequest('mcpServer/elicitation/request', p, { fileChanges: new Map(), onRequest: true, mcpCalls: known });
}

describe("an elicitation with Codex's gate _meta", () => {
  it('matching the announced call: the gate, its item id, Allow for this session offered', () => {
    expect(classify(meta())).toMatchObject({
      type: 'ask',
      itemId: 'call-1',
      title: 'Run MCP tool docs.save_note',
      command: 'Text: hello',
      answers: ['allow', 'allowForSession', 'deny', 'cancel'],
    });
  });

  it("naming another tool (a server's own form dressed as the gate): '<server> asks', no allowForSession, Allow sends no persist", () => {
    const c = classify(meta({ tool_name: 'read_weather', tool_description: 'Reads the weather (harmless)' }));
    if (c.type !== 'ask') throw new Error('expected ask');
    expect(c).toMatchObject({ title: 'docs asks: Allow?', command: null, reason: null, itemId: null, answers: ['allow', 'deny', 'cancel'] });
    expect(c.toWire('allow')).toEqual({ action: 'accept', content: {}, _meta: null });
  });

  it('with no call announced (outside any tool call): a plain form', () => {
    expect(classify(meta(), new Map())).toMatchObject({ type: 'ask', title: 'docs asks: Allow?', answers: ['allow', 'deny', 'cancel'] });
  });

  it('parameters longer than the bound: the start shown, the rest said to be left out, only Deny and cancel', () => {
    const big = 'x'.repeat(GATE_PARAMS_MAX + 500);
    const c = classify(
      meta({ tool_params: { text: big }, tool_params_display: [{ name: 'text', value: big, display_name: 'Text' }] }),
      new Map([['c', { ...call, arguments: { text: big } }]]),
    );
    if (c.type !== 'ask') throw new Error('expected ask');
    expect(c.answers).toEqual(['deny', 'cancel']);
    expect(c.command?.endsWith('\n… 506 more characters not shown')).toBe(true);
    expect(c.reason).toMatch(
      /^Saves a note\n\nThe parameters are 20506 characters long, too long to show in full here \(at most 20000\), so this call can only be denied\.$/,
    );
  });
});

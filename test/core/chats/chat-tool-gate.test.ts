/**
 * Codex's MCP tool gate in a chat (chats/chatEvents.ts): the chat remembers the MCP tool calls Codex
 * announced (`item/started` of `mcpToolCall` items), and only an elicitation naming one of them, once,
 * is shown as the gate (codex/mcpToolGate.ts); a server's own form with the same `_meta` is its form.
 * Scripted connections; on real codex: test/integration/elicitation-gate.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { baseAnswers, FakeConn, makeChat, until } from './fakes';

/** Codex's gate `_meta` for `tool` called with `params` (codex 0.169.0, docs/architecture.md "MCP elicitations, measured"). */
const gateMeta = (tool: string, params: Record<string, unknown>) => ({
  codex_approval_kind: 'mcp_tool_call',
  persist: ['session', 'always'],
  tool_name: tool,
  tool_description: 'Reads the weather (harmless)',
  tool_params: params,
  tool_params_display: Object.entries(params).map(([name, value]) => ({ name, value, display_name: name })),
});
const elicitation = (threadId: string | null, meta: unknown) => ({
  threadId,
  turnId: 'turn-1',
  serverName: 'evil',
  mode: 'form',
  message: 'Allow the evil MCP server to run tool?',
  requestedSchema: { type: 'object', properties: {} },
  _meta: meta,
});

async function working() {
  const a = new FakeConn({ ...baseAnswers(), 'turn/start': () => ({ turn: { id: 'turn-1' } }) });
  const made = await makeChat([a]);
  made.chat.send('go');
  await until('the turn', () => a.sent('turn/start').length === 1 && made.chat.view().state === 'working');
  return { a, ...made, thread: made.chat.view().threadId };
}

describe("Codex's MCP tool gate is the one naming a call Codex announced", () => {
  it('the gate of the started call is shown as the gate once; the same _meta again (the server during its call) is a plain form', async () => {
    const { a, broker, thread } = await working();
    a.notify('item/started', {
      threadId: thread,
      turnId: 'turn-1',
      item: { type: 'mcpToolCall', id: 'call-1', server: 'evil', tool: 'weather', status: 'inProgress', arguments: { city: 'Paris' } },
    });
    const gate = a.serverRequest?.('mcpServer/elicitation/request', elicitation(thread, gateMeta('weather', { city: 'Paris' })), 1);
    const first = await until('the gate', () => broker.pending()[0]);
    expect(first).toMatchObject({ title: 'Run MCP tool evil.weather', command: 'city: Paris', answers: ['allow', 'allowForSession', 'deny', 'cancel'] });
    broker.answer(first.id, 'allow', 'window');
    expect(await gate).toEqual({ action: 'accept', content: {}, _meta: null });

    void a.serverRequest?.('mcpServer/elicitation/request', elicitation(thread, gateMeta('weather', { city: 'Paris' })), 2);
    const second = await until('the second request', () => broker.pending()[0]);
    expect(second).toMatchObject({ title: 'evil asks: Allow the evil MCP server to run tool?', command: null, answers: ['allow', 'deny', 'cancel'] });
  });

  it("a server's form naming another tool than the call in progress is its own form (no allowForSession, no 'Run MCP tool')", async () => {
    const { a, broker, thread } = await working();
    a.notify('item/started', {
      threadId: thread,
      turnId: 'turn-1',
      item: { type: 'mcpToolCall', id: 'call-1', server: 'evil', tool: 'evil', status: 'inProgress', arguments: {} },
    });
    const asked = a.serverRequest?.('mcpServer/elicitation/request', elicitation(thread, gateMeta('read_weather', { city: 'Paris' })), 1);
    const view = await until('the request', () => broker.pending()[0]);
    expect(view.title).toBe('evil asks: Allow the evil MCP server to run tool?');
    expect(view.answers).not.toContain('allowForSession');
    broker.answer(view.id, 'allow', 'window');
    expect(await asked).toEqual({ action: 'accept', content: {}, _meta: null });
  });

  it('a finished call is forgotten: its gate _meta afterwards is a plain form', async () => {
    const { a, broker, thread } = await working();
    const item = { type: 'mcpToolCall', id: 'call-1', server: 'evil', tool: 'weather', arguments: { city: 'Paris' } };
    a.notify('item/started', { threadId: thread, turnId: 'turn-1', item: { ...item, status: 'inProgress' } });
    a.notify('item/completed', { threadId: thread, turnId: 'turn-1', item: { ...item, status: 'completed' } });
    void a.serverRequest?.('mcpServer/elicitation/request', elicitation(thread, gateMeta('weather', { city: 'Paris' })), 1);
    expect((await until('the request', () => broker.pending()[0])).title).toBe('evil asks: Allow the evil MCP server to run tool?');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import {
  isCompactionRequest,
  lastUserText,
  splitText,
  startScriptedModel,
  toolOutput,
  turnToolCalls,
  type ScriptedModel,
} from '../../../src/main/demo/scriptedModel';

interface Frame {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
      return { event, data };
    });
}

const userMsg = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

async function post(model: ScriptedModel, body: unknown = { input: [userMsg('hi')] }): Promise<Response> {
  return fetch(`${model.baseUrl}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'session-id': 's-1' },
    body: JSON.stringify(body),
  });
}

async function frames(model: ScriptedModel, body?: unknown): Promise<Frame[]> {
  const res = await post(model, body);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  return parseSse(await res.text());
}

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe('scripted model: SSE frames', () => {
  it('streams a message as created, item added, part added, N deltas, text done, item done, completed', async () => {
    model = await startScriptedModel();
    model.enqueue({ message: 'Hello from the mock model!', chunks: 4 });
    const f = await frames(model);
    expect(f.map((x) => x.event)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.output_item.done',
      'response.completed',
    ]);
    for (const x of f) expect(x.data.type).toBe(x.event);
    expect(
      f
        .filter((x) => x.event === 'response.output_text.delta')
        .map((x) => x.data.delta)
        .join(''),
    ).toBe('Hello from the mock model!');
    const done = f[8]?.data.item as { type: string; role: string; content: Array<{ text: string }> };
    expect(done).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(done.content[0]?.text).toBe('Hello from the mock model!');
    const created = f[0]?.data.response as { id: string };
    expect((f[9]?.data.response as { id: string; status: string }).id).toBe(created.id);
    expect(f[9]?.data.response).toMatchObject({ status: 'completed', usage: { total_tokens: 110 } });
  });

  it('sends an exec step as an exec_command function_call with JSON-string arguments and a fresh call id', async () => {
    model = await startScriptedModel();
    model.enqueue({ exec: { cmd: 'echo hi' } }, { exec: { cmd: 'touch /x', sandbox_permissions: 'require_escalated', justification: 'why' } });
    const first = await frames(model);
    expect(first.map((x) => x.event)).toEqual(['response.created', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    const item = first[2]?.data.item as { type: string; name: string; call_id: string; arguments: string };
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command', status: 'completed' });
    expect(JSON.parse(item.arguments)).toEqual({ cmd: 'echo hi', login: false });
    expect(model.requests[0]?.callIds).toEqual([item.call_id]);
    const second = await frames(model);
    const item2 = second[2]?.data.item as { call_id: string; arguments: string };
    expect(item2.call_id).not.toBe(item.call_id);
    expect(JSON.parse(item2.arguments)).toEqual({ cmd: 'touch /x', login: false, sandbox_permissions: 'require_escalated', justification: 'why' });
  });

  it('sends apply_patch as a custom_tool_call, request_permissions as a function_call, several items in one response', async () => {
    model = await startScriptedModel();
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n';
    model.enqueue({
      items: [{ patch }, { requestPermissions: { reason: 'need it', permissions: { file_system: { write: ['/abs/out'] } } } }, { message: 'both' }],
    });
    const f = await frames(model);
    const done = f.filter((x) => x.event === 'response.output_item.done').map((x) => x.data);
    expect(done.map((d) => d.output_index)).toEqual([0, 1, 2]);
    expect(done[0]?.item).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: patch });
    expect(done[1]?.item).toMatchObject({ type: 'function_call', name: 'request_permissions' });
    expect(JSON.parse((done[1]?.item as { arguments: string }).arguments)).toEqual({
      reason: 'need it',
      permissions: { file_system: { write: ['/abs/out'] } },
    });
    expect(done[2]?.item).toMatchObject({ type: 'message' });
    expect(model.requests[0]?.callIds).toHaveLength(2);
  });

  it('sends a toolSearch step as a client tool_search_call, and a namespaced function_call (how codex 0.169.0 calls an MCP tool)', async () => {
    model = await startScriptedModel();
    model.enqueue({
      items: [{ toolSearch: { query: 'ask user', limit: 4 } }, { functionCall: { name: 'ask_user', namespace: 'mcp__elicit', arguments: { message: 'hi' } } }],
    });
    const f = await frames(model);
    const done = f.filter((x) => x.event === 'response.output_item.done').map((x) => x.data.item as Record<string, unknown>);
    const [search, call] = model.requests[0]?.callIds ?? [];
    expect(done[0]).toMatchObject({
      type: 'tool_search_call',
      call_id: search,
      execution: 'client',
      status: 'completed',
      arguments: { query: 'ask user', limit: 4 },
    });
    expect(done[1]).toMatchObject({ type: 'function_call', call_id: call, name: 'ask_user', namespace: 'mcp__elicit', arguments: '{"message":"hi"}' });
    model.enqueue({ functionCall: { name: 'write_stdin', arguments: '{}' } });
    const plain = (await frames(model)).find((x) => x.event === 'response.output_item.done')?.data.item as Record<string, unknown>;
    expect(plain).not.toHaveProperty('namespace');
  });

  it('answers an httpError step with that status, headers and JSON body', async () => {
    model = await startScriptedModel();
    model.enqueue({ httpError: { status: 429, body: { error: { type: 'usage_limit_reached', message: 'limit' } }, headers: { 'retry-after': '1' } } });
    const res = await post(model);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({ error: { type: 'usage_limit_reached', message: 'limit' } });
  });

  it.each([
    ['withUsage alone', { withUsage: { input: 150_000, output: 2_345 }, step: { message: 'big' } }, { input: 150_000, output: 2_345 }, null],
    [
      'withUsage inside withHeaders',
      { withHeaders: { 'x-codex-primary-used-percent': '42' }, step: { withUsage: { input: 7, output: 3 }, step: { message: 'small' } } },
      { input: 7, output: 3 },
      '42',
    ],
    ['no withUsage: the fixed counts', { message: 'plain' }, { input: 100, output: 10 }, null],
  ] as const)('reports the token counts in response.completed: %s', async (_name, step, tokens, header) => {
    model = await startScriptedModel();
    model.enqueue(step);
    const res = await post(model);
    expect(res.headers.get('x-codex-primary-used-percent')).toBe(header);
    const f = parseSse(await res.text());
    expect(f.at(-1)?.data.response).toMatchObject({
      status: 'completed',
      usage: { input_tokens: tokens.input, output_tokens: tokens.output, total_tokens: tokens.input + tokens.output },
    });
  });

  it('answers a failed step with response.failed carrying the code and message', async () => {
    model = await startScriptedModel();
    model.enqueue({ failed: { code: 'context_length_exceeded', message: 'too long' } });
    const f = await frames(model);
    expect(f.map((x) => x.event)).toEqual(['response.created', 'response.failed']);
    expect(f[1]?.data.response).toMatchObject({ status: 'failed', error: { code: 'context_length_exceeded', message: 'too long' } });
  });
});

describe('scripted model: queue, responder, captured requests', () => {
  it('pops queued steps first, then asks the responder with the request body', async () => {
    const seen: string[] = [];
    model = await startScriptedModel({
      script: (body) => {
        seen.push(lastUserText(body) ?? '');
        return { message: `echo: ${lastUserText(body) ?? ''}` };
      },
    });
    model.enqueue({ message: 'queued' });
    const a = await frames(model, { input: [userMsg('one')] });
    const b = await frames(model, { input: [userMsg('two')] });
    const text = (f: Frame[]) => f.find((x) => x.event === 'response.output_text.done')?.data.text as string;
    expect(text(a)).toBe('queued');
    expect(text(b)).toBe('echo: two');
    expect(seen).toEqual(['two']);
    expect(model.requests.map((r) => r.source)).toEqual(['queue', 'responder']);
    expect(model.pending()).toBe(0);
  });

  it('fails the response (not the server) when nothing is scripted or the responder throws', async () => {
    model = await startScriptedModel();
    const none = await frames(model);
    expect(none[1]?.data.response).toMatchObject({ error: { code: 'server_error' } });
    expect(JSON.stringify(none[1]?.data)).toContain('no step queued');
    await model.close();
    model = await startScriptedModel({
      script: () => {
        throw new Error('boom');
      },
    });
    const thrown = await frames(model);
    expect(JSON.stringify(thrown[1]?.data)).toContain('boom');
  });

  it('lists captured requests (path, headers, parsed body) at GET /__requests', async () => {
    model = await startScriptedModel();
    model.enqueue({ message: 'x' });
    await frames(model, { model: 'gpt-5.5', input: [userMsg('hello there')] });
    const list = (await (await fetch(`${model.baseUrl.replace(/\/v1$/, '')}/__requests`)).json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ method: 'POST', path: '/v1/responses', body: { model: 'gpt-5.5' }, source: 'queue' });
    expect((list[0]?.headers as Record<string, string>)['session-id']).toBe('s-1');
    expect(model.modelRequests()).toHaveLength(1);
  });

  it('keeps a hang step open until the server closes', async () => {
    model = await startScriptedModel();
    model.enqueue({ hang: true });
    const res = await post(model);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('response.created');
    const rest = reader.read().then(
      (r) => (r.done ? 'ended' : 'more'),
      () => 'ended',
    );
    await model.close();
    expect(await rest).toBe('ended');
  });
});

describe('reading requests', () => {
  const body = {
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'base prompt' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/w</cwd>' }] },
      userMsg('first question'),
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'answer' }] },
      userMsg('run it'),
      { type: 'function_call', name: 'exec_command', call_id: 'call_a', arguments: '{"cmd":"echo hi"}' },
      { type: 'custom_tool_call', name: 'apply_patch', call_id: 'call_b', input: '*** Begin Patch' },
      { type: 'function_call_output', call_id: 'call_a', output: 'Process exited with code 0\nOutput:\nhi\n' },
      { type: 'custom_tool_call_output', call_id: 'call_b', output: [{ type: 'input_text', text: 'Success.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\nagain' }] },
    ],
  };

  it('finds the last user-typed text, tool outputs by call id, and the current turn tool calls', () => {
    expect(lastUserText(body)).toBe('run it');
    expect(toolOutput(body, 'call_a')).toContain('hi');
    expect(toolOutput(body, 'call_b')).toBe('Success.');
    expect(toolOutput(body, 'call_zz')).toBeUndefined();
    expect(turnToolCalls(body)).toEqual([
      { callId: 'call_a', name: 'exec_command', arguments: { cmd: 'echo hi' }, output: 'Process exited with code 0\nOutput:\nhi\n' },
      { callId: 'call_b', name: 'apply_patch', input: '*** Begin Patch', output: 'Success.' },
    ]);
    expect(isCompactionRequest(body)).toBe(false);
    expect(isCompactionRequest({ input: [userMsg('q'), userMsg('You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary')] })).toBe(true);
    expect(lastUserText({})).toBeUndefined();
  });

  it('splits text into at most N non-empty chunks without breaking characters', () => {
    expect(splitText('abcdef', 3)).toEqual(['ab', 'cd', 'ef']);
    expect(splitText('ab', 5)).toEqual(['a', 'b']);
    expect(splitText('👋👋', 2)).toEqual(['👋', '👋']);
    expect(splitText('', 3)).toEqual([]);
  });
});

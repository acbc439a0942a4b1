/**
 * MCP elicitations end to end on real codex 0.169.0 with the scripted model and a stdio MCP server of
 * our own (test/fixtures/mcp/elicitServer.mjs; docs/architecture.md "MCP elicitations, measured"):
 * the model finds the server's tool with `tool_search` and calls it; the tool sends `elicitation/create`;
 * Codex forwards it as `mcpServer/elicitation/request`, which becomes a pending request of the one
 * approval broker; the answer given there is what the server receives (read back from its log file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { loadTable } from '../../src/main/core/table/load';
import type { ResponsesRequestBody, Step } from '../../src/main/demo/scriptedModel';
import type { ApprovalView, ChatItem } from '../../src/shared/contract';
import { writeCompiled } from '../fixtures/compiled';
import { makeInstance, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

const SERVER = resolve(__dirname, '../fixtures/mcp/elicitServer.mjs');

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** One line of the fixture server's log. */
interface Logged {
  event: 'initialize' | 'call' | 'request' | 'answer' | 'notification';
  tool?: string;
  method?: string;
  params?: Record<string, unknown>;
  result?: { action: string; content?: Record<string, unknown> };
}

/** The tool outputs Codex sent back so far (`tool_search_output` and `function_call_output`), in order. */
function outputs(body: ResponsesRequestBody): Array<Record<string, unknown>> {
  return (body.input ?? []).filter((i) => i.type === 'tool_search_output' || i.type === 'function_call_output');
}

/** The text of a `function_call_output` (a string, or `input_text` parts joined). */
function outputText(item: Record<string, unknown> | undefined): string {
  const out = item?.output;
  if (typeof out === 'string') return out;
  return Array.isArray(out) ? out.map((p: { text?: string }) => p.text ?? '').join('\n') : '';
}

/**
 * The model's part: find the MCP tools, call `tool` of server `elicit` (namespace `mcp__elicit`, measured)
 * `times` times one after the other, then say what the tool returned last.
 */
function callTool(tool: string, times = 1): (body: ResponsesRequestBody) => Step {
  return (body) => {
    const done = outputs(body);
    if (done.length === 0) return { toolSearch: { query: `${tool} elicit`, limit: 8 } };
    if (done.length <= times) return { functionCall: { name: tool, namespace: 'mcp__elicit', arguments: { message: `the ${tool} question` } } };
    return { message: `tool said: ${outputText(done.at(-1))}` };
  };
}

/**
 * An instance whose profile `coder` is given the fixture MCP server `elicit`; `mode` its permission_mode
 * (default `default`: Codex's approval policy `on-request`, so Codex asks).
 */
async function withServer(tool: string, mode = 'default', times = 1): Promise<{ i: TestInstance; o: Orchestrator; log: string }> {
  const i = await makeInstance({ coder: { permission_mode: mode } }, { privateHome: true, script: callTool(tool, times) });
  inst = i;
  const log = join(i.root, 'elicit.log');
  const table = {
    capabilities: { elicit: { kind: 'mcp', command: process.execPath, args: [SERVER, log] } },
    profiles: { coder: { cwd: i.cwd.coder, permission_mode: mode, capabilities: ['elicit'] } },
  };
  await writeFile(i.paths.tableFile, stringify(table));
  await writeCompiled(i.paths, await loadTable(i.paths.tableFile, { home: i.paths.home, env: i.env }));
  orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  return { i, o: orch, log };
}

/** The fixture server's log lines so far. */
function logged(log: string): Logged[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Logged);
}

/** The agent's last message in `items`. */
function agentText(items: ChatItem[]): string {
  return items.filter((it): it is Extract<ChatItem, { type: 'agent' }> => it.type === 'agent').at(-1)?.text ?? '';
}

/** The latest view of every approval `o` told about (`approval:updated`), by id. */
function watchApprovals(o: Orchestrator): Map<string, ApprovalView> {
  const seen = new Map<string, ApprovalView>();
  o.subscribe((e) => {
    if (e.event === 'approval:updated') seen.set(e.payload.id, e.payload);
  });
  return seen;
}

/** Sends `text` to chat `coder` and waits until an elicitation of `o` is pending; answers its view. */
async function askedOn(o: Orchestrator, text: string): Promise<ApprovalView> {
  o.chat('coder').send(text);
  return until('an MCP elicitation is pending', () => o.pendingApprovals().find((a) => a.kind === 'elicitation'));
}

/** The fixture's `ask_user` form as Angelia shows it: Codex sends the properties sorted by name (measured). */
const FORM_FIELDS = [
  { name: 'age', type: 'integer', title: 'Age', required: false, minimum: 0, maximum: 150 },
  { name: 'budget', type: 'number', title: 'Budget (EUR)', description: 'At most this much', required: false },
  {
    name: 'color',
    type: 'enum',
    title: 'Favourite colour',
    required: true,
    multiple: false,
    choices: [
      { value: 'red', label: 'Red' },
      { value: 'green', label: 'Green' },
      { value: 'blue', label: 'Blue' },
    ],
  },
  { name: 'name', type: 'string', title: 'Your name', description: 'How the agent should call you', required: true, minLength: 1, maxLength: 40 },
  { name: 'subscribe', type: 'boolean', title: 'Subscribe to updates', required: false, default: false },
];

describe('MCP elicitations on real codex, through the one approval broker', () => {
  it('a form elicitation is pending with its fields; Allow with content sends that content to the MCP server', async () => {
    const { o, log } = await withServer('ask_user');
    const views = watchApprovals(o);
    const asked = await askedOn(o, 'ask me');
    expect(asked).toMatchObject({ chatId: 'coder', profile: 'coder', state: 'pending', answers: ['allow', 'deny', 'cancel'] });
    expect(asked.elicitation).toMatchObject({ serverName: 'elicit', mode: 'form', message: 'the ask_user question', url: null, domain: null });
    expect(asked.elicitation?.fields).toMatchObject(FORM_FIELDS);
    expect(o.chat('coder').view().state).toBe('needs-you');
    // The server is waiting for the answer: it sent the request and has no answer yet.
    expect(
      logged(log)
        .filter((l) => l.event === 'request' || l.event === 'answer')
        .map((l) => l.event),
    ).toEqual(['request']);

    const content = { name: 'Ada', color: 'green', age: 36, budget: 12.5, subscribe: true };
    expect(o.answerApproval(asked.id, 'allow', 'window', { content })).toMatchObject({ outcome: 'answered', answer: 'allow', by: 'window' });
    await o.chat('coder').idle();
    expect(logged(log).find((l) => l.event === 'answer')).toMatchObject({ tool: 'ask_user', result: { action: 'accept', content } });
    expect(agentText(o.chat('coder').transcript.all())).toContain(JSON.stringify({ action: 'accept', content }));
    expect(views.get(asked.id)).toMatchObject({ state: 'answered', answer: 'allow', by: 'window' });
  });

  it('Deny declines: the MCP server receives decline and no content', async () => {
    const { o, log } = await withServer('ask_user');
    const asked = await askedOn(o, 'ask me');
    expect(o.answerApproval(asked.id, 'deny', 'window')).toMatchObject({ outcome: 'answered', answer: 'deny' });
    await o.chat('coder').idle();
    const answer = logged(log).find((l) => l.event === 'answer');
    expect(answer).toMatchObject({ tool: 'ask_user', result: { action: 'decline' } });
    expect(answer?.result?.content ?? null).toBeNull();
    expect(agentText(o.chat('coder').transcript.all())).toContain('"action":"decline"');
  });

  it('stopping the turn withdraws the pending elicitation: nothing is answered, Codex cancels it at the server', async () => {
    const { o, log } = await withServer('ask_user');
    const views = watchApprovals(o);
    const asked = await askedOn(o, 'ask me');
    o.chat('coder').send('/stop');
    const withdrawn = await until('the elicitation is withdrawn', () => (views.get(asked.id)?.state === 'withdrawn' ? views.get(asked.id) : null));
    // Withdrawn, not answered: no answer, and `by: codex` (Codex closed it: serverRequest/resolved, or the turn ended).
    expect(withdrawn).toMatchObject({ answer: null, by: 'codex', granted: null });
    await o.chat('coder').idle();
    expect(o.pendingApprovals()).toEqual([]);
    // Codex answered the server's elicitation `cancel` itself and cancelled the tool call (measured).
    await until('the server saw the cancel', () => logged(log).find((l) => l.event === 'answer'));
    expect(logged(log).find((l) => l.event === 'answer')).toMatchObject({ tool: 'ask_user', result: { action: 'cancel' } });
    expect(logged(log).some((l) => l.event === 'notification' && l.method === 'notifications/cancelled')).toBe(true);
    // A late answer changes nothing.
    expect(o.answerApproval(asked.id, 'allow', 'window', { content: { name: 'Ada', color: 'red' } }).outcome).not.toBe('answered');
  });

  it('a URL elicitation shows the link and its domain; Allow sends no content', async () => {
    const { o, log } = await withServer('open_link');
    const asked = await askedOn(o, 'connect me');
    expect(asked.elicitation).toMatchObject({
      serverName: 'elicit',
      mode: 'url',
      message: 'the open_link question',
      fields: [],
      url: 'https://auth.example.com/connect?session=abc123',
      domain: 'auth.example.com',
    });
    expect(asked.answers).toEqual(['allow', 'deny', 'cancel']);
    expect(o.answerApproval(asked.id, 'allow', 'window')).toMatchObject({ outcome: 'answered', answer: 'allow' });
    await o.chat('coder').idle();
    // Angelia sends `content: null`; Codex hands the server an empty object (measured).
    expect(logged(log).find((l) => l.event === 'answer')).toMatchObject({ tool: 'open_link', result: { action: 'accept', content: {} } });
  });

  it("an MCP tool without readOnlyHint runs only after Codex's own elicitation (its tool gate, naming the tool) is allowed, each call", async () => {
    const { o, log } = await withServer('save_note', 'default', 2);
    const asked = await askedOn(o, 'save it twice');
    // Codex sends `Allow the elicit MCP server to run tool "save_note"?` with an empty form (measured).
    expect(asked.elicitation).toMatchObject({ serverName: 'elicit', fields: [] });
    expect(asked.title).toContain('save_note');
    expect(asked.answers).toEqual(expect.arrayContaining(['allow', 'deny']));
    expect(logged(log).some((l) => l.event === 'call')).toBe(false);
    o.answerApproval(asked.id, 'allow', 'window');
    // A plain Allow is for this call only: the second call is gated again.
    const again = await until('the second call is gated', () => o.pendingApprovals().find((a) => a.kind === 'elicitation' && a.id !== asked.id));
    expect(logged(log).filter((l) => l.event === 'call')).toHaveLength(1);
    o.answerApproval(again.id, 'allow', 'window');
    await o.chat('coder').idle();
    expect(
      logged(log)
        .filter((l) => l.event === 'call')
        .map((l) => l.tool),
    ).toEqual(['save_note', 'save_note']);
    expect(agentText(o.chat('coder').transcript.all())).toContain('saved');
  });

  it("Deny of Codex's tool gate: the tool never runs and the model is told the user rejected it", async () => {
    const { o, log } = await withServer('save_note');
    const asked = await askedOn(o, 'save it');
    o.answerApproval(asked.id, 'deny', 'window');
    await o.chat('coder').idle();
    expect(logged(log).some((l) => l.event === 'call')).toBe(false);
    expect(agentText(o.chat('coder').transcript.all())).toContain('user rejected MCP tool call');
  });

  it("Allow for this session of Codex's tool gate: the tool's next call in the session runs without asking again", async () => {
    const { o, log } = await withServer('save_note', 'default', 2);
    const views = watchApprovals(o);
    const asked = await askedOn(o, 'save it twice');
    expect(asked.answers).toContain('allowForSession');
    expect(o.answerApproval(asked.id, 'allowForSession', 'window')).toMatchObject({ outcome: 'answered', answer: 'allowForSession' });
    await o.chat('coder').idle();
    expect(logged(log).filter((l) => l.event === 'call')).toHaveLength(2);
    // One request for both calls (with a plain Allow, Codex asks again for the second: measured).
    expect([...views.values()].map((v) => v.id)).toEqual([asked.id]);
  });

  it('under bypassPermissions (approval policy never) Codex declines the elicitation itself: nobody is asked', async () => {
    const { o, log } = await withServer('ask_user', 'bypassPermissions');
    const views = watchApprovals(o);
    o.chat('coder').send('ask me');
    await o.chat('coder').idle();
    expect(logged(log).find((l) => l.event === 'answer')).toMatchObject({ tool: 'ask_user', result: { action: 'decline' } });
    expect([...views.values()]).toEqual([]);
    // Not declined by Angelia either (an immediate answer would say so in the chat).
    expect(
      o
        .chat('coder')
        .transcript.all()
        .filter((it) => it.type === 'notice' && /MCP server/.test(it.text)),
    ).toEqual([]);
  });
});

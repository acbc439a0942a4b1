/**
 * `POST /turn` on real codex 0.169.0 (scripted model), over the real socket: each turn's events carry the
 * id `/turn` answered, carried by the chat through its queue (never matched by text: two queued turns
 * with the same text are told apart); an app turn (`reply: "caller"`) runs in the chat's thread, its
 * answer comes on the event stream with its id, and the window's items mark it (`app`), while the chat's
 * last line stays the last normal one; `plain` text reaches the agent as written, a leading `/`
 * included; a chat holding 10 turns (1 running, 9 waiting) answers 429 and the dropped ones end
 * `dropped`.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/main/api/core';
import { apiCoreFromOrchestrator, type OrchestratorApiCore } from '../../src/main/api/orchestratorCore';
import { startApi, type RunningApi } from '../../src/main/api/server';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { lastUserText } from '../../src/main/demo/scriptedModel';
import type { ChatItem } from '../../src/shared/contract';
import { call } from '../api/helpers';
import { makeInstance, type TestInstance } from '../fixtures/instance';

let inst: TestInstance;
let orch: Orchestrator;
let core: OrchestratorApiCore;
let api: RunningApi;
let owner = '';
const events: ApiEvent[] = [];
let replies = 0;

beforeAll(async () => {
  inst = await makeInstance(
    { coder: { permission_mode: 'acceptEdits' } },
    {
      script: (body) => {
        const text = lastUserText(body) ?? '';
        if (text === 'hold') return { hang: true };
        replies += 1;
        return { message: `reply #${replies} to ${text.split('\n')[0] ?? ''}` };
      },
    },
  );
  orch = await Orchestrator.create({ paths: inst.paths, env: inst.env, startCodex: startCodexClient, audit: memoryAudit(), watchTable: false });
  core = apiCoreFromOrchestrator(orch, { paths: inst.paths, env: inst.env });
  core.subscribe((e) => events.push(e));
  api = await startApi({
    core,
    socketPath: inst.paths.apiSock,
    tokenFile: inst.paths.apiToken,
    stateDir: inst.paths.stateDir,
    home: inst.paths.home,
    codexHome: inst.paths.codexHome,
    env: inst.env,
  });
  owner = (await readFile(inst.paths.apiToken, 'utf8')).trim();
});

afterAll(async () => {
  await api?.close();
  core?.close();
  await orch?.shutdown();
  await inst?.cleanup();
});

async function turn(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await call(inst.paths.apiSock, 'POST', '/turn', { token: owner, body: { key: 'coder', ...body } });
  return { status: res.status, body: res.body as Record<string, unknown> };
}

/** The events of one API turn, as [event, text or status]. */
function of(id: string): [string, string][] {
  return events.filter((e) => 'turn' in e && e.turn === id).map((e) => [e.event, e.event === 'turn-end' ? e.status : 'text' in e ? e.text : '']);
}

const users = (): Extract<ChatItem, { type: 'user' }>[] =>
  orch
    .chat('coder')
    .transcript.all()
    .filter((i): i is Extract<ChatItem, { type: 'user' }> => i.type === 'user');

describe('/turn ids, app turns, plain text and the queue cap (real codex)', () => {
  it("two queued turns with the same text: each one's events carry its own id", async () => {
    const a = await turn({ text: 'same words' });
    const b = await turn({ text: 'same words' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const first = a.body.turn as string;
    const second = b.body.turn as string;
    expect(first).not.toBe(second);
    await orch.chat('coder').idle();
    expect(of(first)).toEqual([
      ['turn', 'same words'],
      ['out', 'reply #1 to same words'],
      ['turn-end', 'completed'],
    ]);
    expect(of(second)).toEqual([
      ['turn', 'same words'],
      ['out', 'reply #2 to same words'],
      ['turn-end', 'completed'],
    ]);
    expect(users().map((u) => [u.text, u.apiTurn])).toEqual([
      ['same words', first],
      ['same words', second],
    ]);
  });

  it("an app turn runs in the chat's thread, answers on the event stream, is marked in the window, and is not the chat's last line", async () => {
    const lastBefore = orch.chat('coder').view().lastLine;
    expect(lastBefore).toBe('reply #2 to same words');
    const res = await turn({ text: '/status as typed', reply: 'caller', plain: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.turn as string;
    await orch.chat('coder').idle();
    expect(of(id)).toEqual([
      ['turn', '/status as typed'],
      ['out', 'reply #3 to /status as typed'],
      ['turn-end', 'completed'],
    ]);
    // Plain: the agent got the text as written, never as the chat command /status.
    expect(lastUserText(inst.model.modelRequests().at(-1)?.body)).toBe('/status as typed');
    const app = users().at(-1)!;
    expect(app).toMatchObject({ text: '/status as typed', via: 'turn', apiTurn: id, app: true });
    const items = orch.chat('coder').transcript.all();
    expect(items.at(-1)).toMatchObject({ type: 'turnEnd', status: 'completed', apiTurn: id });
    expect(items.some((i) => i.type === 'agent' && i.text === 'reply #3 to /status as typed')).toBe(true);
    expect(orch.chat('coder').view().lastLine).toBe(lastBefore);
    // The same session: the app turn's question is in the thread the next turn continues.
    await turn({ text: 'next' });
    await orch.chat('coder').idle();
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toContain('/status as typed');
    expect(orch.chat('coder').view().lastLine).toBe('reply #4 to next');
  });

  it('a chat holding 10 turns (one running, nine waiting) answers 429; the waiting ones end dropped when stopped', async () => {
    const held = await turn({ text: 'hold' });
    expect(held.status).toBe(200);
    const waiting: string[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await turn({ text: `waiting ${i}` });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      waiting.push(r.body.turn as string);
    }
    const full = await turn({ text: 'one too many' });
    expect(full).toEqual({ status: 429, body: { error: 'this chat already holds 10 messages; wait for the agent to work through them', code: 'queue-full' } });
    expect(orch.chat('coder').view().queued).toBe(9);
    expect(await orch.api().handlers['chats:interrupt']({ chatId: 'coder' })).toEqual({ interrupted: true });
    await orch.chat('coder').idle();
    for (const id of waiting) expect(of(id)).toEqual([['turn-end', 'dropped']]);
    expect(of(held.body.turn as string).at(-1)).toEqual(['turn-end', 'interrupted']);
    expect(users().some((u) => u.text === 'one too many')).toBe(false);
  });
});

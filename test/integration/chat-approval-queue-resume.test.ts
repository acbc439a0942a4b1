/**
 * On real Codex (pinned npm package, 0.169.0) in the real Linux sandbox with the scripted model, the
 * chat's approval, queue and resume rules that depend on what Codex does:
 * - 1: "Deny and stop" (an escalation answered `cancel`) drops the queued messages, and none reaches the model;
 * - 2: Codex announces the command (item/started, running) BEFORE its approval request, which names that item;
 * - 6: the escalation's card carries how many deny entries the launch has (what it still cannot touch);
 * - 4: `/resume` of another session shows that session's turns, read from Codex, and the next message continues it;
 * - 5: after a restart the chat list shows the chat's last line before its transcript is read.
 * The same rules against scripted connections: test/core/chats/chat-approval-queue-resume.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { planLaunch } from '../../src/main/core/launch/plan';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { loadTable } from '../../src/main/core/table/load';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { until } from '../fixtures/until';

let inst: TestInstance | null = null;
let orchs: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchs.map((o) => o.shutdown()));
  orchs = [];
  await inst?.cleanup();
  inst = null;
});

async function orchestrator(i: TestInstance): Promise<Orchestrator> {
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
  orchs.push(o);
  return o;
}

const notices = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice').map((i) => i.text);
const sawText = (i: TestInstance, text: string) => i.model.modelRequests().some((r) => JSON.stringify(r.body).includes(text));

describe('an escalation on real Codex', () => {
  it('the command waits for its approval, the card counts the denied places, and "Deny and stop" drops the queue', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    const plan = await planLaunch({
      table: await loadTable(inst.paths.tableFile, { home: inst.paths.home, env: inst.env }),
      profile: 'coder',
      chatId: 'coder',
      paths: inst.paths,
      env: inst.env,
    });
    const denied = plan.sandboxDeny?.length ?? 0;
    expect(denied).toBeGreaterThan(0);
    inst.model.enqueue(
      {
        exec: {
          cmd: `echo hi > ${join(inst.outside, 'out.txt')}`,
          login: false,
          sandbox_permissions: 'require_escalated',
          justification: 'write the report outside',
        },
      },
      { message: 'unused' },
    );
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('write the report outside');
    chat.send('QUEUED-ONE then tag it');
    chat.send('QUEUED-TWO and write the notes');
    const pending = await until('an approval', () => o.broker.pending()[0]);

    // Codex sent the command's item/started before the request, and the request names it.
    expect(pending.itemId).toEqual(expect.any(String));
    expect(chat.transcript.all().find((i) => i.type === 'command' && i.id === pending.itemId)).toMatchObject({ status: 'running' });
    // An escalation under the sandbox, with the launch's deny entries counted.
    expect(pending.title).toMatch(/^Run OUTSIDE the sandbox: /);
    expect(pending.outsideSandbox).toEqual({ denied });

    // "Deny and stop" ends the turn and drops what waited behind it.
    expect(chat.view().queued).toBe(2);
    o.broker.answer(pending.id, 'cancel', 'window');
    await chat.idle();
    await new Promise((r) => setTimeout(r, 300));
    const items = chat.transcript.all();
    expect(chat.view()).toMatchObject({ queued: 0, state: 'idle' });
    expect(notices(items)).toContain(
      '"Deny and stop" ends the turn; like /stop, it drops the queue. Dropped 2 queued: "QUEUED-ONE then tag it", "QUEUED-TWO and write the notes".',
    );
    expect(items.filter((i) => i.type === 'turnEnd')).toEqual([
      expect.objectContaining({ status: 'interrupted', reason: expect.stringMatching(/^"Deny and stop" was chosen for "Run OUTSIDE the sandbox/) }),
    ]);
    expect(items.filter((i) => i.type === 'user').map((i) => (i as { text: string }).text)).toEqual(['write the report outside']);
    expect(sawText(inst, 'QUEUED-ONE') || sawText(inst, 'QUEUED-TWO')).toBe(false);
    // Codex settles the command item as declined.
    expect(items.find((i) => i.type === 'command' && i.id === pending.itemId)).toMatchObject({ status: 'declined' });
    expect(o.broker.all()[0]).toMatchObject({ state: 'answered', answer: 'cancel', by: 'window', settledAt: expect.any(String) });
  });
});

describe('/resume on real Codex', () => {
  it("shows the resumed session's turns read from Codex, and the next message continues that conversation", async () => {
    inst = await makeInstance({ coder: {} });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    inst.model.enqueue({ message: 'FIRST-ANSWER' });
    await turnOn(o, 'coder', 'FIRST-QUESTION');
    const first = chat.view().sessionId ?? '';
    await turnOn(o, 'coder', '/new');
    inst.model.enqueue({ message: 'SECOND-ANSWER' });
    await turnOn(o, 'coder', 'SECOND-QUESTION');
    expect(chat.view().sessionId).not.toBe(first);

    const shown = await turnOn(o, 'coder', `/resume ${first}`);
    expect(chat.view().sessionId).toBe(first);
    const text = shown.map((i) => (i.type === 'user' || i.type === 'agent' || i.type === 'notice' ? `${i.type}: ${i.text}` : i.type));
    expect(text).toEqual([
      expect.stringMatching(/^notice: Resumed .* · FIRST-QUESTION\. The next message continues it\.$/),
      expect.stringMatching(/^notice: This session so far \(1 turn, read from Codex's record of thread /),
      'user: FIRST-QUESTION',
      'agent: FIRST-ANSWER',
      'turnEnd',
    ]);
    // The chat's window reads the same transcript.
    const listed = await o.api().handlers['chats:items']({ chatId: 'coder' });
    expect(listed.slice(-5)).toEqual(shown);
    expect(listed.at(-1)).toMatchObject({ type: 'turnEnd', status: 'completed' });

    inst.model.enqueue({ message: 'THIRD-ANSWER' });
    await turnOn(o, 'coder', 'THIRD-QUESTION');
    const body = JSON.stringify(inst.model.modelRequests().at(-1)?.body);
    expect(body).toContain('FIRST-QUESTION');
    expect(body).not.toContain('SECOND-QUESTION');
  });
});

describe('the last line after a restart on real Codex', () => {
  it('a new Orchestrator lists the chat with its last line before its transcript is read', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'The REPORT is written to report.md.' });
    const first = await orchestrator(inst);
    await turnOn(first, 'coder', 'write the report');
    expect(first.chat('coder').view().lastLine).toBe('The REPORT is written to report.md.');
    await first.shutdown();
    orchs = orchs.filter((x) => x !== first);
    const stored = JSON.parse(readFileSync(inst.paths.sessionsFile, 'utf8')) as { chats: Record<string, { history: Array<{ last_line?: string }> }> };
    expect(stored.chats.coder?.history.map((r) => r.last_line)).toEqual(['The REPORT is written to report.md.']);

    const second = await orchestrator(inst);
    expect(second.chat('coder').transcript.all()).toEqual([]);
    const list = await second.api().handlers['chats:list']({});
    expect(list.find((c) => c.id === 'coder')?.lastLine).toBe('The REPORT is written to report.md.');
  });
});

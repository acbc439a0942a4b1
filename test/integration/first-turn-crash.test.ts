/**
 * A Codex killed (SIGKILL, by its pid from `<state>/private/children.json`) during a session's FIRST turn,
 * on real Codex with the scripted model: the turn ends failed with the exit as its reason, a pending
 * approval is withdrawn, Restart is offered, and the prompt reaches the model exactly once (Angelia never
 * sends it again by itself); the user's next message runs, and a notice says what became of the
 * conversation. docs/architecture.md "Crashes".
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { ChildLedger, childrenFile, type ChildRecord } from '../../src/main/core/codex/children';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { lastUserText } from '../../src/main/demo/scriptedRequest';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { waitFor } from '../core/codex/processes';

let inst: TestInstance | null = null;
let orch: Orchestrator | null = null;
afterEach(async () => {
  await orch?.shutdown();
  orch = null;
  await inst?.cleanup();
  inst = null;
});

/** The recorded Codex child of `chatId` (waits until one is recorded). */
async function recordedChild(i: TestInstance, chatId: string): Promise<ChildRecord> {
  let rec: ChildRecord | undefined;
  await waitFor(() => (rec = new ChildLedger(childrenFile(i.paths.stateDir)).list().find((r) => r.chatId === chatId)) !== undefined, 60_000);
  if (!rec) throw new Error(`no Codex child of ${chatId}`);
  return rec;
}

/** How many model requests carried `text` as their newest user message (a prompt sent as a turn). */
const sentAsTurn = (i: TestInstance, text: string): number => i.model.modelRequests().filter((r) => lastUserText(r.body) === text).length;

const crashItems = (items: ChatItem[]) =>
  items.filter((i): i is Extract<ChatItem, { type: 'error' }> => i.type === 'error' && i.message.startsWith('Codex exited'));

/** Kills the chat's Codex while its first turn waits (`waiting` holds), then checks the failed end and the next message. */
async function killFirstTurn(i: TestInstance, prompt: string, waiting: (o: Orchestrator) => boolean): Promise<{ o: Orchestrator; next: ChatItem[] }> {
  const o = (orch = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() }));
  const chat = o.chat('coder');
  chat.send(prompt);
  const held = await waitFor(() => waiting(o), 90_000);
  expect(held, JSON.stringify(chat.transcript.all())).toBe(true);
  const child = await recordedChild(i, 'coder');
  process.kill(child.pid, 'SIGKILL');
  await chat.idle();
  const items = chat.transcript.all();
  expect(crashItems(items)).toEqual([
    expect.objectContaining({ kind: 'crashed', action: 'restart', message: expect.stringMatching(/^Codex exited \(signal SIGKILL\)\./) }),
  ]);
  expect(items.filter((x) => x.type === 'turnEnd')).toEqual([expect.objectContaining({ status: 'failed', reason: 'Codex exited (signal SIGKILL)' })]);
  expect(items.filter((x) => x.type === 'user').map((x) => x.type === 'user' && x.text)).toEqual([prompt]);
  expect(JSON.stringify(items)).not.toMatch(/trying once more/);
  expect(chat.view()).toMatchObject({ state: 'error', pendingApprovals: 0 });
  expect(sentAsTurn(i, prompt)).toBe(1);

  i.model.enqueue({ message: 'here again' });
  const next = await turnOn(o, 'coder', 'second message');
  expect(next.find((x) => x.type === 'turnEnd')).toMatchObject({ status: 'completed' });
  expect(next.find((x) => x.type === 'agent')).toMatchObject({ text: 'here again' });
  // What became of the conversation is said: resumed (the cut-off turn named) or a fresh session.
  const said = next.filter((x) => x.type === 'notice').map((x) => (x.type === 'notice' ? x.text : ''));
  expect(said.join('\n')).toMatch(/Codex runs again\. The turn of "first question" was cut off|fresh start/);
  expect(sentAsTurn(i, prompt)).toBe(1);
  return { o, next };
}

describe('a Codex killed during a session’s first turn', () => {
  it('while the model holds the stream: the turn fails with the signal, the prompt is sent once, the next message runs', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } });
    inst.model.enqueue({ hang: true });
    const i = inst;
    await killFirstTurn(i, 'first question', (o) => i.model.modelRequests().length >= 1 && o.chat('coder').view().state === 'working');
  });

  it('while an escalation waits for an answer: the approval is withdrawn and never asked again; the command never ran', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } }, { privateHome: true });
    const target = join(inst.outside, 'out.txt');
    inst.model.enqueue({
      exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated', justification: 'write the report outside' },
    });
    const { o } = await killFirstTurn(inst, 'first question', (x) => x.broker.pending().some((a) => a.chatId === 'coder'));
    expect(
      o.broker
        .all()
        .filter((a) => a.chatId === 'coder')
        .map((a) => a.state),
    ).toEqual(['withdrawn']);
    expect(existsSync(target)).toBe(false);
  });
});

/**
 * The walking skeleton on real Codex (pinned npm package) in the real Linux sandbox; only the model is
 * scripted. Each test drives the orchestrator the hosts use.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent, ApprovalAnswer, ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { makeInstance, turnOn, type TestInstance, commandItems } from '../fixtures/instance';

let inst: TestInstance | null = null;
let orchs: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(orchs.map((o) => o.shutdown()));
  orchs = [];
  await inst?.cleanup();
  inst = null;
});

async function orchestrator(i: TestInstance, answer?: ApprovalAnswer) {
  const audit = memoryAudit();
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit });
  orchs.push(o);
  const events: AppEvent[] = [];
  o.hub.subscribe((e) => {
    events.push(e);
    if (answer && e.event === 'approval:updated' && e.payload.state === 'pending') o.broker.answer(e.payload.id, answer, 'window');
  });
  return { o, events, audit };
}

const turn = turnOn;

const commands = commandItems;
const turnEnd = (items: ChatItem[]) => items.find((i) => i.type === 'turnEnd');

describe('a chat on real codex in a real sandbox', () => {
  it('streams an answer, under the managed sandbox', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    inst.model.enqueue({ message: 'Hello from the **scripted** model!', chunks: 4 });
    const { o, events } = await orchestrator(inst);
    const items = await turn(o, 'coder', 'say hello');
    const deltas = events.filter((e) => e.event === 'chat:delta');
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    expect(items.find((i) => i.type === 'agent')).toMatchObject({ text: 'Hello from the **scripted** model!', done: true });
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
    expect(o.chat('coder').view()).toMatchObject({ enforcement: 'managed', state: 'idle' });
    const body = JSON.stringify(inst.model.modelRequests()[0]?.body);
    expect(body).toContain('permission_profile');
  });

  it('cannot read a denied file inside the sandbox', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    inst.model.enqueue({ exec: { cmd: `cat ${inst.secret}; sh -c 'cat ${inst.secret}'`, login: false } }, { message: 'blocked' });
    const { o } = await orchestrator(inst);
    const items = await turn(o, 'coder', 'read the secret');
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
    // What the sandboxed command printed comes back to the model as the tool output.
    const followUp = JSON.stringify(inst.model.modelRequests()[1]?.body);
    expect(followUp).toMatch(/Permission denied/);
    expect(followUp).not.toContain('do-not-read');
    for (const cmd of commands(items)) expect(cmd.output).not.toContain('do-not-read');
  });

  it('asks before writing outside: declined leaves nothing written, allowed writes it', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const target = join(inst.outside, 'out.txt');
    const escalate = {
      exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated' as const, justification: 'write the report outside' },
    };
    inst.model.enqueue(escalate, { message: 'it was declined' });
    const denied = await orchestrator(inst, 'deny');
    const items = await turn(denied.o, 'coder', 'write outside');
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
    expect(items.some((i) => i.type === 'approval')).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(denied.audit.records.map((r) => r.event)).toEqual(['requested', 'answered']);
    await denied.o.shutdown();

    inst.model.enqueue(
      { requestPermissions: { reason: 'write the report', permissions: { file_system: { write: [inst.outside] } } } },
      { exec: { cmd: `echo hi > ${target}`, login: false } },
      { message: 'written' },
    );
    const allowed = await orchestrator(inst, 'allow');
    const items2 = await turn(allowed.o, 'coder', 'write outside again');
    expect(turnEnd(items2)).toMatchObject({ status: 'completed' });
    const approval = allowed.o.broker.all()[0];
    expect(approval).toMatchObject({ kind: 'permissions', state: 'answered', answer: 'allow', requested: { write: [inst.outside] } });
    expect(existsSync(target)).toBe(true);
  });

  it('resumes the thread in a new process on the next turn', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } });
    inst.model.enqueue({ message: 'first answer' }, { message: 'second answer' });
    const first = await orchestrator(inst);
    await turn(first.o, 'coder', 'first question');
    const thread = first.o.chat('coder').view().threadId;
    await first.o.shutdown();

    const second = await orchestrator(inst);
    const items = await turn(second.o, 'coder', 'second question');
    expect(turnEnd(items)).toMatchObject({ status: 'completed' });
    expect(second.o.chat('coder').view().threadId).toBe(thread);
    const last = JSON.stringify(inst.model.modelRequests().at(-1)?.body);
    expect(last).toContain('first question');
    expect(last).toContain('first answer');
  });
});

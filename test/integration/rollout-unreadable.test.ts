/**
 * A session whose rollout (under `CODEX_HOME/sessions`) is on disk but cannot be read, on real Codex
 * 0.171.0 with the scripted model: truncated to 0 bytes, or overwritten with lines that are not JSON.
 * Codex refuses `thread/resume` (-32603, codex/session.ts `UNREADABLE_ROLLOUT`); the chat treats the thread
 * as gone, exactly as a missing rollout: a fresh session starts and a notice says so, in the window's chat
 * and through `angelia run` (the built CLI), which exits 0 instead of 3. docs/architecture.md "Crashes".
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';

const CLI = join(__dirname, '..', '..', 'bin', 'angelia.js');

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

/** The rollout files of `threadId` under `codexHome/sessions`. */
function rolloutsOf(codexHome: string, threadId: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.includes(threadId)) out.push(p);
    }
  };
  if (existsSync(join(codexHome, 'sessions'))) walk(join(codexHome, 'sessions'));
  return out;
}

/** Damages every rollout of `threadId`: 0 bytes, or lines that are not JSON. */
function damage(i: TestInstance, threadId: string, how: 'empty' | 'garbage'): void {
  const files = rolloutsOf(i.env.CODEX_HOME ?? '', threadId);
  expect(files.length).toBeGreaterThan(0);
  for (const f of files) {
    if (how === 'empty') truncateSync(f, 0);
    else writeFileSync(f, 'not json\n{"half": \n');
  }
}

const notices = (items: ChatItem[]) => items.filter((i): i is Extract<ChatItem, { type: 'notice' }> => i.type === 'notice').map((i) => i.text);

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const FRESH = /could not be read: Codex's record of it is empty or damaged \(.+\)\. A new session was started, so this is a fresh start\./;

describe('an unreadable rollout', () => {
  it.each(['empty', 'garbage'] as const)('%s: the next turn starts a fresh session and says so; Restart works too', async (how) => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'first answer' }, { message: 'fresh answer' });
    const first = await orchestrator(inst);
    await turnOn(first, 'coder', 'first question');
    const old = first.chat('coder').view().threadId ?? '';
    expect(old).toBeTruthy();
    await first.shutdown();
    damage(inst, old, how);

    const second = await orchestrator(inst);
    const items = await turnOn(second, 'coder', 'second question');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(items.find((i) => i.type === 'agent')).toMatchObject({ text: 'fresh answer' });
    expect(notices(items).filter((t) => FRESH.test(t))).toHaveLength(1);
    expect(items.filter((i) => i.type === 'error')).toEqual([]);
    const view = second.chat('coder').view();
    expect(view.threadId).not.toBe(old);
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).not.toContain('first question');

    // The new session is itself damaged: Restart (the window's button) starts yet another and says so.
    await second.shutdown();
    damage(inst, view.threadId ?? '', how);
    const third = await orchestrator(inst);
    const chat = third.chat('coder');
    const before = chat.transcript.all().length;
    expect(await chat.restart()).toBe(true);
    const after = chat.transcript.all().slice(before);
    expect(notices(after).filter((t) => FRESH.test(t))).toHaveLength(1);
    expect(chat.view().state).toBe('idle');
  });

  it('angelia run on a damaged session starts a fresh one, says so in its output and exits 0', async () => {
    inst = await makeInstance({ coder: {} });
    inst.model.enqueue({ message: 'first answer' }, { message: 'fresh answer' });
    const first = await runCli(['run', 'coder', 'first question', '--json'], inst.env);
    expect(first.code, first.stderr).toBe(0);
    const thread = (JSON.parse(first.stdout.trim().split('\n').at(-1) ?? '{}') as { thread?: string }).thread ?? '';
    expect(thread).toBeTruthy();
    damage(inst, thread, 'empty');
    const second = await runCli(['run', 'coder', 'second question', '--json'], inst.env);
    expect(second.code, second.stderr).toBe(0);
    const out = second.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; item?: ChatItem; [k: string]: unknown });
    expect(out.filter((o) => o.item?.type === 'notice' && FRESH.test(o.item.text))).toHaveLength(1);
    const end = out.at(-1);
    expect(end).toMatchObject({ type: 'turn-end', ok: true, text: 'fresh answer' });
    expect(end?.thread).not.toBe(thread);
  });
});

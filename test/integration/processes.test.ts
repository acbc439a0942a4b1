/**
 * Codex processes on real Codex (pinned npm package, real Linux sandbox, scripted model): a Codex killed
 * mid-turn, an Angelia killed with its Codex running, the record of children in `<state>/private/children.json`
 * and the restart limit: a crashed app-server fails its turn, withdraws its pending approval and is
 * restarted (resuming the thread) on the next message; no Codex process outlives its Angelia.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/shared/contract';
import { Orchestrator } from '../../src/main/core/chats/orchestrator';
import { ChildLedger, childrenFile, ownerIdentity, type ChildRecord } from '../../src/main/core/codex/children';
import { bootId, processInfo } from '../../src/main/core/codex/identity';
import { startCodexClient } from '../../src/main/core/codex/start';
import { memoryAudit } from '../../src/main/core/approvals/audit';
import { makeInstance, turnOn, type TestInstance } from '../fixtures/instance';
import { isRunning, treeMembers, waitFor, waitGone, waitTreeEmpty } from '../core/codex/processes';

let inst: TestInstance | null = null;
let orchs: Orchestrator[] = [];
let started: ChildProcess[] = [];
/** Codex process groups a test stopped (SIGSTOP): killed if the test failed before the reaper did. */
let stopped: ChildRecord[] = [];
afterEach(async () => {
  for (const c of stopped) if (c.startTime && processInfo(c.pid)?.startTime === c.startTime) process.kill(-c.pid, 'SIGKILL');
  stopped = [];
  await Promise.all(orchs.map((o) => o.shutdown()));
  orchs = [];
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  started = [];
  await inst?.cleanup();
  inst = null;
});

async function orchestrator(i: TestInstance): Promise<Orchestrator> {
  const o = await Orchestrator.create({ paths: i.paths, env: i.env, startCodex: startCodexClient, audit: memoryAudit() });
  orchs.push(o);
  return o;
}

const ledger = (i: TestInstance) => new ChildLedger(childrenFile(i.paths.stateDir));

/** The recorded Codex child of `chatId` (waits until one is recorded). */
async function recordedChild(i: TestInstance, chatId: string, except?: number): Promise<ChildRecord> {
  let rec: ChildRecord | undefined;
  await waitFor(
    () =>
      (rec = ledger(i)
        .list()
        .find((r) => r.chatId === chatId && r.pid !== except)) !== undefined,
    60_000,
  );
  if (!rec) throw new Error(`no Codex child of ${chatId} in ${childrenFile(i.paths.stateDir)}`);
  return rec;
}

function stat(pid: number): { ppid: number; cmdline: string } {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return { ppid: Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') };
}

/** Every live descendant of `pid` (through /proc parent links), whatever its group or session. */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n) || !isRunning(Number(n))) continue;
    try {
      parent.set(Number(n), stat(Number(n)).ppid);
    } catch {
      // Ended while scanning.
    }
  }
  const out: number[] = [];
  for (const p of parent.keys()) {
    for (let up = parent.get(p); up !== undefined && up > 1; up = parent.get(up)) {
      if (up === pid) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

const exitItems = (items: ChatItem[]) =>
  items.filter((i): i is Extract<ChatItem, { type: 'error' }> => i.type === 'error' && i.message.startsWith('Codex exited'));

const turn = turnOn;

describe('Codex processes', () => {
  it('a Codex killed mid-turn fails the turn, withdraws its approval, leaves no process; the next message resumes the thread', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'default' } });
    const target = join(inst.outside, 'out.txt');
    inst.model.enqueue({
      exec: { cmd: `echo hi > ${target}`, login: false, sandbox_permissions: 'require_escalated', justification: 'write the report outside' },
    });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    chat.send('first question');
    const asked = await waitFor(() => o.broker.pending().some((a) => a.chatId === 'coder'), 60_000);
    expect(asked, JSON.stringify(chat.transcript.all())).toBe(true);
    const child = await recordedChild(inst, 'coder');
    expect(stat(child.pid)).toMatchObject({ ppid: process.pid, cmdline: expect.stringContaining('app-server') });
    expect(child.owner).toEqual(ownerIdentity());

    process.kill(child.pid, 'SIGKILL');
    await chat.idle();
    const [exit, ...more] = exitItems(chat.transcript.all());
    expect(more).toEqual([]);
    expect(exit?.message).toMatch(/^Codex exited \(signal SIGKILL\)\. Restart it, or send a message: either starts it again and resumes this conversation\.$/);
    // The cause Codex gave on stderr, if any; never its routine log lines.
    if (exit?.detail != null) expect(exit.detail).not.toMatch(/\b(WARN|INFO|DEBUG)\b/);
    expect(chat.transcript.all().find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'failed' });
    expect(chat.view()).toMatchObject({ state: 'error', pendingApprovals: 0 });
    expect(
      o.broker
        .all()
        .filter((a) => a.chatId === 'coder')
        .map((a) => a.state),
    ).toEqual(['withdrawn']);
    expect(await waitTreeEmpty(child.pid)).toEqual([]);
    expect(
      await waitFor(
        () =>
          !ledger(inst!)
            .list()
            .some((r) => r.pid === child.pid),
      ),
    ).toBe(true);
    expect(existsSync(target)).toBe(false);

    const thread = chat.view().threadId;
    inst.model.enqueue({ message: 'back again' });
    const items = await turn(o, 'coder', 'second question');
    expect(items.find((i) => i.type === 'turnEnd')).toMatchObject({ status: 'completed' });
    expect(items.find((i) => i.type === 'agent')).toMatchObject({ text: 'back again' });
    expect(chat.view()).toMatchObject({ state: 'idle', threadId: thread });
    const restarted = await recordedChild(inst, 'coder', child.pid);
    expect(restarted.pid).not.toBe(child.pid);
    expect(JSON.stringify(inst.model.modelRequests().at(-1)?.body)).toContain('first question');
  });

  it('after three crashes within ten minutes the chat refuses to start Codex and says it keeps crashing', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } });
    const o = await orchestrator(inst);
    const chat = o.chat('coder');
    let last = 0;
    for (let n = 1; n <= 3; n++) {
      inst.model.enqueue({ hang: true });
      chat.send(`question ${n}`);
      const asked = await waitFor(() => inst!.model.modelRequests().length >= n && chat.view().state === 'working', 60_000);
      expect(
        asked,
        JSON.stringify({ requests: inst.model.requests.map((r) => [r.method, r.path, r.source]), view: chat.view(), items: chat.transcript.all().slice(-4) }),
      ).toBe(true);
      const child = await recordedChild(inst, 'coder', last);
      last = child.pid;
      process.kill(child.pid, 'SIGKILL');
      await chat.idle();
    }
    const third = exitItems(chat.transcript.all()).at(-1);
    expect(third?.message).toMatch(/Codex exited \(signal SIGKILL\)\. Codex keeps crashing: it exited unexpectedly 3 times in 10 minutes/);
    expect(chat.view()).toMatchObject({ state: 'error', refusal: expect.stringMatching(/^Codex keeps crashing/) });

    const asked = inst.model.modelRequests().length;
    const items = await turn(o, 'coder', 'question 4');
    const refused = items.find((i) => i.type === 'error');
    expect(refused?.type === 'error' && refused.message).toMatch(
      /^This chat's agent was not started: Codex keeps crashing: .*last: signal SIGKILL.*send your message again after that/,
    );
    expect(chat.view().state).toBe('error');
    expect(inst.model.modelRequests()).toHaveLength(asked);
    expect(ledger(inst).list()).toEqual([]);
  });

  it('a Codex left running by an Angelia killed with SIGKILL is killed with its session when Angelia starts again', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } });
    // A background command in the sandbox (`sleep 600` in a background terminal), then a turn that hangs.
    inst.model.enqueue({ exec: { cmd: 'exec sleep 600', login: false, yield_time_ms: 500 } }, { hang: true });
    const angelia = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/hungAngelia.ts'], {
      cwd: process.cwd(),
      env: { ...inst.env, HUNG_CHAT: 'coder' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    started.push(angelia);
    let out = '';
    angelia.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const running = await waitFor(() => out.includes('working coder') && inst!.model.modelRequests().length >= 2, 90_000);
    expect(running, `Angelia said: ${out}`).toBe(true);
    const child = await recordedChild(inst, 'coder');
    expect(child.owner.pid).toBe(angelia.pid);
    const tree = descendants(child.pid);
    expect(tree.map((p) => stat(p).cmdline)).toContainEqual(expect.stringMatching(/^sleep 600/));

    // Measured with codex 0.169.0: Codex exits by itself when its stdin closes, even mid-turn. A Codex that
    // does not (hung, stopped) outlives Angelia: stand in for that by stopping it first.
    stopped.push(child);
    process.kill(child.pid, 'SIGSTOP');
    const ended = new Promise((r) => angelia.once('exit', r));
    angelia.kill('SIGKILL');
    await ended;
    // Orphaned: still running, adopted by another process once Angelia is gone.
    expect(await waitFor(() => stat(child.pid).ppid !== angelia.pid)).toBe(true);
    expect(isRunning(child.pid)).toBe(true);

    await orchestrator(inst);
    expect(await waitGone(child.pid)).toBe(true);
    expect(await waitTreeEmpty(child.pid)).toEqual([]);
    for (const p of tree) expect(await waitGone(p)).toBe(true);
    expect(ledger(inst).list()).toEqual([]);
  });

  it('does not kill a recorded pid whose start time does not match', async () => {
    inst = await makeInstance({ coder: { permission_mode: 'acceptEdits' } });
    const sleeper = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
    started.push(sleeper);
    const pid = sleeper.pid!;
    const info = processInfo(pid)!;
    ledger(inst).add({
      pid,
      startTime: String(Number(info.startTime) + 1),
      pgid: info.pgid,
      sid: info.sid,
      boot: bootId(),
      chatId: 'coder',
      bin: 'codex',
      owner: { pid: 999_999, startTime: '1' },
      recordedAt: new Date().toISOString(),
    });
    await orchestrator(inst);
    expect(isRunning(pid)).toBe(true);
    expect(treeMembers(pid)).toEqual([pid]);
    expect(ledger(inst).list()).toEqual([]);
  });
});
